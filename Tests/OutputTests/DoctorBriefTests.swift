import DNSSD
import Testing

@testable import Doctor
@testable import Output

/// Doctor's short form (the default table): a fix once for every Gateway it applies to,
/// skips folded into counts, lines wrapped to the width, never inside a `command`.
@Suite("doctor's short form: grouped fixes, folded skips, wrapped lines")
struct DoctorBriefTests {
    static let plain = Terminal(color: false)

    static func machine() -> [Check] {
        [ReportTests.said(.dnsResolver, .pass, message: "/etc/resolv.conf: 10.0.0.53#53", fix: "")]
            + [CheckID.mdnsDBus, .mdnsDaemon, .mdnsInterfaces, .mdnsPort5353, .mdnsNSS, .mdnsBrowse].map {
                ReportTests.said($0, .skip, message: "mDNS is not checked (--no-local)", fix: "")
            }
    }

    static func refused(_ port: Int) -> DoctorResult.Gateway {
        let target = "127.0.0.1:\(port)"
        return DoctorResult.Gateway(
            target: target, beacon: nil,
            checks: [
                ReportTests.said(.gwDNS, .pass, message: "address 127.0.0.1", fix: ""),
                ReportTests.said(
                    .gwTCP, .fail, message: "no Gateway listens on this machine (\(target) refused)",
                    fix: "start the Gateway here (`openclaw gateway`), or name the one to check: `clawnet doctor wss://<host>:\(port)`"),
            ] + [CheckID.gwTLS, .gwPin, .gwCert, .gwHTTP, .gwWebSocket].map { ReportTests.said($0, .skip, message: "needs TCP", fix: "") })
    }

    static func brief(_ gateways: [DoctorResult.Gateway], width: Int = 80) -> [String] {
        let report = ReportTests.doctor(machine(), gateways: gateways)
        return DoctorReport(report.result, briefWidth: width).table(plain).out
    }

    @Test("a Gateway none of whose checks ran (--check dns.widearea) is 'not checked', never 'every check passed'")
    func notChecked() {
        let lines = Self.brief([DoctorResult.Gateway(target: "127.0.0.1:18789", beacon: nil, checks: [])])
        #expect(lines.contains { $0.contains("127.0.0.1:18789: not checked") }, "\(lines)")
        #expect(!lines.contains { $0.contains("every check passed") }, "\(lines)")
    }

    @Test("100 refused targets: at most 60 lines, none wider than 80 columns, the fix once")
    func hundredRefused() {
        let lines = Self.brief((20_001...20_100).map(Self.refused))
        #expect(lines.count <= 60, "\(lines.count) lines:\n\(lines.joined(separator: "\n"))")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
        #expect(lines.filter { $0.contains("fix: start the Gateway") }.count == 1, "\(lines.joined(separator: "\n"))")
        #expect(lines.joined(separator: " ").contains("127.0.0.1:20100"), "every target is named")
        #expect(!lines.contains { $0.contains("SKIP") }, "skips are counted, not listed")
    }

    @Test("a healthy run: the machine in one line, one line per Gateway, fits a 24-line screen")
    func healthy() {
        let gateways = (1...3).map { index in
            DoctorResult.Gateway(
                target: "wss://gw\(index).local:18789", beacon: nil,
                checks: [CheckID.gwDNS, .gwTCP, .gwTLS, .gwConnect].map { ReportTests.said($0, .pass, message: "fine", fix: "") })
        }
        let lines = Self.brief(gateways)
        #expect(lines.count <= 24, "\(lines.joined(separator: "\n"))")
        #expect(lines.first?.hasPrefix("This machine: 1 passed, 6 skipped") == true, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("  PASS  wss://gw") }.count == 3, "\(lines.joined(separator: "\n"))")
    }

    @Test("the full listing (--all) keeps every check, skips included")
    func fullListing() {
        let report = ReportTests.doctor(Self.machine(), gateways: [Self.refused(20_001)])
        let lines = DoctorReport(report.result).table(Self.plain).out
        #expect(lines.contains { $0.contains("SKIP  mdns.dbus") }, "\(lines.joined(separator: "\n"))")
    }

    @Test("wrapping breaks at spaces, never inside a `command`", arguments: [30, 44, 60, 80])
    func neverInsideACommand(width: Int) {
        let text = "fix: run `clawnet doctor wss://studio.local:18789 --pin sha256:abcdef --timeout 10s` on the node, then restart it"
        let lines = TextWrap.lines(text, first: width, rest: width)
        #expect(lines.joined(separator: " ") == text)
        #expect(lines.allSatisfy { $0.filter { $0 == "`" }.count % 2 == 0 }, "\(lines)")
        #expect(lines.allSatisfy { $0.count <= width || $0.contains("`") }, "\(lines)")
    }

    @Test("the width: COLUMNS, else the terminal's, else 80; never under 40")
    func width() {
        #expect(TextWrap.width(environment: ["COLUMNS": "120"], terminalColumns: 100) == 120)
        #expect(TextWrap.width(environment: [:], terminalColumns: 100) == 100)
        #expect(TextWrap.width(environment: [:], terminalColumns: nil) == 80)
        #expect(TextWrap.width(environment: ["COLUMNS": "10"], terminalColumns: nil) == 40)
    }
}
