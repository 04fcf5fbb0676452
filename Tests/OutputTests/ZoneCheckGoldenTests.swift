import DNSSD
import Foundation
import Testing

@testable import Output
@testable import Zones

/// zone check's JSON (clawnet.zonecheck.v3) and table for one broken zone, compared with the
/// files in Golden/. After a change meant to alter them, run with CLAWNET_RECORD_GOLDEN=1 and
/// review the diff.
@Suite("Golden zone check reports")
struct ZoneCheckGoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let recording = ProcessInfo.processInfo.environment["CLAWNET_RECORD_GOLDEN"] == "1"

    /// A bad address (in our words, not ldns's), an SRV without its host, a PTR to nothing.
    static let zone = """
        $ORIGIN openclaw.internal.
        $TTL 60
        @ IN SOA ns1 hostmaster 2026112201 7200 3600 1209600 60
        @ IN NS ns1
        ns1 IN A 100.64.0.53
        studio IN A 100.64.0.300
        _openclaw-gw._tcp IN PTR Studio._openclaw-gw._tcp
        _openclaw-gw._tcp IN PTR ghost._openclaw-gw._tcp
        Studio._openclaw-gw._tcp IN SRV 0 0 18789 studio
        Studio._openclaw-gw._tcp IN TXT "role=gateway" "gatewayPort=18789"

        """

    @Test("a broken zone: the JSON and the table are the golden ones; findings say `status` as doctor does")
    func brokenZone() async throws {
        var request = ZoneCheck.Request(path: "-", domain: nil)
        request.text = Array(Self.zone.utf8)
        let result = try await ZoneCheck.run(request, today: SerialPolicy.Day(year: 2026, month: 11, day: 22))
        let report = ZoneCheckReport(result)
        let json = try JSONOutput.pretty(report)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(document["schema"] as? String == "clawnet.zonecheck.v3")
        let findings = document["findings"] as? [[String: Any]] ?? []
        #expect(!findings.isEmpty && findings.allSatisfy { $0["status"] is String && $0["severity"] == nil }, "\(findings)")
        try Self.compare(json + "\n", file: "zonecheck-broken.json")
        let terminal = Terminal(color: false, stdoutIsTTY: false, stderrIsTTY: false)
        let lines = report.table(terminal)
        try Self.compare(
            (lines.out + ["--- stderr"] + lines.err).map(terminal.render).joined(separator: "\n") + "\n", file: "zonecheck-broken.txt")
    }

    static func compare(_ produced: String, file name: String) throws {
        let url = directory.appendingPathComponent(name)
        if recording {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(produced.utf8).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        let new = produced.split(separator: "\n", omittingEmptySubsequences: false)
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        guard let line = (0..<max(new.count, old.count)).first(where: { $0 >= new.count || $0 >= old.count || new[$0] != old[$0] }) else {
            return
        }
        Issue.record(
            """
            \(name) differs from its golden file at line \(line + 1):
              golden: \(line < old.count ? String(old[line]) : "<end>")
              now:    \(line < new.count ? String(new[line]) : "<end>")
            """)
    }
}
