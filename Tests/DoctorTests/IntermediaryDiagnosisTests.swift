import DNSSD
import Foundation
import Host
import Testing

@testable import Doctor
@testable import Output
@testable import Probes

/// What stands in front of a Gateway, from recorded probe reports: edges that cannot run here
/// (Cloudflare), and each intermediary rule against the checks it explains. The same rules run
/// end to end behind nginx and Caddy in ClawnetTests' ProxyFieldTests.
@Suite("causes in front of a Gateway (recorded)")
struct IntermediaryDiagnosisTests {
    static func issuedFacts(issuer: String, sha: TLSFingerprint = Recorded.otherSHA, notAfter: Date) -> TLSFacts {
        TLSFacts(
            version: .tls13, cipher: "TLS_AES_128_GCM_SHA256", fingerprint: sha,
            certificate: CertificateFacts(
                subject: "CN=gateway.example.com", issuer: issuer, subjectAlternativeNames: ["DNS:gateway.example.com"],
                notBefore: Date(timeIntervalSinceNow: -86_400), notAfter: notAfter, selfSigned: false, publicKey: "P-256"),
            certificateProblem: nil)
    }

    /// The Gateway behind `server` with `facts` as its certificate, judged and diagnosed.
    static func diagnosed(_ report: ProbeReport, pin: TLSFingerprint?, config: OpenClawConfig? = nil) -> (
        checks: [Check], causes: [Diagnosis]
    ) {
        let evidence = Recorded.evidence(report, pin: pin)
        let checks = GatewayChecks.run(evidence)
        var system = RecordedSystem()
        if let config { system.openclaw = config }
        let facts = MachineFacts.gather(system)
        let discovery = Recorded.discovery(local: false)
        let machine = MachineResult(
            checks: MachineChecks.run(facts, discovery: discovery, multicast: false), facts: facts, discovery: discovery)
        return (checks, DiagnosisRules.diagnose(machine, gateways: [GatewayResult(evidence: evidence, checks: checks)]))
    }

    static func proxied(server: String?, facts: TLSFacts? = nil, health: Int = 200, body: String = #"{"ok":true,"status":"live"}"#)
        -> ProbeReport
    {
        var report = Recorded.healthyReport(Recorded.target(), tls: facts.map { .established($0) })
        report.health = PhaseTiming(outcome: .response(status: health, body: body, server: server), elapsed: .milliseconds(3))
        return report
    }

    @Test("openclaw#107575 (recorded: Cloudflare cannot run here): the pin is the Gateway's, Cloudflare's edge presents its own")
    func openclaw107575CloudflareEdge() throws {
        let notAfter = Date(timeIntervalSinceNow: 80 * 86_400)
        let facts = Self.issuedFacts(issuer: "CN=WE1,O=Google Trust Services,C=US", notAfter: notAfter)
        let (checks, causes) = Self.diagnosed(Self.proxied(server: "cloudflare", facts: facts), pin: Recorded.certificateSHA)
        #expect(checks.first { $0.id == .gwPin }?.reason == .pinMismatch)
        let edge = try #require(causes.first { $0.id == .edgeCertificate }, "\(causes.map(\.id))")
        #expect(edge.cause.contains("Cloudflare's certificate") && edge.cause.contains(CheckText.iso(notAfter)), "\(edge.cause)")
        #expect(!causes.contains { $0.id == .pinChanged }, "named once: \(causes.map(\.id))")
    }

    @Test("a self-signed certificate behind a named server: the cause says self-signed, and the re-pin line has the port in use")
    func selfSignedBehindServer() throws {
        let facts = Recorded.tlsFacts(sha: Recorded.otherSHA)
        let (_, causes) = Self.diagnosed(Self.proxied(server: "Python/3.11 websockets/17.4", facts: facts), pin: Recorded.certificateSHA)
        let edge = try #require(causes.first { $0.id == .edgeCertificate }, "\(causes.map(\.id))")
        #expect(edge.cause.contains("(self-signed)") && !edge.cause.contains("not self-signed"), "\(edge.cause)")
        #expect(
            edge.fix.contains("-connect studio.local:18789 ") && !edge.fix.contains("with the right port"), "\(edge.fix)")
    }

    @Test("openclaw#150152 (recorded): a pin that matches an ACME certificate warns with its end date and the re-pin steps")
    func openclaw150152RenewingPin() throws {
        let notAfter = Date(timeIntervalSinceNow: 6 * 86_400)
        let facts = Self.issuedFacts(issuer: "CN=R11,O=Let's Encrypt,C=US", sha: Recorded.certificateSHA, notAfter: notAfter)
        let (checks, causes) = Self.diagnosed(Self.proxied(server: nil, facts: facts), pin: Recorded.certificateSHA)
        let pin = try #require(checks.first { $0.id == .gwPin })
        #expect(pin.status == .warn && pin.reason == .pinOnIssuedCertificate, "\(pin)")
        #expect(pin.message.contains("Let's Encrypt") && pin.fix?.contains("re-pin") == true, "\(pin.message)")
        let renewing = try #require(causes.first { $0.id == .pinOnRenewingCertificate }, "\(causes.map(\.id))")
        #expect(renewing.cause.contains(CheckText.iso(notAfter)), "\(renewing.cause)")
    }

    @Test("a beacon that advertises the served certificate is reported against the pin, never adopted")
    func advertisedNeverAdopted() throws {
        var report = Recorded.healthyReport(Recorded.target(advertised: Recorded.certificateSHA))
        report.health = PhaseTiming(outcome: .response(status: 200, body: #"{"ok":true}"#, server: nil), elapsed: .zero)
        let (checks, _) = Self.diagnosed(report, pin: Recorded.otherSHA)
        let pin = try #require(checks.first { $0.id == .gwPin })
        #expect(pin.reason == .pinMismatch, "the pin decides, not the TXT: \(pin)")
        #expect(pin.message.contains("does not adopt it"), "\(pin.message)")
    }

    @Test("a 502 from nginx names the proxy's upstream; on the Gateway host the scheme its config asks for")
    func upstreamSchemeFromConfig() throws {
        var config = OpenClawConfig(path: "/home/op/.openclaw/openclaw.json")
        (config.exists, config.gatewayPort, config.tlsEnabled, config.bind) = (true, 18790, true, .loopback)
        var report = Self.proxied(server: "nginx/1.22.1", health: 502, body: "<html>502 Bad Gateway</html>")
        report.websocket = PhaseTiming(outcome: .upgradeRefused(status: 502), elapsed: .zero)
        report.connect = nil
        let (_, causes) = Self.diagnosed(report, pin: nil, config: config)
        let upstream = try #require(causes.first { $0.id == .proxyUpstream }, "\(causes.map(\.id))")
        #expect(upstream.fix.contains("proxy_pass https://127.0.0.1:18790;"), "\(upstream.fix)")
        #expect(!causes.contains { $0.id == .anotherProgram || $0.id == .webSocket }, "\(causes.map(\.id))")
    }

    @Test("a Gateway that refuses the Origin (CONTROL_UI_ORIGIN_NOT_ALLOWED) behind Caddy: origin-not-allowed, with trustedProxies")
    func originNotAllowed() throws {
        var report = Self.proxied(server: "Caddy")
        let error = ConnectError(
            code: "INVALID_REQUEST", message: "origin not allowed", detailCode: "CONTROL_UI_ORIGIN_NOT_ALLOWED", requestId: nil,
            reason: "origin not allowed", recommendedNextStep: nil, canRetryWithDeviceToken: nil, expectedProtocol: nil,
            clientMinProtocol: nil, clientMaxProtocol: nil, retryAfterMs: nil)
        report.connect = PhaseTiming(outcome: .rejected(error, close: CloseFrame(code: 1008, reason: "origin not allowed")), elapsed: .zero)
        let (checks, causes) = Self.diagnosed(report, pin: nil)
        #expect(checks.first { $0.id == .gwConnect }?.reason == .originNotAllowed)
        let origin = try #require(causes.first { $0.id == .originNotAllowed }, "\(causes.map(\.id))")
        #expect(origin.fix.contains("allowedOrigins") && origin.fix.contains("trustedProxies"), "\(origin.fix)")
    }

    @Test(
        "the directive follows the program that answered: Caddy, Cloudflare and an unnamed proxy get their own words",
        arguments: [("Caddy", "header_up"), ("cloudflare", "Network, WebSockets"), ("Varnish", "proxy_http_version 1.1")])
    func directivePerProgram(_ server: String, _ directive: String) throws {
        var report = Self.proxied(server: server)
        report.websocket = PhaseTiming(outcome: .upgradeRefused(status: 404), elapsed: .zero)
        report.connect = nil
        let (_, causes) = Self.diagnosed(report, pin: nil)
        let cause = try #require(causes.first { $0.id == .proxyDropsUpgrade }, "\(causes.map(\.id))")
        #expect(cause.fix.contains(directive), "\(server): \(cause.fix)")
    }

    @Test("every intermediary rule explains failures its layers declare, and each failure it explains gets words and a fix")
    func declaredCoverage() {
        for rule in DiagnosisRules.intermediaries {
            for explained in rule.explains {
                let layer = Layer.gateway.first { $0.id == explained.check }
                #expect(layer?.failures.contains(explained.reason) == true, "\(rule.id) explains \(explained)")
            }
        }
    }
}
