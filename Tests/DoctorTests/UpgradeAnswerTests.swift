import DNSSD
import Foundation
import Testing

@testable import Doctor
@testable import Output
@testable import Probes

/// OpenClaw 2's answers to the WebSocket upgrade, from recorded probe reports: each refusal's
/// check reason, cause and fix. The same answers come from nginx, Caddy and the stand-in in
/// TestBedTests' UpgradeAnswerFieldTests.
@Suite("OpenClaw 2's refusals of the WebSocket upgrade (recorded)")
struct UpgradeAnswerTests {
    static let attributionBody =
        #"{"error":{"message":"Proxy client attribution is required. Configure gateway.trustedProxies narrowly and make the proxy "#
        + #"overwrite or safely rebuild forwarded client headers.","type":"proxy_attribution_required"}}"#

    /// A healthy Gateway behind `server` whose upgrade got `rejection` (after `refusals`).
    static func refused(
        _ rejection: UpgradeRejection, server: String? = "nginx/1.22.1", refusals: [UpgradeTry] = [], loopback: Bool = false
    )
        -> (checks: [Check], causes: [Diagnosis])
    {
        var report = Recorded.healthyReport(Recorded.target(address: loopback ? "127.0.0.1" : "192.168.1.30", tls: false))
        report.health = PhaseTiming(outcome: .response(status: 200, body: #"{"ok":true,"status":"live"}"#, server: server), elapsed: .zero)
        report.websocket = PhaseTiming(outcome: .upgradeRefused(rejection), elapsed: .milliseconds(4))
        report.upgradeRefusals = refusals
        report.connect = nil
        return IntermediaryDiagnosisTests.diagnosed(report, pin: nil)
    }

    static func webSocket(_ checks: [Check]) -> Check? { checks.first { $0.id == .gwWebSocket } }

    @Test("openclaw#119950: 403 proxy_attribution_required behind nginx on this host: proxy-attribution, 127.0.0.1 and ::1 to trust")
    func openclaw119950ProxyAttribution() throws {
        let (checks, causes) = Self.refused(UpgradeRejection(status: 403, body: Self.attributionBody), loopback: true)
        let check = try #require(Self.webSocket(checks))
        #expect(check.status == .fail && check.reason == .proxyAttributionRequired, "\(check)")
        #expect(check.message.contains("proxy_attribution_required") && !check.message.hasPrefix("the server answered"), "\(check.message)")
        let cause = try #require(causes.first { $0.id == .proxyAttribution }, "\(causes.map(\.id))")
        #expect(cause.cause.contains("nginx") && cause.cause.contains("gateway.trustedProxies"), "\(cause.cause)")
        for words in [
            #""trustedProxies": ["127.0.0.1", "::1"]"#, "allowLoopback", "allowRealIpFallback", "X-Forwarded-For $remote_addr",
        ] {
            #expect(cause.fix.contains(words), "\(words): \(cause.fix)")
        }
        #expect(cause.fix.contains("from this very host"), "doctor on the proxy's host is itself a loopback client: \(cause.fix)")
        #expect(causes.count == 1, "one cause, not also gw-websocket or proxy-drops-upgrade: \(causes.map(\.id))")
        #expect(CheckDetail.of(check)["gatewayErrorType"] == "proxy_attribution_required")
        #expect(CheckDetail.of(check)["reason"] == "websocket-upgrade-rejected" && CheckDetail.of(check)["httpStatus"] == "403")
    }

    @Test("openclaw#125112: a 302 to *.cloudflareaccess.com is Cloudflare Access: identity-aware-proxy with its service token and edgeAuth")
    func openclaw125112CloudflareAccess() throws {
        let location = "https://team.cloudflareaccess.com/cdn-cgi/access/login/gw.example?kid=1"
        let (checks, causes) = Self.refused(UpgradeRejection(status: 302, location: location), server: "cloudflare")
        let check = try #require(Self.webSocket(checks))
        #expect(check.status == .fail && check.reason == .identityProxy, "\(check)")
        let cause = try #require(causes.first { $0.id == .identityAwareProxy }, "\(causes.map(\.id))")
        #expect(cause.cause.contains("Cloudflare Access") && cause.cause.contains("team.cloudflareaccess.com"), "\(cause.cause)")
        #expect(cause.fix.contains("gateway.remote.edgeAuth") && cause.fix.contains("CF_ACCESS_CLIENT_ID"), "\(cause.fix)")
        #expect(CheckDetail.of(check)["location"] == location)
    }

    @Test(
        "another identity-aware proxy (401, 403 or a redirect with a Location) is named by the host it sends the node to",
        arguments: [
            301, 302, 303, 307, 308, 401, 403,
        ])
    func identityProxyElsewhere(_ status: Int) throws {
        let (checks, causes) = Self.refused(UpgradeRejection(status: status, location: "https://login.example.org/oauth2/start?rd=%2F"))
        #expect(Self.webSocket(checks)?.reason == .identityProxy, "\(status)")
        let cause = try #require(causes.first { $0.id == .identityAwareProxy }, "\(status): \(causes.map(\.id))")
        #expect(cause.cause.contains("login.example.org") && cause.cause.contains("HTTP \(status)"), "\(cause.cause)")
        #expect(cause.fix.contains("gateway.remote.edgeAuth") && !cause.fix.contains("CF_ACCESS"), "\(cause.fix)")
    }

    @Test("a 403 without a Location or the attribution type stays a refused upgrade (a proxy or another program)")
    func plainForbidden() {
        let (checks, _) = Self.refused(UpgradeRejection(status: 403, body: "<html>403 Forbidden</html>"))
        #expect(Self.webSocket(checks)?.reason == .upgradeRefused)
    }

    @Test("gateway.auth.rateLimit (rejectUpgradeAuth): 429 with Retry-After: upgrade-rate-limited says how long to wait, asked once")
    func rateLimited() throws {
        let body = #"{"error":{"message":"Too many failed authentication attempts. Please try again later.","type":"rate_limited"}}"#
        let (checks, causes) = Self.refused(UpgradeRejection(status: 429, retryAfter: .seconds(42), body: body), server: nil)
        let check = try #require(Self.webSocket(checks))
        #expect(check.status == .fail && check.reason == .upgradeRateLimited, "\(check)")
        #expect(check.message.contains("42 s (Retry-After)") && check.message.contains("did not ask again"), "\(check.message)")
        let cause = try #require(causes.first { $0.id == .upgradeRateLimited }, "\(causes.map(\.id))")
        #expect(cause.fix.contains("wait 42 s"), "\(cause.fix)")
        #expect(CheckDetail.of(check)["retryAfterSeconds"] == "42")
    }

    @Test("a Retry-After as an HTTP-date is shown as the time to wait until")
    func rateLimitedUntil() throws {
        let date = try #require(RetryAfter(header: "Sun, 06 Nov 2044 08:49:37 GMT"))
        let (checks, _) = Self.refused(UpgradeRejection(status: 429, retryAfter: date), server: nil)
        #expect(
            Self.webSocket(checks)?.message.contains("until 2044-11-06 08:49Z") == true, "\(String(describing: Self.webSocket(checks)))")
    }

    @Test("openclaw#141303: 503 admission closed after doctor asked again within the budget: a warning, upgrade-unavailable")
    func restarting() throws {
        let closed = UpgradeRejection(status: 503, body: "Gateway websocket admission closed")
        let refusals = [UpgradeTry(rejection: closed, waited: .zero), UpgradeTry(rejection: closed, waited: .seconds(1))]
        let (checks, causes) = Self.refused(closed, server: nil, refusals: refusals)
        let check = try #require(Self.webSocket(checks))
        #expect(check.status == .warn && check.reason == .upgradeUnavailable, "\(check)")
        #expect(check.message.contains("each of 3 openings") && check.message.contains("restarting"), "\(check.message)")
        #expect(causes.map(\.id) == [.upgradeUnavailable], "\(causes.map(\.id))")
        #expect(CheckDetail.of(check)["unavailableBefore"] == "2")
    }

    @Test("503 too many unauthenticated sockets: its own words and cause (the per-address budget), a failure: it does not pass by itself")
    func tooManyUnauthenticated() throws {
        let (checks, causes) = Self.refused(UpgradeRejection(status: 503, body: "Too many unauthenticated sockets"), server: nil)
        let check = try #require(Self.webSocket(checks))
        #expect(check.status == .fail && check.reason == .unauthenticatedLimit, "\(check)")
        #expect(check.message.contains("before they log in"), "\(check.message)")
        #expect(causes.map(\.id) == [.unauthenticatedLimit], "\(causes.map(\.id))")
    }

    @Test("a 503 from nginx itself (its own page) is the proxy's upstream failing, not a restarting Gateway")
    func nginxOwn503() {
        let (checks, _) = Self.refused(UpgradeRejection(status: 503, body: "<html><title>503 Service Temporarily Unavailable</title>"))
        #expect(Self.webSocket(checks)?.reason == .upgradeRefused)
    }

    @Test("upgraded after two 503s: gw.websocket passes and says the Gateway was restarting")
    func admittedAfterRestart() throws {
        let closed = UpgradeRejection(status: 503, body: "Gateway websocket admission closed")
        var report = Recorded.healthyReport(Recorded.target())
        report.upgradeRefusals = [UpgradeTry(rejection: closed, waited: .zero), UpgradeTry(rejection: closed, waited: .seconds(1))]
        let (checks, _) = IntermediaryDiagnosisTests.diagnosed(report, pin: nil)
        let check = try #require(Self.webSocket(checks))
        #expect(check.status == .pass && check.message.contains("after 2 answers HTTP 503"), "\(check.message)")
    }

    @Test("openclaw#125412 (recorded: tailscaled cannot run here): Tailscale Serve set up by hand gets 403: proxy-attribution says so")
    func openclaw125412TailscaleServe() throws {
        var report = TailscaleServeTests.serveReport()
        report.websocket = PhaseTiming(outcome: .upgradeRefused(UpgradeRejection(status: 403, body: Self.attributionBody)), elapsed: .zero)
        report.connect = nil
        let (_, causes) = IntermediaryDiagnosisTests.diagnosed(report, pin: nil)
        let cause = try #require(causes.first { $0.id == .proxyAttribution }, "\(causes.map(\.id))")
        #expect(
            cause.cause.contains("Tailscale Serve") && cause.fix.contains("gateway.tailscale.mode serve"), "\(cause.cause)\n\(cause.fix)")
        #expect(!causes.contains { $0.id == .tailscaleServeUpgrade }, "\(causes.map(\.id))")
    }
}
