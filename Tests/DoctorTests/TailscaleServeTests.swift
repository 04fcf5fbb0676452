import DNSSD
import Foundation
import Host
import Testing

@testable import Doctor
@testable import Output
@testable import Probes

/// Tailscale Serve in front of a loopback-bound Gateway: tailscaled cannot run in the test bed,
/// so what a node sees through Serve (a Let's Encrypt certificate on `*.ts.net:443`, the
/// Gateway's answers) and what `tailscale serve status --json` says on the Gateway host are
/// recorded; the rules that read them are checked against them.
@Suite("Tailscale Serve and MagicDNS (recorded: tailscaled cannot run here)")
struct TailscaleServeTests {
    static func serveTarget() -> ProbeTarget {
        ProbeTarget(
            label: "wss://studio.tail4e2f1.ts.net", host: "studio.tail4e2f1.ts.net", addresses: [IPAddress("100.101.102.5")!], port: 443,
            tls: true)
    }

    static func serveReport() -> ProbeReport {
        let facts = IntermediaryDiagnosisTests.issuedFacts(
            issuer: "CN=E6,O=Let's Encrypt,C=US", sha: Recorded.otherSHA, notAfter: Date(timeIntervalSinceNow: 60 * 86_400))
        return Recorded.healthyReport(serveTarget(), tls: .established(facts))
    }

    @Test("openclaw#84959 (recorded): through Serve, /healthz comes through and the WebSocket upgrade gets 400: tailscale-serve-upgrade")
    func openclaw84959Upgrade400() throws {
        var report = Self.serveReport()
        report.websocket = PhaseTiming(outcome: .upgradeRefused(status: 400), elapsed: .zero)
        report.connect = nil
        let (checks, causes) = IntermediaryDiagnosisTests.diagnosed(report, pin: nil)
        #expect(checks.first { $0.id == .gwWebSocket }?.reason == .upgradeRefused)
        #expect(causes.map(\.id) == [.tailscaleServeUpgrade], "one cause, not also proxy-drops-upgrade: \(causes.map(\.id))")
        let cause = try #require(causes.first)
        #expect(cause.cause.contains("Tailscale Serve") && cause.fix.contains("gateway.auth.allowTailscale"), "\(cause.fix)")
    }

    @Test("openclaw#77 (recorded): the Gateway behind Serve refuses the Tailscale identity: tailscale-serve-identity, allowTailscale")
    func openclaw77Identity() throws {
        var report = Self.serveReport()
        var error = ConnectError(
            code: "INVALID_REQUEST",
            message: "unauthorized: tailscale identity missing (use Tailscale Serve auth or gateway token/password)",
            detailCode: "AUTH_TAILSCALE_IDENTITY_MISSING", requestId: nil, reason: nil, recommendedNextStep: nil,
            canRetryWithDeviceToken: nil,
            expectedProtocol: nil, clientMinProtocol: nil, clientMaxProtocol: nil, retryAfterMs: nil)
        error.authReason = "tailscale_user_missing"
        report.connect = PhaseTiming(outcome: .rejected(error, close: CloseFrame(code: 1008, reason: "unauthorized")), elapsed: .zero)
        let (checks, causes) = IntermediaryDiagnosisTests.diagnosed(report, pin: nil)
        #expect(checks.first { $0.id == .gwConnect }?.reason == .tailscaleIdentityRefused)
        let cause = try #require(causes.first { $0.id == .tailscaleServeIdentity }, "\(causes.map(\.id))")
        #expect(cause.fix.contains("\"allowTailscale\": true"), "\(cause.fix)")
        #expect(!causes.contains { $0.id == .gatewayAuth }, "\(causes.map(\.id))")
    }

    @Test("openclaw#120532 (recorded tailscale serve status): gateway.tailscale.mode serve and no Serve route: tailscale-serve-route")
    func openclaw120532MissingRoute() throws {
        var system = RecordedSystem()
        system.openclaw.exists = true
        system.openclaw.bind = .loopback
        system.openclaw.tailscale = TailscaleSettings(mode: .serve)
        system.serveJSON = "{}"
        let empty = MachineFacts.gather(system)
        let discovery = Recorded.discovery(local: false)
        let checks = MachineChecks.run(empty, discovery: discovery, multicast: false)
        let tailscale = try #require(checks.first { $0.id == .tailscaleInterface })
        #expect(tailscale.status == .warn && tailscale.reason == .serveRouteMissing, "\(tailscale)")
        let causes = DiagnosisRules.diagnose(MachineResult(checks: checks, facts: empty, discovery: discovery), gateways: [])
        let cause = try #require(causes.first { $0.id == .tailscaleServeRoute }, "\(causes.map(\.id))")
        #expect(cause.fix.contains("tailscale serve --bg 18789"), "\(cause.fix)")

        let routed = """
            {"TCP":{"443":{"HTTPS":true}},"Web":{"studio.tail4e2f1.ts.net:443":{"Handlers":{"/":{"Proxy":"http://127.0.0.1:18789"}}}}}
            """
        system.serveJSON = routed
        let served = MachineFacts.gather(system)
        #expect(
            MachineChecks.run(served, discovery: discovery, multicast: false).first { $0.id == .tailscaleInterface }?.reason
                != .serveRouteMissing)
    }

    @Test("openclaw#148308 (recorded): a running Gateway's Serve route gone after tailscaled restarted: said so, restart the Gateway")
    func openclaw148308RouteLostOnRestart() throws {
        var system = RecordedSystem()
        system.openclaw.exists = true
        system.openclaw.tailscale = TailscaleSettings(mode: .serve)
        // tailscaled came back with a Serve config of other sites only.
        system.serveJSON = #"{"Web":{"studio.tail4e2f1.ts.net:8443":{"Handlers":{"/":{"Proxy":"http://127.0.0.1:3000"}}}}}"#
        let facts = MachineFacts.gather(system)
        let discovery = Recorded.discovery(local: false)
        let checks = MachineChecks.run(facts, discovery: discovery, multicast: false)
        let tailscale = try #require(checks.first { $0.id == .tailscaleInterface })
        #expect(tailscale.reason == .serveRouteMissing && tailscale.message.contains("127.0.0.1:3000"), "\(tailscale.message)")
        #expect(tailscale.message.contains("tailscaled restarted") && tailscale.message.contains("#148308"), "\(tailscale.message)")
        let causes = DiagnosisRules.diagnose(MachineResult(checks: checks, facts: facts, discovery: discovery), gateways: [])
        let cause = try #require(causes.first { $0.id == .tailscaleServeRoute }, "\(causes.map(\.id))")
        #expect(cause.fix.contains("openclaw gateway restart"), "\(cause.fix)")
    }

    @Test("Serve's routes are read from `tailscale serve status --json`; text that is not a Serve config is nil")
    func parsesServeStatus() throws {
        let json = #"{"Web":{"a.ts.net:443":{"Handlers":{"/":{"Proxy":"https+insecure://localhost:18789"},"/x":{"Path":"/srv"}}}}}"#
        let status = try #require(TailscaleServeStatus(json: Array(json.utf8)))
        #expect(status.routes.count == 1 && status.route(toPort: 18789)?.site == "a.ts.net:443", "\(status)")
        #expect(TailscaleServeStatus(json: Array("No serve config".utf8)) == nil)
    }
}
