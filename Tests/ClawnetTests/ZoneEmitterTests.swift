import ArgumentParser
import DNSSD
import Foundation
import Glibc
import Output
import TestSupport
import Testing
import Zones

@testable import Commands
@testable import Doctor

/// `doctor --emit-zone FILE` writes as clawnet writes files: a new path or a regular file,
/// atomically; never through a symlink or over a directory.
@Suite("doctor --emit-zone")
struct ZoneEmitterTests {
    static func snippet() throws -> ZoneSnippet {
        let domain = try DomainName(validating: "openclaw.internal")
        let gateway = try GatewaySpec.parse("host=studio,ip=10.98.0.1,port=18789,name=Studio (OpenClaw),tls=yes")
        let records = try ZoneWriter.fragment(ZoneContent(domain: domain, gateways: [gateway], nameServerAddresses: [])).text
        return ZoneSnippet(
            domain: domain, target: "wss://10.98.0.1:18789", reason: .missing, differences: [], records: records, corefile: nil,
            gateway: gateway)
    }

    @Test("a new path and a regular file are written with the fragment; a link to one is written through, as zone generate does")
    func targets() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let terminal = Terminal(color: false)
        let path = directory + "/fragment.db"
        try ZoneEmitter.write([try Self.snippet()], to: path, terminal: terminal)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.hasPrefix("; clawnet zone fragment for openclaw.internal.") && written.contains("IN SRV 0 0 18789 studio"))
        let older = written.replacingOccurrences(of: "18789", with: "18790")
        try older.write(toFile: path, atomically: true, encoding: .utf8)
        try ZoneEmitter.write([try Self.snippet()], to: path, terminal: terminal)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == written, "a fragment it wrote before is replaced")
        let link = directory + "/link.db"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        try older.write(toFile: path, atomically: true, encoding: .utf8)
        try ZoneEmitter.write([try Self.snippet()], to: link, terminal: terminal)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == written, "written through the link")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == path, "the link stays a link")
    }

    @Test("a file clawnet did not write (a zone, notes) is never replaced: exit 1 naming it, the file unchanged (issue 18)")
    func othersContentKept() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for content in ["$ORIGIN openclaw.internal.\n@ IN SOA ns1 hostmaster 1 2 3 4 5\nwww IN A 10.0.0.1\n", "my notes\n"] {
            let path = directory + "/notes.txt"
            try content.write(toFile: path, atomically: true, encoding: .utf8)
            #expect {
                try ZoneEmitter.write([try Self.snippet()], to: path, terminal: Terminal(color: false))
            } throws: { error in
                ExitStatus.of(error) == .failure && "\(error)".contains("\(path) holds content clawnet did not write")
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == content)
        }
    }

    @Test(
        "a link nobody planted in a sticky directory: refused when the flag is parsed and when the file is written; the victim stays",
        .enabled(if: geteuid() == 0))
    func plantedLink() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/sticky", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(chmod(directory + "/sticky", 0o1777) == 0)
        let victim = directory + "/victim"
        try "root's\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let link = directory + "/sticky/fragment.db"
        #expect(symlink(victim, link) == 0 && lchown(link, 65534, 65534) == 0)
        #expect {
            try DoctorCommand.parse(["--emit-zone", link])
        } throws: { error in
            DoctorCommand.message(for: error).contains("symbolic link of uid 65534")
        }
        // Planted after the flags were checked: the write itself refuses.
        #expect {
            try ZoneEmitter.write([try Self.snippet()], to: link, terminal: Terminal(color: false))
        } throws: { error in
            ExitStatus.of(error) == .failure && "\(error)".contains("nothing written")
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "root's\n")
    }

    @Test(
        "a directory, an empty path or a path with a control character is a usage error before doctor runs, naming the problem",
        arguments: [("", "empty path"), ("/tmp/", "names a directory"), ("/tmp", "is a directory"), ("a\nb", "control character")])
    func refusedPaths(path: String, problem: String) {
        #expect {
            try DoctorCommand.parse(["--emit-zone", path])
        } throws: { error in
            let message = DoctorCommand.message(for: error)
            return message.contains(problem)
        }
    }
}
