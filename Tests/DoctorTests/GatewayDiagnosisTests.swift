import Avahi
import DNSSD
import Discovery
import Foundation
import Host
import TestSupport
import Testing

@testable import Doctor
@testable import Output
@testable import Probes

/// The checks made from one Gateway's probe report, and the causes they lead to.
@Suite("Gateway checks and their diagnosis")
struct GatewayDiagnosisTests {
    func checks(_ report: ProbeReport, pin: TLSFingerprint? = nil, dnsProblem: DNSProblem? = nil) -> [Check] {
        GatewayChecks.run(Recorded.evidence(report, pin: pin, dnsProblem: dnsProblem))
    }

    /// The Gateway of `report` with `checks`, as the rules see it.
    func result(_ report: ProbeReport, beacon: GatewayBeacon?, checks: [Check], pin: TLSFingerprint? = nil) -> GatewayResult {
        GatewayResult(evidence: Recorded.evidence(report, beacon: beacon, pin: pin), checks: checks)
    }

    func diagnose(_ gateways: [GatewayResult]) -> [Diagnosis] {
        let system = RecordedSystem()
        let discovery = Recorded.discovery(beacons: gateways.compactMap(\.beacon))
        let facts = MachineFacts.gather(system)
        return DiagnosisRules.diagnose(
            MachineResult(checks: MachineChecks.run(facts, discovery: discovery), facts: facts, discovery: discovery), gateways: gateways)
    }

    @Test("a healthy Gateway: all nine checks pass, in catalog order")
    func healthy() {
        let result = checks(Recorded.healthyReport())
        #expect(result.map(\.id) == CheckID.gateway)
        #expect(result.allSatisfy { $0.status == .pass }, "\(result.filter { $0.status != .pass })")
        #expect(result["gw.tls"]?.detail["sha256"] == Recorded.certificateSHA.hex)
    }

    @Test("advertised by mDNS but TCP refused: gateway-not-listening says start it (never gateway.bind); a manual target does not")
    func notListening() throws {
        let beacon = Recorded.beacon()
        let target = Recorded.target()
        let result = checks(Recorded.refusedReport(target))
        #expect(result.status("gw.tcp") == .fail)
        #expect(result.dropFirst(2).allSatisfy { $0.status == .skip })
        let diagnosis = diagnose([self.result(Recorded.refusedReport(target), beacon: beacon, checks: result)])
        let cause = try #require(diagnosis.first { $0.id == "gateway-not-listening" })
        #expect(cause.cause.contains("192.168.1.30 port 18789"))
        #expect(cause.cause.contains("mDNS"))
        #expect(cause.fix.contains("openclaw gateway start") && !cause.fix.contains("set gateway.bind"), "\(cause.fix)")
        #expect(cause.evidence.map(\.description) == ["gw.tcp wss://studio.local:18789"])
        let manual = diagnose([self.result(Recorded.refusedReport(target), beacon: nil, checks: result)])
        #expect(!manual.contains { $0.id == "gateway-not-listening" })
    }

    /// Issue 30's idle flood: a server out of connections accepts and resets at once, which
    /// doctor used to call "an unexpected error (ChannelPipelineError)".
    @Test("accepted and reset at once: gw.tcp says connection reset, names no route or firewall, and says how to count connections")
    func resetAtOnce() throws {
        var reset = ProbeReport(target: Recorded.target())
        reset.tcp = [TCPAttempt(address: IPAddress("192.168.1.30")!, outcome: .reset, elapsed: .milliseconds(2))]
        let result = checks(reset)
        let tcp = try #require(result["gw.tcp"])
        #expect(tcp.status == .fail && tcp.reason == .connectionReset, "\(tcp.reason): \(tcp.message)")
        #expect(tcp.message.hasPrefix("connection reset: 192.168.1.30:18789 reset at once"), "\(tcp.message)")
        #expect(tcp.fix?.contains("ss -tn state established") == true, "\(tcp.fix ?? "")")
        let diagnosis = diagnose([self.result(reset, beacon: Recorded.beacon(txt: Recorded.tlsTXT), checks: result)])
        #expect(
            !diagnosis.contains { ["firewall", "host-unreachable", "unroutable-address"].contains($0.id.rawValue) },
            "\(diagnosis.map(\.id))")
        #expect(diagnosis.contains { $0.id == .connectionReset }, "\(diagnosis.map(\.id))")
    }

    @Test("refused on 127.0.0.1 names this machine; timeouts point at a firewall")
    func refusedAndTimedOut() {
        let local = ProbeTarget(label: "127.0.0.1:18789", host: "127.0.0.1", addresses: [IPAddress("127.0.0.1")!], port: 18789, tls: false)
        let here = checks(Recorded.refusedReport(local))
        #expect(here["gw.tcp"]?.message.hasPrefix("no Gateway listens on this machine") == true)
        #expect(here["gw.tcp"]?.fix?.contains("openclaw gateway") == true)

        var dropped = ProbeReport(target: Recorded.target())
        dropped.tcp = [TCPAttempt(address: IPAddress("192.168.1.30")!, outcome: .timedOut, elapsed: .seconds(5))]
        let result = checks(dropped)
        #expect(result.status("gw.tcp") == .fail)
        #expect(result["gw.tcp"]?.fix?.contains("ufw allow 18789/tcp") == true)
        let diagnosis = diagnose([self.result(dropped, beacon: Recorded.beacon(txt: Recorded.tlsTXT), checks: result)])
        #expect(diagnosis.contains { $0.id == "firewall" })
    }

    @Test("the local fallback: skipped when other Gateways were found, a warning when this machine has an OpenClaw config")
    func localFallback() {
        let local = ProbeTarget(label: "127.0.0.1:18789", host: "127.0.0.1", addresses: [IPAddress("127.0.0.1")!], port: 18789, tls: false)
        let refused = checks(Recorded.refusedReport(local))
        let node = GatewayJudgement.relaxLocalFallback(refused, configured: false)
        #expect(node.status("gw.tcp") == .skip)
        #expect(node["gw.tcp"]?.message.contains("127.0.0.1:18789") == true)
        let gatewayHost = GatewayJudgement.relaxLocalFallback(refused, configured: true)
        #expect(gatewayHost.status("gw.tcp") == .warn)
        #expect(gatewayHost["gw.tcp"]?.fix != nil)
        // Anything but "nothing listens here" stays as it was.
        let other = checks(Recorded.healthyReport())
        #expect(GatewayJudgement.relaxLocalFallback(other, configured: false) == other)
    }

    @Test("a --pin that differs: failure with expected and observed, whatever the TXT says")
    func pinMismatch() throws {
        let target = Recorded.target(advertised: Recorded.certificateSHA)
        let report = Recorded.healthyReport(target)
        let result = checks(report, pin: Recorded.otherSHA)
        let pin = try #require(result["gw.pin"])
        #expect(pin.status == .fail)
        #expect(
            pin.message.contains("expected \(Recorded.otherSHA.hex)") && pin.message.contains("observed \(Recorded.certificateSHA.hex)"))
        #expect(pin.detail["expected"] == Recorded.otherSHA.hex)
        let diagnosis = diagnose([
            self.result(report, beacon: Recorded.beacon(txt: Recorded.tlsTXT), checks: result, pin: Recorded.otherSHA)
        ])
        #expect(diagnosis.map(\.id) == ["pin-changed"])
        #expect(diagnosis.first?.cause.contains("pinned") == true)
    }

    @Test("a TXT fingerprint never overrides the user's pin: pin matches, TXT differs -> a warning, not a failure")
    func pinWinsOverTXT() {
        let target = Recorded.target(advertised: Recorded.otherSHA)
        let result = checks(Recorded.healthyReport(target), pin: Recorded.certificateSHA)
        #expect(result.status("gw.pin") == .warn)
        #expect(result["gw.pin"]?.message.contains("matches your pin") == true)
    }

    @Test("no pin, TXT differs from the certificate: pin-changed says rotated certificate or TLS proxy")
    func rotated() {
        let target = Recorded.target(advertised: Recorded.otherSHA)
        let report = Recorded.healthyReport(target)
        let result = checks(report)
        #expect(result.status("gw.pin") == .fail)
        let diagnosis = diagnose([self.result(report, beacon: Recorded.beacon(txt: Recorded.tlsTXT), checks: result)])
        #expect(diagnosis.map(\.id) == ["pin-changed"])
        #expect(diagnosis.first?.cause.contains("rotated") == true && diagnosis.first?.cause.contains("proxy") == true)
        // Matching TXT and no pin, or nothing at all: both pass.
        #expect(checks(Recorded.healthyReport(Recorded.target(advertised: Recorded.certificateSHA))).status("gw.pin") == .pass)
        #expect(checks(Recorded.healthyReport(Recorded.target())).status("gw.pin") == .pass)
    }

    @Test("TLS expected, plain HTTP answers: tls-expected with the ws:// fix; nothing after TLS runs")
    func tlsExpected() throws {
        let report = Recorded.healthyReport(tls: .notTLS(firstBytes: Array("HTTP/1.1 400 Bad Request\r\n".utf8)))
        let result = checks(report)
        #expect(result.status("gw.tls") == .fail)
        #expect(result["gw.tls"]?.fix?.contains("ws://") == true)
        #expect(["gw.pin", "gw.cert", "gw.http", "gw.websocket", "gw.protocol", "gw.connect"].allSatisfy { result.status($0) == .skip })
        let diagnosis = diagnose([
            self.result(report, beacon: Recorded.beacon(txt: [("role", "gateway"), ("gatewayTls", "1")]), checks: result)
        ])
        let cause = try #require(diagnosis.first { $0.id == "tls-expected" })
        #expect(cause.cause.contains("gatewayTls=1"))
    }

    @Test("a TLS server probed as plain ws://: both layers say wss://, and a beacon without gatewayTls=1 is the cause")
    func tlsNotAdvertised() throws {
        let target = Recorded.target(tls: false)
        var report = Recorded.healthyReport(target)
        report.health = PhaseTiming(outcome: .wantsTLS, elapsed: .zero)
        report.websocket = PhaseTiming(outcome: .wantsTLS, elapsed: .zero)
        let result = checks(report)
        #expect(result.status("gw.http") == .fail && result.status("gw.websocket") == .fail)
        #expect(result["gw.websocket"]?.fix?.contains("clawnet doctor wss://studio.local:18789") == true)
        let diagnosis = diagnose([self.result(report, beacon: Recorded.beacon(), checks: result)])
        let cause = try #require(diagnosis.first { $0.id == "tls-not-advertised" })
        #expect(cause.cause.contains("its beacon has no gatewayTls=1"))
        #expect(!diagnosis.contains { $0.id == "gw-websocket" }, "one cause, not two")
        // A beacon that says TLS (gatewayTls=1, or only its fingerprint) is never blamed: ws:// was given.
        let fingerprintOnly: [(key: String, value: String?)] = [("role", "gateway"), ("gatewayTlsSha256", Recorded.certificateSHA.hex)]
        for txt in [Recorded.tlsTXT, fingerprintOnly] {
            let said = diagnose([self.result(report, beacon: Recorded.beacon(txt: txt), checks: result)])
            let given = try #require(said.first { $0.id == "tls-not-advertised" })
            guard case .tlsNotAdvertised(_, let plain, _) = given.finding else {
                Issue.record("\(given.finding)")
                continue
            }
            #expect(plain == .givenDespiteBeacon && !given.cause.contains("no gatewayTls"), "\(txt): \(given.cause)")
            #expect(given.fix.contains("wss://studio.local:18789"), "\(given.fix)")
        }
    }

    @Test("TLS 1.2 fails (Gateways require 1.3); alerts and stalls are named")
    func tlsFailures() {
        let old = checks(Recorded.healthyReport(tls: .established(Recorded.tlsFacts(version: .tls12))))
        #expect(old.status("gw.tls") == .fail)
        #expect(old["gw.tls"]?.message.contains("TLS 1.3") == true)
        let alert = checks(Recorded.healthyReport(tls: .alert(TLSAlert(code: 70))))
        #expect(alert["gw.tls"]?.message.contains("protocol_version") == true)
        let stall = checks(Recorded.healthyReport(tls: .timedOut(bytesReceived: 0)))
        #expect(stall["gw.tls"]?.message.contains("no TLS handshake within 5.0 s") == true)
        #expect(stall["gw.tls"]?.fix?.contains("openssl s_client") == true)
    }

    @Test("certificates: expired fails, not yet valid fails, expiring within 14 days warns")
    func certificates() {
        let now = Date()
        let expired = GatewayChecks.certificate(Recorded.tlsFacts(notAfter: now.addingTimeInterval(-60)), now: now)
        #expect(expired.status == .fail && expired.message.contains("expired"))
        let future = GatewayChecks.certificate(Recorded.tlsFacts(notBefore: now.addingTimeInterval(86_400)), now: now)
        #expect(future.status == .fail && future.fix?.contains("timedatectl") == true)
        let soon = GatewayChecks.certificate(Recorded.tlsFacts(notAfter: now.addingTimeInterval(3 * 86_400)), now: now)
        #expect(soon.status == .warn)
        #expect(CheckText.iso(Date(timeIntervalSince1970: 1_767_225_600)) == "2026-01-01 00:00Z")
        #expect(CheckText.iso(Date(timeIntervalSince1970: 951_782_400 + 3_723)) == "2000-02-29 01:02Z")
    }

    @Test("HTTP and WebSocket layers: not-ready warns, 200 to the upgrade fails, a wrong first frame fails gw.protocol")
    func upperLayers() {
        var report = Recorded.healthyReport()
        report.ready = PhaseTiming(outcome: .response(status: 503, body: "starting", server: nil), elapsed: .zero)
        #expect(checks(report).status("gw.http") == .warn)

        report = Recorded.healthyReport()
        report.websocket = PhaseTiming(outcome: .upgradeRefused(status: 200), elapsed: .zero)
        let refused = checks(report)
        #expect(refused.status("gw.websocket") == .fail && refused.status("gw.protocol") == .skip)
        #expect(refused["gw.websocket"]?.fix?.contains("proxy_set_header Upgrade") == true)

        report.websocket = PhaseTiming(
            outcome: .opened(
                FirstFrame(
                    text: #"{"type":"event","event":"tick"}"#,
                    content: .unexpected(problem: "the first event is 'tick', not connect.challenge")), closedCleanly: true),
            elapsed: .zero)
        let wrong = checks(report)
        #expect(wrong.status("gw.websocket") == .pass && wrong.status("gw.protocol") == .fail)
        let diagnosis = diagnose([self.result(report, beacon: Recorded.beacon(txt: Recorded.tlsTXT), checks: wrong)])
        #expect(diagnosis.map(\.id) == ["gw-protocol"])
    }

    /// Reports in which each layer goes wrong in turn, recorded.
    static var brokenReports: [ProbeReport] {
        let target = Recorded.target()
        var reports: [ProbeReport] = []
        for tls: TLSOutcome in [
            .alert(TLSAlert(code: 70)), .alert(TLSAlert(code: 112)), .timedOut(bytesReceived: 0), .handshakeFailed("reset"),
            .notTLS(firstBytes: Array("HTTP/1.1 400".utf8)), .established(Recorded.tlsFacts(version: .tls12)),
            .established(Recorded.tlsFacts(notAfter: Date(timeIntervalSinceNow: -60))),
        ] {
            reports.append(Recorded.healthyReport(target, tls: tls))
        }
        for outcome: HTTPOutcome in [
            .failed("reset"), .wantsTLS, .timedOut(bytesReceived: 3), .response(status: 404, body: "", server: "nginx"),
        ] {
            var report = Recorded.healthyReport(target)
            report.health = PhaseTiming(outcome: outcome, elapsed: .zero)
            reports.append(report)
        }
        for outcome: WebSocketOutcome in [
            .upgradeRefused(status: 200), .upgradeFailed("bad accept"), .wantsTLS, .frameTooLarge(limit: 65_536),
            .closedBeforeFirstFrame(code: 1008), .timedOut(upgraded: true, bytesReceived: 0), .timedOut(upgraded: false, bytesReceived: 0),
            .framesBroken("ping flood"), .failed("reset"),
            .opened(FirstFrame(text: "{}", content: .unexpected(problem: "not an event")), closedCleanly: true),
        ] {
            var report = Recorded.healthyReport(target)
            report.websocket = PhaseTiming(outcome: outcome, elapsed: .zero)
            reports.append(report)
        }
        for attempt: TCPAttempt.Outcome in [.refused, .timedOut, .unreachable("no route"), .reset, .failed("broken")] {
            var report = ProbeReport(target: target)
            report.tcp = [TCPAttempt(address: target.addresses[0], outcome: attempt, elapsed: .zero)]
            reports.append(report)
        }
        return reports
    }

    @Test("every warning and failure doctor makes from a broken Gateway has a fix, and so does every cause")
    func everyProblemHasAFix() {
        for report in Self.brokenReports {
            let made = checks(report, pin: Recorded.otherSHA)
            let bare = made.filter { ($0.status == .warn || $0.status == .fail) && ($0.fix ?? "").isEmpty }
            #expect(bare.isEmpty, "no fix: \(bare.map { "\($0.id) \($0.reason) \($0.message)" })")
            let causes = diagnose([self.result(report, beacon: Recorded.beacon(txt: Recorded.tlsTXT), checks: made, pin: Recorded.otherSHA)]
            )
            #expect(!causes.isEmpty && causes.allSatisfy { !$0.fix.isEmpty }, "causes: \(causes.map { "\($0.id): \($0.fix)" })")
        }
    }

    @Test("addresses in messages: IPv6 in brackets with its zone, IPv4 bare")
    func authorities() {
        let seen = ["192.168.1.5", "fe80::1%eth0", "::1"].map { CheckText.authority(IPAddress($0)!, 18789) }
        #expect(seen == ["192.168.1.5:18789", "[fe80::1%eth0]:18789", "[::1]:18789"], "\(seen)")
    }

    @Test("a cause whose check has no fix still says where to look, naming the check")
    func fallbackFix() {
        let bare = Check(.gwTCP, .fail, .timedOut)
        let causes = diagnose([Recorded.result(Recorded.target(), beacon: nil, checks: [bare])]).filter {
            $0.evidence.contains { $0.check == .gwTCP }
        }
        #expect(causes.map(\.id) == ["firewall"], "\(causes.map(\.id))")
        #expect(causes.allSatisfy { $0.fix.contains("gw.tcp") && $0.fix.contains("TCP connect") }, "\(causes.map(\.fix))")
    }

    @Test("an unresolvable host: gw.dns fails with the lookup's words, the rest is skipped")
    func noAddress() {
        let target = ProbeTarget(label: "wss://gone.example:18789", host: "gone.example", addresses: [], port: 18789, tls: true)
        let result = checks(
            ProbeReport(target: target), dnsProblem: DNSProblem("cannot resolve gone.example: Name or service not known", kind: .other))
        #expect(result.status("gw.dns") == .fail)
        #expect(result["gw.dns"]?.message == "cannot resolve gone.example: Name or service not known")
        #expect(result.dropFirst().allSatisfy { $0.status == .skip })
        #expect(result.count == CheckID.gateway.count)
    }
}

@Suite("Check selection and preflight")
struct CheckSelectionTests {
    @Test("--check pulls in what a check needs")
    func closure() {
        #expect(CheckID.closure(of: ["gw.protocol"]) == ["gw.protocol", "gw.websocket", "gw.tls", "gw.tcp", "gw.dns"])
        #expect(CheckID.closure(of: ["mdns.browse"]) == ["mdns.browse", "mdns.daemon", "mdns.dbus"])
        #expect(CheckID.closure(of: ["dns.resolver"]) == ["dns.resolver"])
    }

    @Test("the probe phases follow the selected checks")
    func phases() {
        #expect(Layer.phases(for: nil) == .all)
        #expect(Layer.phases(for: CheckID.closure(of: ["gw.connect"])) == [.tcp, .tls, .websocket, .connect])
        #expect(Layer.phases(for: ["mdns.daemon"]).isEmpty)
        #expect(Layer.phases(for: CheckID.closure(of: ["gw.pin"])) == [.tcp, .tls])
        #expect(Layer.phases(for: CheckID.closure(of: ["gw.http"])) == [.tcp, .tls, .health])
    }

    @Test("explicit targets depend on mDNS only when mDNS found them, on DNS when named or found by DNS-SD")
    func dependencies() {
        let mdns = Recorded.result(Recorded.target(), beacon: Recorded.beacon(txt: Recorded.tlsTXT), checks: [])
        #expect(Doctor.dependencies(of: [mdns]).contains("mdns.browse"))
        let named = Recorded.result(
            ProbeTarget(label: "gw.example", host: "gw.example", addresses: [], port: 1, tls: true), beacon: nil, checks: [])
        #expect(Doctor.dependencies(of: [named]) == ["dns.resolver"])
        let literal = Recorded.result(
            ProbeTarget(label: "10.0.0.1", host: "10.0.0.1", addresses: [], port: 1, tls: true), beacon: nil, checks: [])
        #expect(Doctor.dependencies(of: [literal]).isEmpty)
    }

    @Test("preflight mdns: 0 when Avahi and a multicast interface are there, 3 without D-Bus or Avahi, 1 without an interface")
    func preflightMDNS() async {
        var options = DoctorOptions()
        options.discovery.local = false
        options.timeout = .seconds(2)
        let good = await preflight([.mdns], options: options, system: RecordedSystem())
        #expect(good.exitStatus.rawValue == 0 && good.ok)

        var noBus = RecordedSystem()
        noBus.busExists = false
        let missing = await preflight([.mdns], options: options, system: noBus)
        #expect(missing.exitStatus.rawValue == 3)
        #expect(missing.requirements.first?.fix?.contains("dbus") == true)

        var noDaemon = RecordedSystem()
        noDaemon.avahiStatus = .unavailable(DiscoveryIssue.noDaemon)
        #expect(await preflight([.mdns], options: options, system: noDaemon).exitStatus.rawValue == 3)

        var noInterface = RecordedSystem()
        noInterface.networkInterfaces = []
        let broken = await preflight([.mdns], options: options, system: noInterface)
        #expect(broken.exitStatus.rawValue == 1)
        #expect(broken.requirements.map(\.name) == [.mdns])
    }

    @Test("preflight wide-area without a domain lacks a prerequisite (3); mixed with a failing one it is 1")
    func preflightWideArea() async {
        var options = DoctorOptions()
        options.discovery.local = false
        options.timeout = .seconds(2)
        let report = await preflight([.wideArea], options: options, system: RecordedSystem())
        #expect(report.exitStatus.rawValue == 3)
        #expect(report.requirements.first?.fix?.contains("discovery.wideArea.domain") == true)
        var noInterface = RecordedSystem()
        noInterface.networkInterfaces = []
        #expect(await preflight([.wideArea, .mdns], options: options, system: noInterface).exitStatus.rawValue == 1)
    }
}
