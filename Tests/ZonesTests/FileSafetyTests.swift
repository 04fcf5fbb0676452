import DNSSD
import Foundation
import Glibc
import Host
import Testing

@testable import Zones

func scratchDirectory() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zones-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return directory
}

/// Files the operator owns: only regular files (or new paths) are written, links are kept,
/// two outputs that are one file are noticed, and a set of files changes together or not.
@Suite("Writing files the operator owns")
struct FileSafetyTests {
    @Test("a device, a directory and a dangling link are never replaced")
    func onlyRegularFiles() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(symlink(directory + "/nowhere", directory + "/dangling") == 0)
        for path in ["/dev/null", directory, directory + "/dangling"] {
            #expect(throws: AtomicFile.Failure.self, "\(path)") { try AtomicFile.write("x", to: path) }
        }
        var status = stat()
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR, "/dev/null is still a device")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["dangling"], "no temporary file left")
    }

    @Test("a symbolic link to a regular file stays a link; the file it points to is replaced")
    func linksKept() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "old".write(toFile: directory + "/real", atomically: true, encoding: .utf8)
        #expect(symlink(directory + "/real", directory + "/link") == 0)
        try AtomicFile.write("new", to: directory + "/link")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/link") == directory + "/real")
        #expect(try String(contentsOfFile: directory + "/real", encoding: .utf8) == "new")
    }

    @Test("output paths: empty, a directory, a device or control characters are refused; same files are noticed")
    func outputPaths() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for path in ["", "/", directory, directory + "/", "/dev/zero", directory + "/a\nb"] {
            #expect(OutputFile.problem(path) != nil, "\(path.debugDescription)")
        }
        #expect(OutputFile.problem(directory + "/new.db") == nil)
        try "x".write(toFile: directory + "/zone.db", atomically: true, encoding: .utf8)
        #expect(symlink(directory + "/zone.db", directory + "/link") == 0)
        #expect(link(directory + "/zone.db", directory + "/hard") == 0)
        #expect(OutputFile.same(directory + "/zone.db", directory + "/link"))
        #expect(OutputFile.same(directory + "/zone.db", directory + "/hard"))
        #expect(OutputFile.same(directory + "/zone.db", directory + "/../" + (directory as NSString).lastPathComponent + "/zone.db"))
        #expect(OutputFile.same(directory + "/new", directory + "/./new"), "two new paths that are one")
        #expect(!OutputFile.same(directory + "/zone.db", directory + "/Corefile"))
    }

    @Test("both files change or neither: a Corefile that cannot be written leaves the zone as it was")
    func together() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let zone = directory + "/zone.db"
        try "old zone".write(toFile: zone, atomically: true, encoding: .utf8)
        // The Corefile's folder goes away after both were read: its staging fails, after the zone's.
        let gone = directory + "/gone"
        try FileManager.default.createDirectory(atPath: gone, withIntermediateDirectories: false)
        let changes = [try OutputFile.Change(path: zone, text: "new zone"), try OutputFile.Change(path: gone + "/Corefile", text: "x")]
        #expect(changes[0].previous == Array("old zone".utf8))
        try FileManager.default.removeItem(atPath: gone)
        #expect(throws: AtomicFile.Failure.self) { try OutputFile.writeTogether(changes) }
        #expect(try String(contentsOfFile: zone, encoding: .utf8) == "old zone")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["zone.db"], "no temporary file left")
    }
}

@Suite("Inventories: clear errors, hostile beacons skipped")
struct InventoryTests {
    func document(_ beacons: String) -> Data {
        Data(#"{"schema":"clawnet.browse.v1","beacons":[\#(beacons)]}"#.utf8)
    }

    func beacon(_ name: String, port: String = "18789", host: String = "h.local.", addresses: String = #"["100.64.0.1"]"#) -> String {
        #"{"instance":"\#(name)","host":"\#(host)","port":\#(port),"addresses":\#(addresses),"txt":{"role":"gateway"}}"#
    }

    func failure(_ data: Data) -> String {
        do {
            _ = try Inventory.gateways(fromJSON: data, domain: domain)
            return "decoded"
        } catch {
            return error.description
        }
    }

    @Test("valid JSON of the wrong shape names the field and the problem")
    func wrongShape() {
        let fractional = failure(document(beacon("a", port: "1.5")))
        #expect(fractional.contains("beacons[0].port"), "\(fractional)")
        let large = failure(document(beacon("a") + "," + beacon("b", port: "70000")))
        #expect(large.contains("beacons[1].port") && large.contains("70000 is not a port"), "\(large)")
        let text = failure(document(beacon("a", port: "\"x\"")))
        #expect(text.contains("beacons[0].port") && text.contains("expected a number"), "\(text)")
        let missing = failure(Data(#"{"schema":"clawnet.browse.v1"}"#.utf8))
        #expect(missing.contains("beacons") && missing.contains("missing"), "\(missing)")
        let surrogate = failure(document(beacon(#"\ud800"#)))
        #expect(surrogate.contains("not valid JSON") && surrogate.contains("json.tool"), "\(surrogate)")
    }

    @Test("deep nesting is an error, never a crash", arguments: [600, 100_000])
    func deepNesting(depth: Int) {
        let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let message = failure(document(#"{"instance":"a","txt":\#(nested)}"#))
        #expect(message != "decoded" && !message.isEmpty, "\(message)")
    }

    @Test("a beacon that cannot be written is skipped with a note naming it; the others are kept")
    func hostileBeaconSkipped() throws {
        let longHost = String(repeating: "h", count: 63) + ".local."
        let longDomain = try DomainName(validating: (0..<3).map { _ in String(repeating: "d", count: 63) }.joined(separator: "."))
        let data = document(
            [
                beacon("@"), beacon("good"), beacon("linklocal", addresses: #"["fe80::1%eth0"]"#), beacon("toolong", host: longHost),
            ].joined(separator: ","))
        let yield = try Inventory.gateways(fromJSON: data, domain: longDomain)
        let notes = yield.notes
        #expect(yield.gateways.map(\.instance.displayName).sorted() == ["@", "good"], "\(notes)")
        #expect(Set(yield.skipped.map(\.displayName)) == ["linklocal", "toolong"], "skipped instances are named: \(yield.skipped)")
        #expect(notes.contains(.noRoutableAddressSkipped(name: "linklocal")), "\(notes)")
        #expect(
            notes.contains {
                guard case .unpublishableSkipped(let problem) = $0, case .srvTargetTooLong = problem.kind else { return false }
                return problem.gateway == "toolong"
            }, "\(notes)")
    }

    @Test("an inventory path that is a FIFO, a directory or /dev/zero is refused at once")
    func notRegular() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(mkfifo(directory + "/fifo", 0o600) == 0)
        for path in [directory + "/fifo", directory, "/dev/zero"] {
            #expect(throws: Inventory.Failure.self, "\(path)") { try Inventory.gateways(atPath: path, domain: domain) }
        }
    }
}
