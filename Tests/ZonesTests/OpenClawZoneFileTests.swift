import DNSSD
import DNSWire
import Foundation
import Testing

@testable import Zones

/// Issue 30: `zone generate --out` refused the zone OpenClaw's Gateway wrote. The fixtures in
/// Fixtures/ are the Gateway's own output: the rendering of openclaw/openclaw
/// src/infra/widearea-dns.ts (renderZone with computeContentHash) run in Node, unchanged, with
/// the options named in each test.
@Suite("zone generate --out and the zone OpenClaw's Gateway writes")
struct OpenClawZoneFileTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let today = SerialPolicy.Day(year: 2026, month: 11, day: 29)

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    /// A folder of its own with `bytes` at openclaw.internal.db, removed by `body`'s end.
    static func withZoneFile(_ bytes: [UInt8], _ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("openclaw-zone-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/openclaw.internal.db"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try body(path)
    }

    static func studioZone() throws -> ZoneContent {
        ZoneContent(domain: domain, gateways: [try studio()], nameServerAddresses: [IPAddress("100.101.102.103")!])
    }

    @Test("clawnet's file for the Gateway's records is the Gateway's file, byte for byte, content-hash line included")
    func sameBytes() throws {
        // openclaw-studio.db: serial 2026112903, hostLabel studio, instanceLabel studio-gateway,
        // displayName Studio, TLS with fingerprint ab…ab, tailnetDns, sshPort 22, cliPath.
        let rendered = try ZoneWriter.renderFile(try Self.studioZone(), serial: 2_026_112_903)
        let gateway = try Self.fixture("openclaw-studio.db")
        #expect(rendered.text == String(decoding: gateway, as: UTF8.self))
    }

    @Test("FNV-1a over UTF-16 units, as JavaScript's charCodeAt reads a string (values from Node)")
    func hashUnits() {
        for (text, hash) in [("", "811c9dc5"), ("a", "e40c292c"), ("🦞", "db2c01ad"), ("Jörg\n", "1b9d03d0")] {
            #expect(OpenClawContentHash.line(maskedBody: text) == "; openclaw-content-hash: \(hash)", "\(text)")
        }
    }

    @Test("the Gateway's file with the same records: recognised and left as it is (no serial bump, not rewritten)")
    func sameRecordsUntouched() throws {
        try Self.withZoneFile(try Self.fixture("openclaw-studio.db")) { path in
            let before = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
            let outcome = try ZoneFileUpdate.write(try Self.studioZone(), to: path, today: Self.today)
            #expect(!outcome.changed && outcome.serial == 2_026_112_903 && outcome.previousSerial == 2_026_112_903)
            let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
            #expect(inode == before, "rewritten")
            let after = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(after == (try Self.fixture("openclaw-studio.db")))
        }
    }

    @Test("the Gateway's UTF-8 TXT against clawnet's \\DDD: the same records, so the file is left as it is")
    func sameRecordsOtherText() throws {
        // openclaw-utf8.db: serial 2026112801, host name jörgs-mac, displayName "Jörg’s Studio 🦞".
        let gateway = try GatewaySpec.parse("host=j-rgs-mac,ip=100.101.102.104,name=j-rgs-mac-gateway,display=Jörg’s Studio 🦞")
        let content = ZoneContent(domain: domain, gateways: [gateway], nameServerAddresses: [IPAddress("100.101.102.104")!])
        try Self.withZoneFile(try Self.fixture("openclaw-utf8.db")) { path in
            let outcome = try ZoneFileUpdate.write(content, to: path, today: Self.today)
            #expect(!outcome.changed && outcome.serial == 2_026_112_801, "\(outcome.text)")
        }
    }

    @Test("a Gateway added to the Gateway's file: its serial continued as nextSerial does, the content-hash line the Gateway's")
    func addedGatewayContinuesSerial() throws {
        var content = try Self.studioZone()
        content.gateways.append(try GatewaySpec.parse("host=lab,ip=100.101.102.110,name=lab-gateway"))
        for (day, serial) in [(Self.today, UInt32(2_026_112_904)), (SerialPolicy.Day(year: 2026, month: 11, day: 30), 2_026_113_001)] {
            try Self.withZoneFile(try Self.fixture("openclaw-studio.db")) { path in
                let outcome = try ZoneFileUpdate.write(content, to: path, today: day)
                #expect(outcome.changed && outcome.previousSerial == 2_026_112_903 && outcome.serial == serial)
                let written = try String(contentsOfFile: path, encoding: .utf8)
                let lines = written.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                #expect(OpenClawContentHash.isLine(lines[0]), "\(lines[0])")
                // The Gateway's hash: its body with the serial written as SERIAL.
                let masked = lines.dropFirst().joined(separator: "\n").replacing(" \(serial) 7200 ", with: " SERIAL 7200 ")
                #expect(lines[0] == OpenClawContentHash.line(maskedBody: masked))
                #expect(written.contains("lab-gateway._openclaw-gw._tcp IN SRV 0 0 18789 lab"))
                // Written again: unchanged.
                let again = try ZoneFileUpdate.write(content, to: path, today: day)
                #expect(!again.changed)
            }
        }
    }

    @Test(
        "a file with records neither program writes, or a comment in another form, is still refused and left as it is",
        arguments: [
            "www IN CNAME studio\n", "studio IN TXT \"v=spf1 -all\"\n", "_http._tcp IN PTR web._http._tcp\n", "; a note by hand\n",
        ])
    func foreignRecordsRefused(extra: String) throws {
        let original = try Self.fixture("openclaw-studio.db") + Array(extra.utf8)
        try Self.withZoneFile(original) { path in
            #expect(throws: ZoneError.self) { try ZoneFileUpdate.write(try Self.studioZone(), to: path, today: Self.today) }
            let after = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(after == original)
        }
    }

    @Test(
        "only the Gateway's own first line counts as its comment",
        arguments: ["; openclaw-content-hash: DDD58040", "; openclaw-content-hash: ddd5804", "; something else: ddd58040", "  ; x"])
    func otherFirstLinesRefused(first: String) throws {
        var lines = String(decoding: try Self.fixture("openclaw-studio.db"), as: UTF8.self).split(separator: "\n").map(String.init)
        lines[0] = first
        let original = Array((lines.joined(separator: "\n") + "\n").utf8)
        try Self.withZoneFile(original) { path in
            #expect(throws: ZoneError.self) { try ZoneFileUpdate.write(try Self.studioZone(), to: path, today: Self.today) }
        }
    }
}
