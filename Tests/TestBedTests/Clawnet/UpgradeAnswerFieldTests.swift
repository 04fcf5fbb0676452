import CommandTestSupport
import DNSSD
import Foundation
import Probes
import Synchronization
import TestSupport
import Testing

/// OpenClaw 2 at the HTTP level, end to end: the stand-in Gateway answering the WebSocket
/// upgrade as 2026.9 does (`StandInUpgradeGate`), behind nginx 1.22 or Caddy 2.6 with their own
/// configs in the node namespace, and doctor run in-process against the proxy. Each test is
/// named after the OpenClaw issue or PR it comes from and asserts the cause and its fix.
@Suite("doctor and OpenClaw 2's answers to the upgrade, behind nginx and Caddy", .testBed, .serialized)
struct UpgradeAnswerFieldTests {
    typealias Field = ProxyFieldTests

    /// A plain stand-in whose upgrades go through `gate`.
    static func gateway(_ gate: StandInUpgradeGate) async throws -> StandInGateway {
        try await StandInGateway.start(host: "127.0.0.1", port: 0, identity: nil, gate: gate)
    }

    /// A 2026.9 Gateway's default: proxy headers from anywhere are refused.
    static let failClosed = StandInUpgradeGate(trustedProxies: [])

    /// nginx lines that pass WebSockets and send the client's address, as most guides write them.
    static let forwardsClient = Field.passesWebSockets + ["proxy_set_header X-Forwarded-For $remote_addr;"]

    // MARK: Proxy attribution

    @Test(
        "openclaw#119950: a same-host proxy that sends X-Forwarded-For to a Gateway that trusts none: proxy-attribution, 127.0.0.1 to trust",
        arguments: ["nginx", "caddy"])
    func openclaw119950SameHostProxy(_ program: String) async throws {
        let bed = try TestBed.current()
        let gateway = try await Self.gateway(Self.failClosed)
        let proxy =
            program == "nginx"
            ? try await bed.startNginx(port: testPort(), upstream: "http://127.0.0.1:\(gateway.port)", directives: Self.forwardsClient)
            : try await bed.startCaddy(port: testPort(), upstream: "127.0.0.1:\(gateway.port)", directives: [], internalTLS: false)
        try await Field.stopping(proxy, gateway) {
            let (document, output) = try await Field.doctor("ws://127.0.0.1:\(proxy.port)")
            #expect(Field.check(document, "gw.http")?["status"] as? String == "pass", "health is not gated: \(output)\n\(proxy.config)")
            let webSocket = try #require(Field.check(document, "gw.websocket"), "\(output)")
            #expect(webSocket["status"] as? String == "fail", "\(webSocket)")
            let detail = webSocket["detail"] as? [String: Any] ?? [:]
            #expect(detail["gatewayErrorType"] as? String == "proxy_attribution_required" && detail["httpStatus"] as? String == "403")
            let cause = try #require(Field.cause(document, "proxy-attribution"), "\(output)")
            #expect((cause["cause"] as? String)?.contains(program == "nginx" ? "nginx" : "Caddy") == true, "\(cause)")
            let fix = cause["fix"] as? String ?? ""
            #expect(fix.contains(#""trustedProxies": ["127.0.0.1", "::1"]"#) && fix.contains("allowLoopback"), "\(fix)")
            #expect(fix.contains("from this very host"), "doctor is a loopback client of a same-host proxy: \(fix)")
            #expect(Field.causes(document).count == 1, "one cause: \(Field.causes(document).map { $0["id"] ?? "?" })")
        }
    }

    @Test("openclaw#125412: with the proxy in gateway.trustedProxies a client from the LAN passes; a loopback client stays refused")
    func openclaw125412TrustedProxy() async throws {
        let bed = try TestBed.current()
        let gateway = try await Self.gateway(StandInUpgradeGate(trustedProxies: [IPNetwork("127.0.0.1")!]))
        let lan = bed.ip(.node)
        let proxy = try await bed.startNginx(
            port: testPort(), upstream: "http://127.0.0.1:\(gateway.port)", directives: Self.forwardsClient, address: lan)
        let local = try await bed.startNginx(
            port: testPort(), upstream: "http://127.0.0.1:\(gateway.port)", directives: Self.forwardsClient)
        try await Field.stopping(local, gateway) {
            try await Field.stopping(proxy, gateway) {
                let (document, output) = try await Field.doctor("ws://\(lan):\(proxy.port)")
                #expect(Field.troubled(document).isEmpty, "a LAN client through a trusted proxy: \(output)\n\(proxy.config)")
                let (refused, words) = try await Field.doctor("ws://127.0.0.1:\(local.port)")
                let cause = try #require(Field.cause(refused, "proxy-attribution"), "the chain ends on loopback: \(words)")
                #expect((cause["fix"] as? String)?.contains("from this very host") == true, "\(cause)")
            }
        }
    }

    // MARK: Identity-aware proxies

    @Test(
        "openclaw#125112: a proxy that answers with a login redirect: identity-aware-proxy, named by where it sends the node",
        arguments: [
            ("https://team.cloudflareaccess.com/cdn-cgi/access/login/gw.example?redirect_url=%2F", "CF_ACCESS_CLIENT_ID"),
            ("https://login.example.org/oauth2/start?rd=%2F", "login.example.org"),
        ])
    func openclaw125112IdentityAwareProxy(_ location: String, _ words: String) async throws {
        let bed = try TestBed.current()
        let gateway = try await Self.gateway(Self.failClosed)
        let proxy = try await bed.startNginx(
            port: testPort(), upstream: "http://127.0.0.1:\(gateway.port)", directives: Field.passesWebSockets + ["return 302 \(location);"]
        )
        try await Field.stopping(proxy, gateway) {
            let (document, output) = try await Field.doctor("ws://127.0.0.1:\(proxy.port)")
            let detail = Field.check(document, "gw.websocket")?["detail"] as? [String: Any] ?? [:]
            #expect(detail["location"] as? String == location && detail["httpStatus"] as? String == "302", "\(output)")
            let cause = try #require(Field.cause(document, "identity-aware-proxy"), "\(output)\n\(proxy.config)")
            let text = (cause["cause"] as? String ?? "") + (cause["fix"] as? String ?? "")
            #expect(text.contains(words) && text.contains("gateway.remote.edgeAuth"), "\(cause)")
            #expect(Field.causes(document).count == 1, "one cause for the 302 on /healthz and the upgrade: \(Field.causes(document))")
        }
    }

    // MARK: Restarts and limits

    @Test("openclaw#141303: a Gateway restarting behind nginx answers 503: doctor opens again as clients do and passes")
    func openclaw141303RestartPasses() async throws {
        let bed = try TestBed.current()
        let gateway = try await Self.gateway(StandInUpgradeGate(restartingFor: .milliseconds(1500)))
        let proxy = try await bed.startNginx(
            port: testPort(), upstream: "http://127.0.0.1:\(gateway.port)", directives: Field.passesWebSockets)
        try await Field.stopping(proxy, gateway) {
            let (document, output) = try await Field.doctor("ws://127.0.0.1:\(proxy.port)")
            let webSocket = try #require(Field.check(document, "gw.websocket"), "\(output)")
            #expect(webSocket["status"] as? String == "pass", "\(output)\n\(proxy.config)")
            #expect((webSocket["message"] as? String)?.contains("HTTP 503") == true, "\(webSocket)")
            #expect(Field.troubled(document).isEmpty, "\(output)")
        }
    }

    @Test("openclaw#141303: a Gateway still draining when --timeout ends: upgrade-unavailable, a warning, not proxy advice")
    func openclaw141303StillDraining() async throws {
        let bed = try TestBed.current()
        let gateway = try await Self.gateway(StandInUpgradeGate(restartingFor: .seconds(600)))
        let proxy = try await bed.startNginx(
            port: testPort(), upstream: "http://127.0.0.1:\(gateway.port)", directives: Field.passesWebSockets)
        try await Field.stopping(proxy, gateway) {
            let run = try await InProcessRun.run(
                ["doctor", "ws://127.0.0.1:\(proxy.port)", "--no-local", "--format", "json", "--timeout", "4s"], network: .live)
            let document = try jsonObject(run.out)
            let output = Field.summary(document) + "\n" + run.out + run.err
            let webSocket = try #require(Field.check(document, "gw.websocket"), "\(output)")
            #expect(webSocket["status"] as? String == "warn", "\(webSocket)")
            #expect(
                Int((webSocket["detail"] as? [String: Any])?["unavailableBefore"] as? String ?? "") ?? 0 >= 1, "asked again: \(webSocket)")
            #expect(Field.cause(document, "upgrade-unavailable") != nil, "\(output)")
            #expect(Field.cause(document, "proxy-drops-upgrade") == nil && Field.cause(document, "proxy-upstream") == nil, "\(output)")
        }
    }

    @Test("gateway.auth.rateLimit (PR #119950's per-client limiter): 429 with Retry-After through Caddy: upgrade-rate-limited, asked once")
    func rateLimitedThroughCaddy() async throws {
        let bed = try TestBed.current()
        let refused = Refusals()
        let gateway = try await StandInGateway.start(
            host: "127.0.0.1", port: 0, identity: nil, gate: StandInUpgradeGate(rateLimitedFor: .seconds(90)),
            refused: { _, refusal in refused.add(refusal.code) })
        let proxy = try await bed.startCaddy(port: testPort(), upstream: "127.0.0.1:\(gateway.port)", directives: [], internalTLS: false)
        try await Field.stopping(proxy, gateway) {
            let (document, output) = try await Field.doctor("ws://127.0.0.1:\(proxy.port)")
            let webSocket = try #require(Field.check(document, "gw.websocket"), "\(output)")
            let seconds = Int((webSocket["detail"] as? [String: Any])?["retryAfterSeconds"] as? String ?? "") ?? 0
            #expect((80...90).contains(seconds), "Retry-After through Caddy: \(webSocket)")
            let cause = try #require(Field.cause(document, "upgrade-rate-limited"), "\(output)")
            #expect((cause["fix"] as? String)?.contains("wait \(seconds) s") == true, "\(cause)")
            #expect(refused.codes == [429], "never asked again into the lockout: \(refused.codes)")
        }
    }

    // MARK: doctor's own upgrade request

    @Test(
        "issue 32: doctor's upgrade as OpenClaw's clients send it (no Content-Length) opens a uvicorn (h11) Gateway",
        arguments: ["wsproto", "websockets"])
    func uvicornAnswersDoctor(_ implementation: String) async throws {
        let bed = try TestBed.current()
        let (process, port) = try await bed.startGatewayPeer(implementation, script: "uvicorn_gateway.py")
        do {
            let (document, output) = try await Field.doctor("ws://127.0.0.1:\(port)", ["--check", "gw.protocol"])
            #expect(Field.check(document, "gw.websocket")?["status"] as? String == "pass", "\(output)\n\(process.outputTail)")
            #expect(Field.check(document, "gw.protocol")?["status"] as? String == "pass", "\(output)")
        } catch {
            _ = try? await process.stop()
            throw error
        }
        _ = try? await process.stop()
    }
}

/// The statuses the stand-in refused upgrades with, as its observer tells them (from its event loop).
final class Refusals: Sendable {
    private let seen = Mutex<[Int]>([])
    func add(_ code: Int) { seen.withLock { $0.append(code) } }
    var codes: [Int] { seen.withLock { $0 } }
}
