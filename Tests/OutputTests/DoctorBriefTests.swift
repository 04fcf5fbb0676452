import DNSSD
import Foundation
import Probes
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

    /// The short form with the causes doctor names: each failing check of a Gateway is its
    /// own cause here (`check-failed`, as when no rule explains it), with the check's fix.
    static func diagnosed(_ machine: [Check], _ gateways: [DoctorResult.Gateway], width: Int = 80) -> [String] {
        let causes = gateways.flatMap { gateway in
            gateway.checks.filter { $0.status == .fail }.map {
                Diagnosis(.checkFailed, .check($0, target: gateway.target), evidence: [.init($0.id, target: gateway.target)])
            }
        }
        let result = DoctorResult(status: .fail, checks: machine, gateways: gateways, diagnosis: causes, elapsed: .seconds(1))
        return DoctorReport(result, briefWidth: width).table(plain).out
    }

    @Test("a fix is printed once: the check a cause explains points to the cause's number, the cause carries the fix")
    func fixOnce() {
        let lines = Self.diagnosed(Self.machine(), [Self.refused(1)])
        let text = lines.joined(separator: "\n")
        #expect(lines.filter { $0.contains("start the Gateway here") }.count == 1, "\(text)")
        #expect(text.contains("(see Diagnosis 1)"), "\(text)")
        let fix = lines.firstIndex { $0.contains("fix: start the Gateway") } ?? -1
        let cause = lines.firstIndex { $0.hasPrefix("  1. ") } ?? Int.max
        #expect(fix > cause, "the fix is the cause's, under it: \(text)")
    }

    @Test("a warning or failure that no cause names keeps its own fix, and points nowhere")
    func unexplainedKeepsItsFix() {
        let warning = ReportTests.said(.mdnsNSS, .warn, message: "nsswitch does not ask mDNS", fix: "install libnss-mdns")
        let lines = Self.diagnosed(Self.machine() + [warning], [Self.refused(1)])
        let text = lines.joined(separator: "\n")
        #expect(text.contains("fix: install libnss-mdns"), "\(text)")
        #expect(lines.filter { $0.contains("see Diagnosis") }.count == 1, "only the explained check points: \(text)")
    }

    @Test("100 refused targets with their causes: at most 60 lines, the fix once, every target named")
    func hundredRefusedDiagnosed() {
        let lines = Self.diagnosed(Self.machine(), (20_001...20_100).map(Self.refused))
        let text = lines.joined(separator: "\n")
        #expect(lines.count <= 45, "\(lines.count) lines:\n\(text)")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
        #expect(lines.filter { $0.contains("start the Gateway here") }.count == 1, "\(text)")
        #expect(text.contains("(and 99 more Gateways the same way, listed above)"), "\(text)")
        #expect(text.contains("(see Diagnosis 1)") && text.contains("127.0.0.1:20100"), "\(text)")
        #expect(text.contains("`clawnet doctor wss://<host>:<port>`") && !text.contains(":20001`"), "no one target's port: \(text)")
    }

    @Test("Gateways grouped under one cause on the same port keep that port in the fix")
    func samePortKeepsIt() {
        let gateways = ["127.0.0.1", "127.0.0.2"].map { host in
            let refused = Self.refused(20_001)
            return DoctorResult.Gateway(target: "\(host):20001", beacon: nil, checks: refused.checks)
        }
        let text = Self.diagnosed(Self.machine(), gateways).joined(separator: "\n")
        #expect(text.contains("`clawnet doctor wss://<host>:20001`") && !text.contains("<port>"), "\(text)")
    }

    /// 127.0.0.1 where nothing listens, while a Gateway was found elsewhere (gw.tcp skipped).
    static func vacant() -> DoctorResult.Gateway {
        let here = ProbeTarget(label: "127.0.0.1:18789", host: "127.0.0.1", addresses: [IPAddress("127.0.0.1")!], port: 18789, tls: false)
        return DoctorResult.Gateway(
            target: "127.0.0.1:18789", beacon: nil,
            checks: [
                ReportTests.said(.gwDNS, .pass, message: "address 127.0.0.1", fix: ""),
                Check(.gwTCP, .skip, .noLocalGateway, evidence: .tcp(TCPEvidence(ProbeReport(target: here), budget: .zero, routes: []))),
                ReportTests.said(.gwTLS, .skip, message: "needs TCP", fix: ""),
            ])
    }

    @Test("the implicit 127.0.0.1 where nothing listens is no Gateway: SKIP with why, never PASS, and not counted")
    func vacantFallback() throws {
        let found = DoctorResult.Gateway(
            target: "wss://gw.local:18789", beacon: nil,
            checks: [CheckID.gwDNS, .gwTCP].map { ReportTests.said($0, .pass, message: "fine", fix: "") })
        let report = ReportTests.doctor(Self.machine(), gateways: [found, Self.vacant()])
        let lines = DoctorReport(report.result, briefWidth: 200).table(Self.plain).out
        #expect(lines.contains("Gateways: 1 checked"), "\(lines.joined(separator: "\n"))")
        let line = try #require(lines.first { $0.contains("127.0.0.1:18789") }, "\(lines)")
        #expect(line.hasPrefix("  SKIP  127.0.0.1:18789: no Gateway runs on this machine"), "\(line)")
        #expect(!line.contains("passed"), "\(line)")
        let summary = DoctorReport(report.result).summary(Self.plain, exit: 0) ?? ""
        #expect(summary.contains("1 Gateway checked"), "\(summary)")
        #expect(Self.vacant().status == .skip && found.status == .pass)
    }

    @Test("each Gateway's status in the JSON is its mark in the table: the worst of its checks, skip when none ran")
    func gatewayStatusInJSON() throws {
        let gateways = [Self.refused(20_001), Self.vacant(), DoctorResult.Gateway(target: "127.0.0.1:9", beacon: nil, checks: [])]
        let report = ReportTests.doctor(Self.machine(), gateways: gateways)
        let json = try JSONOutput.pretty(DoctorReport(report.result))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let listed = try #require(object["gateways"] as? [[String: Any]], "\(json)")
        #expect(listed.map { $0["status"] as? String } == ["fail", "skip", "skip"], "\(json)")
        let lines = DoctorReport(report.result, briefWidth: 200).table(Self.plain).out
        #expect(lines.contains { $0.hasPrefix("  FAIL  127.0.0.1:20001") }, "\(lines.joined(separator: "\n"))")
    }

    @Test("--check of machine checks only: no Gateway is reported or counted; of Gateway checks only: no machine line")
    func checkSelection() {
        let gateway = GatewayResult(
            evidence: GatewayEvidence(
                ProbeReport(target: ProbeTarget(label: "127.0.0.1:1", host: "127.0.0.1", addresses: [], port: 1, tls: false)), budget: .zero
            ),
            checks: Self.refused(1).checks)
        let machineOnly = DoctorResult(machine: Self.machine(), gateways: [gateway], diagnosis: [], only: [.mdnsDBus])
        #expect(machineOnly.gateways.isEmpty && machineOnly.checks.map(\.id) == [.mdnsDBus], "\(machineOnly.gateways)")
        let summary = DoctorReport(machineOnly).summary(Self.plain, exit: 0) ?? ""
        #expect(summary.contains("0 Gateways checked"), "\(summary)")
        let gatewayOnly = DoctorResult(machine: Self.machine(), gateways: [gateway], diagnosis: [], only: [.gwDNS, .gwTCP])
        let lines = DoctorReport(gatewayOnly, briefWidth: 80).table(Self.plain).out
        #expect(gatewayOnly.checks.isEmpty && !lines.contains { $0.hasPrefix("This machine") }, "\(lines)")
        #expect(lines.first == "Gateways: 1 checked", "\(lines)")
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
