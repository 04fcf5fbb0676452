import Avahi
import DNSSD
import DNSWire
import Foundation
import Host
import TestSupport
import Testing

@testable import Discovery
@testable import Doctor
@testable import Output
@testable import Zones

/// Every report: its exit code (the policy lives here), its JSON schema, its table.
@Suite("Reports: exit codes, JSON, tables")
struct ReportTests {
    static let plain = Terminal(color: false)

    static func beacon() -> GatewayBeacon {
        GatewayBeacon(
            instance: try! InstanceName(decoded: "Studio (OpenClaw)"), serviceType: .gateway, domain: .local, source: .mdns,
            host: "studio.local.", port: 18789, addresses: [IPAddress("10.0.0.2")!], txt: try! TXTRecord(pairs: [("role", "gateway")]))
    }

    static func browse(local: Bool = true, domains: [DomainName] = [], beacons: [GatewayBeacon] = [], issues: [DiscoveryIssue] = [])
        -> BrowseReport
    {
        var request = DiscoveryRequest()
        request.local = local
        request.domains = domains
        let snapshot = DiscoverySnapshot(beacons: beacons, issues: issues, timedOut: false, elapsed: .milliseconds(1234))
        return BrowseReport(request: request, snapshot: snapshot)
    }

    static let noDaemon = DiscoveryIssue.noDaemon

    @Test("browse exits 3 when nothing could be done (only mDNS asked, Avahi missing), 1 when nothing was found, 0 with a Gateway")
    func browseExit() throws {
        #expect(Self.browse(issues: [Self.noDaemon]).exitStatus == .environment)
        #expect(Self.browse(beacons: [Self.beacon()], issues: [Self.noDaemon]).exitStatus == .success)
        #expect(Self.browse(domains: [try DomainName(validating: "openclaw.internal")], issues: [Self.noDaemon]).exitStatus == .failure)
        #expect(Self.browse().exitStatus == .failure, "nothing found is a failure")
        #expect(Self.browse(beacons: [Self.beacon()]).exitStatus == .success)
        var unresolved = GatewayBeacon(
            instance: try! InstanceName(decoded: "gw.example.test"), serviceType: .gateway, domain: .local, source: .manual,
            host: "gw.example.test", port: 18789, addresses: [], txt: .empty)
        #expect(Self.browse(beacons: [unresolved]).exitStatus == .failure, "a manual target that did not resolve is not a Gateway found")
        unresolved.addresses = [IPAddress("10.0.0.3")!]
        #expect(Self.browse(beacons: [unresolved]).exitStatus == .success)
    }

    @Test("browse JSON: the schema, the domains, the beacons; the table: rows on stdout, errors and a summary on stderr")
    func browseOutput() throws {
        let report = Self.browse(beacons: [Self.beacon()], issues: [Self.noDaemon])
        let json = try JSONSerialization.jsonObject(with: Data(try JSONOutput.pretty(report).utf8)) as? [String: Any]
        #expect(json?["schema"] as? String == Schema.browse)
        #expect(json?["elapsedMs"] as? Int == 1234)
        #expect((json?["beacons"] as? [Any])?.count == 1)
        let lines = report.table(Self.plain)
        #expect(lines.out.first?.hasPrefix("INSTANCE") == true)
        #expect(lines.out.contains { $0.hasPrefix("Studio (OpenClaw)  ws://studio.local:18789") }, "\(lines.out)")
        let words = DiscoveryIssueText(Self.noDaemon)
        #expect(lines.err == ["error (mdns): \(words.message)", "  fix: \(words.fix ?? "")", "1 Gateway in local. (1.23 s)"])
    }

    static func result(_ requirements: [(Preflight.Requirement, Bool, Bool)]) -> PreflightReport {
        PreflightReport(
            requirements: requirements.map { name, ok, missing in
                Preflight.Result(name: name, ok: ok, missingPrerequisite: missing, ok ? .mdnsWorks : .noGateway)
            }, elapsed: .zero)
    }

    @Test(
        "preflight: 0 when all hold, 3 when every failure lacks a prerequisite, 1 otherwise; the JSON carries the same code",
        arguments: [
            ([(Preflight.Requirement.mdns, true, false)], Output.ExitStatus.success),
            ([(.mdns, false, true)], .environment),
            ([(.mdns, false, true), (.wideArea, false, true)], .environment),
            ([(.mdns, false, true), (.gateway, false, false)], .failure),
            ([(.gateway, true, false), (.wideArea, false, false)], .failure),
        ] as [([(Preflight.Requirement, Bool, Bool)], Output.ExitStatus)])
    func preflightExit(requirements: [(Preflight.Requirement, Bool, Bool)], expected: Output.ExitStatus) throws {
        let report = Self.result(requirements)
        #expect(report.exitStatus == expected)
        let json = try JSONSerialization.jsonObject(with: Data(try JSONOutput.pretty(report).utf8)) as? [String: Any]
        #expect(json?["exitCode"] as? Int == Int(expected.rawValue))
        #expect(json?["schema"] as? String == Schema.preflight)
    }

    static func doctor(_ checks: [Check], gateways: [DoctorResult.Gateway] = []) -> DoctorReport {
        let status = (checks + gateways.flatMap(\.checks)).map(\.status).max() ?? .pass
        return DoctorReport(DoctorResult(status: status, checks: checks, gateways: gateways, diagnosis: [], elapsed: .seconds(1)))
    }

    /// A check whose words come from outside (a DNS server's answer and the DNS client's fix, as a
    /// domain's browse met them): `message` after "PTR <service>: ", and `fix`.
    static func said(_ id: CheckID, _ status: Check.Status, message: String, fix: String) -> Check {
        let issue = DiscoveryIssue(
            source: .mdns, kind: .dnsError,
            .ptrUnanswered(service: Self.saidService, type: "_openclaw-gw._tcp", explanation: message, answer: .failed(fix: fix)))
        return Check(id, status, .domainError, evidence: .wideArea(WideAreaEvidence(domain: .local, found: [], issue: issue)))
    }

    /// The service `said` names.
    static let saidService = "_openclaw-gw._tcp.local."

    @Test("browse's URL column: the URL a node opens (IPv6 in brackets, no root dot), else HOST:PORT without the root dot")
    func urlColumn() throws {
        var manual = Self.beacon()
        manual.host = BeaconHost("::1")
        manual.port = 9
        #expect(BeaconTable.row(manual)[1] == "ws://[::1]:9")
        #expect(BeaconTable.row(Self.beacon())[1] == "ws://studio.local:18789")
        var tls = Self.beacon()
        tls.txt = try TXTRecord(pairs: [("role", "gateway"), ("gatewayTls", "1")])
        #expect(BeaconTable.row(tls)[1] == "wss://studio.local:18789")
        var named = Self.beacon()
        named.host = BeaconHost("gw.example.com.")
        named.addresses = []
        #expect(BeaconTable.row(named)[1] == "gw.example.com:18789", "no safe URL without TLS: the host and port")
    }

    @Test("doctor exits 1 on a failure, 0 with warnings; its table folds a run of skips with one reason into one line")
    func doctorOutput() {
        let warn = Check(
            .mdnsNSS, .warn, .nssMdnsMissing, evidence: .nss(NSSEvidence(hosts: NSSwitchHosts(line: "hosts: files dns"), missing: [])))
        #expect(Self.doctor([warn]).exitStatus == .success)
        let tcp = Self.said(.gwTCP, .fail, message: "refused", fix: "start it")
        let skipped = [CheckID.gwTLS, .gwPin, .gwCert, .gwHTTP].map { Check($0, .skip, .needsTCP) }
        let report = Self.doctor([warn], gateways: [DoctorResult.Gateway(target: "wss://gw:1", beacon: nil, checks: [tcp] + skipped)])
        #expect(report.exitStatus == .failure)
        let out = report.table(Self.plain).out
        #expect(out.contains("  SKIP  gw.tls..gw.http      needs a TCP connection"), "\(out)")
        #expect(out.contains { $0.contains("fix: start it") })
        #expect(!out.contains { $0.hasPrefix("doctor: ") }, "the summary goes to stderr, as every command's")
        #expect(report.summary(Self.plain, exit: 1) == "doctor: 1 failure, 1 warning, 1 Gateway checked (1.00 s)")
    }

    @Test("doctor's JSON gives each check and cause OpenClaw's finding fields (checkId, severity, message, fixHint) beside its own")
    func openClawFindingFields() throws {
        let tcp = Self.said(.gwTCP, .fail, message: "refused", fix: "start it")
        let warn = Self.said(.mdnsDaemon, .warn, message: "slow", fix: "restart it")
        let skip = Check(.gwTLS, .skip, .needsTCP)
        let gateway = DoctorResult.Gateway(target: "wss://gw:1", beacon: nil, checks: [tcp, skip])
        let cause = Diagnosis(.checkFailed, .check(tcp, target: "wss://gw:1"), evidence: [.init(.gwTCP, target: "wss://gw:1")])
        let result = DoctorResult(status: .fail, checks: [warn], gateways: [gateway], diagnosis: [cause], elapsed: .seconds(1))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try JSONOutput.pretty(DoctorReport(result)).utf8)) as? [String: Any])
        let machine = try #require((json["checks"] as? [[String: Any]])?.first)
        #expect(machine["checkId"] as? String == "clawnet/doctor/mdns.daemon" && machine["severity"] as? String == "warning")
        #expect(machine["fixHint"] as? String == "restart it" && machine["fix"] as? String == "restart it")
        let checks = try #require(((json["gateways"] as? [[String: Any]])?.first?["checks"]) as? [[String: Any]])
        #expect(checks.map { $0["severity"] as? String } == ["error", "info"], "\(checks)")
        #expect(checks[0]["message"] as? String == "PTR \(Self.saidService): refused" && checks[0]["fixHint"] as? String == "start it")
        #expect(checks[1]["fixHint"] == nil, "no fix, no fixHint")
        let diagnosis = try #require((json["diagnosis"] as? [[String: Any]])?.first)
        #expect(diagnosis["checkId"] as? String == "clawnet/diagnosis/\(DiagnosisID.checkFailed)", "\(diagnosis)")
        #expect(diagnosis["severity"] as? String == "error", "it explains a failure")
        #expect(
            diagnosis["message"] as? String == diagnosis["cause"] as? String
                && diagnosis["fixHint"] as? String == diagnosis["fix"] as? String)
    }

    @Test("skips fold by their typed reason, not by their words; an empty fix is never printed")
    func foldingByReason() {
        let tcp = Self.said(.gwTCP, .fail, message: "refused", fix: "")
        let folded = [Check(.gwTLS, .skip, .needsTCP), Check(.gwPin, .skip, .needsTCP), Check(.gwCert, .skip, .needsTCP)]
        let alternating = zip([CheckID.gwHTTP, .gwWebSocket, .gwProtocol], [CheckReason.needsTLS, .needsWebSocket, .needsTLS]).map {
            Check($0, .skip, $1)
        }
        let report = Self.doctor(
            [], gateways: [DoctorResult.Gateway(target: "wss://gw:1", beacon: nil, checks: [tcp] + folded + alternating)])
        let out = report.table(Self.plain).out
        #expect(out.contains("  SKIP  gw.tls..gw.cert      needs a TCP connection"), "one reason, three checks: one line\n\(out)")
        #expect(out.filter { $0.contains("needs a TLS handshake") }.count == 2, "two reasons in turn: not folded\n\(out)")
        #expect(!out.contains { $0.trimmingCharacters(in: .whitespaces) == "fix:" }, "an empty fix line\n\(out)")
    }

    @Test("zone check exits 1 on a failing finding; the table puts line numbers in a column, the JSON each finding's code")
    func zoneCheckOutput() throws {
        let service = try DNSName(presentation: "_openclaw-gw._tcp.openclaw.internal.")
        let instance = try DNSName(presentation: "gw._openclaw-gw._tcp.openclaw.internal.")
        let findings = [Finding(.fail, line: 7, .srvMissing(instance: instance)), Finding(.pass, .instancesComplete(1, service: service))]
        let report = ZoneCheckReport(ZoneCheck.Result(file: "z.db", servers: [], apex: nil, status: .fail, findings: findings))
        #expect(report.exitStatus == .failure)
        let lines = report.table(Self.plain)
        #expect(
            lines.out == [
                "FAIL  line 7     'gw' is listed by PTR but has no SRV record",
                "                 fix: add `gw._openclaw-gw._tcp.openclaw.internal. IN SRV 0 0 <port> <host>`",
                "PASS             1 instance of _openclaw-gw._tcp.openclaw.internal. with SRV, TXT and addresses",
            ], "\(lines.out)")
        #expect(lines.err == ["z.db (unknown zone): 1 failure, 0 warnings"])
        let json = try JSONOutput.compact(report)
        #expect(
            json.contains(#""schema":"clawnet.zonecheck.v3""#) && json.contains(#""code":"srvMissing""#)
                && json.contains(#""code":"instancesComplete""#), "\(json)")
    }
}

/// What stops a command, and the status and lines it ends with.
@Suite("Errors: exit status and lines")
struct CommandErrorTests {
    @Test("no D-Bus or no avahi-daemon is a missing prerequisite (3); any other error, Avahi's or not, is a failure (1)")
    func statuses() {
        let issue = { (kind: DiscoveryIssue.Kind) in DiscoveryIssue(source: .mdns, kind: kind, .eventLoopFailed) }
        #expect(ExitStatus.of(issue(.busMissing)) == .environment && ExitStatus.of(issue(.daemonMissing)) == .environment)
        #expect(ExitStatus.of(issue(.browseFailed)) == .failure)
        #expect(ExitStatus.of(ZoneError(.corefileUnreadable)) == .failure && ExitStatus.of(CommandError("c")) == .failure)
        #expect(ExitStatus.of(ZoneError(.noListenAddress)) == .usage, "--bind is the command line's to give")
        #expect(ExitStatus.of(CancellationError()) == .failure)
    }

    @Test("an explained error prints its message and fix; an issue prints as browse prints it; another as `error: ...`")
    func lines() {
        let terminal = ReportTests.plain
        #expect(
            ErrorLines.lines(ZoneError(.noListenAddress), terminal: terminal) == [
                "error: no address for CoreDNS to listen on", "  fix: give --bind IP (this machine has no Tailscale address)",
            ])
        #expect(ErrorLines.lines(CommandError("gone"), terminal: terminal) == ["error: gone"])
        let issue = DiscoveryIssue(source: .mdns, kind: .busMissing, .busAccessDenied)
        #expect(
            ErrorLines.lines(issue, terminal: terminal) == [
                "error (mdns): D-Bus policy denies access to avahi-daemon",
                "  fix: check /usr/share/dbus-1/system.d/avahi-dbus.conf (reinstall avahi-daemon) and reload D-Bus",
            ])
    }
}
