import DNSSD
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import Testing

@testable import Probes

/// The answers to the WebSocket upgrade that are not 101, read as OpenClaw's clients read them,
/// the stand-in's gate that gives them as a 2026.9 Gateway does, and the upgrade request doctor
/// sends. No test bed: servers on 127.0.0.1.
@Suite("Refused upgrades, the stand-in's gate, and doctor's upgrade request")
struct UpgradeRejectionTests {
    @Test(
        "each refusal is read into its kind",
        arguments: [
            (UpgradeRejection(status: 403, body: #"{"error":{"type":"proxy_attribution_required","message":"m"}}"#), "proxyAttribution"),
            (UpgradeRejection(status: 302, location: "https://a.cloudflareaccess.com/x"), "identityProxy"),
            (UpgradeRejection(status: 401, location: "https://sso.example/login"), "identityProxy"),
            (UpgradeRejection(status: 403, location: "https://sso.example/login"), "identityProxy"),
            (UpgradeRejection(status: 429, retryAfter: .seconds(3)), "rateLimited"),
            (UpgradeRejection(status: 503, body: "Gateway websocket admission closed"), "unavailable"),
            (UpgradeRejection(status: 503, body: "Gateway websocket admission closed. Reinstall OpenClaw"), "unavailable"),
            (UpgradeRejection(status: 503, body: "<html>503</html>"), "other"),
            (UpgradeRejection(status: 403, body: "{"), "other"),
            (UpgradeRejection(status: 200), "other"),
        ] as [(UpgradeRejection, String)])
    func kinds(_ rejection: UpgradeRejection, _ expected: String) {
        let kind =
            switch rejection.kind {
            case .proxyAttribution: "proxyAttribution"
            case .identityProxy: "identityProxy"
            case .rateLimited: "rateLimited"
            case .unavailable: "unavailable"
            case .other: "other"
            }
        #expect(kind == expected, "\(rejection)")
    }

    @Test("a Location's host, and Cloudflare Access by it")
    func locations() {
        #expect(UpgradeRejection.host(of: "https://Team.CloudflareAccess.com/cdn-cgi/access/login/x") == "team.cloudflareaccess.com")
        #expect(UpgradeRejection.host(of: "https://user@[fd00::1]:8443/login") == "fd00::1")
        #expect(UpgradeRejection.host(of: "/relative/path") == nil)
        #expect(UpgradeRejection.isCloudflareAccess("https://team.cloudflareaccess.com/x"))
        #expect(!UpgradeRejection.isCloudflareAccess("https://cloudflareaccess.com.evil.example/x"))
        #expect(!UpgradeRejection.isCloudflareAccess("https://evilcloudflareaccess.com/x"))
    }

    @Test("Retry-After: seconds (bounded) or an IMF-fixdate; anything else is none")
    func retryAfter() {
        #expect(RetryAfter(header: " 30 ") == .seconds(30))
        #expect(RetryAfter(header: "99999999999") == .seconds(RetryAfter.longest))
        // RFC 9110's own example date.
        #expect(RetryAfter(header: "Sun, 06 Nov 1994 08:49:37 GMT") == .date(Date(timeIntervalSince1970: 784_111_777)))
        for bad in ["", "-1", "soon", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun, 32 Nov 1994 08:49:37 GMT"] {
            #expect(RetryAfter(header: bad) == nil, "\(bad)")
        }
        let now = Date(timeIntervalSince1970: 784_111_700)
        #expect(RetryAfter.date(Date(timeIntervalSince1970: 784_111_777)).wait(from: now) == .seconds(77))
        #expect(RetryAfter.date(Date(timeIntervalSince1970: 1)).wait(from: now) == .zero)
    }

    @Test("after a 503 doctor opens again as OpenClaw's clients do (1 s, 2 s, ...), within the budget; never after a 429")
    func retries() {
        let closed = UpgradeRejection(status: 503, body: "Gateway websocket admission closed")
        func tries(_ rejection: UpgradeRejection, _ count: Int) -> [UpgradeTry] {
            Array(repeating: UpgradeTry(rejection: rejection, waited: .zero), count: count)
        }
        #expect(UpgradeRetry.delay(after: tries(closed, 1), remaining: .seconds(10)) == .seconds(1))
        #expect(UpgradeRetry.delay(after: tries(closed, 3), remaining: .seconds(10)) == .seconds(4))
        #expect(UpgradeRetry.delay(after: tries(closed, 3), remaining: .seconds(2)) == nil, "no try that cannot finish")
        #expect(UpgradeRetry.delay(after: tries(closed, UpgradeRetry.maxTries), remaining: .seconds(600)) == nil)
        var asked = closed
        asked.retryAfter = .seconds(3)
        #expect(UpgradeRetry.delay(after: tries(asked, 1), remaining: .seconds(10)) == .seconds(3), "its Retry-After first")
        for never in [
            UpgradeRejection(status: 429, retryAfter: .seconds(1)), UpgradeRejection(status: 503, body: "Too many unauthenticated sockets"),
            UpgradeRejection(status: 503, body: "nginx"), UpgradeRejection(status: 403, body: #"{"error":{"type":"x"}}"#),
        ] {
            #expect(UpgradeRetry.delay(after: tries(never, 1), remaining: .seconds(60)) == nil, "\(never)")
        }
    }

    static func headers(_ pairs: [(String, String)]) -> HTTPHeaders { HTTPHeaders(pairs) }

    @Test(
        "the stand-in attributes proxy headers as ingress-attribution.ts does (2026.9.4)",
        arguments: [
            ("127.0.0.1", [], [], true, "a direct local client"),
            ("10.0.0.9", [], [], true, "a direct remote client"),
            ("127.0.0.1", [], [("X-Forwarded-For", "10.0.0.5")], false, "loopback proxy, not trusted"),
            ("::ffff:127.0.0.1", [], [("X-Forwarded-Proto", "https")], false, "any x-forwarded-*, mapped loopback"),
            ("10.0.0.9", [], [("Forwarded", "for=10.0.0.5")], false, "a remote untrusted source with proxy headers"),
            ("127.0.0.1", ["127.0.0.1"], [("X-Forwarded-For", "10.0.0.5")], true, "a trusted proxy naming its client"),
            ("127.0.0.1", ["127.0.0.1"], [("X-Forwarded-For", "127.0.0.1")], false, "the chain ends on loopback"),
            ("127.0.0.1", ["127.0.0.0/8"], [("X-Forwarded-For", "10.0.0.5, 127.0.0.2")], true, "trusted hops skipped from the right"),
            ("127.0.0.1", ["127.0.0.1"], [("X-Real-IP", "10.0.0.5")], false, "X-Real-IP without the fallback"),
            ("127.0.0.1", ["127.0.0.1"], [("X-Forwarded-For", "junk")], false, "a hop that is no address"),
            ("127.0.0.1", [], [("Tailscale-User-Login", "a@b")], false, "Tailscale's headers on the ordinary listener"),
        ] as [(String, [String], [(String, String)], Bool, String)])
    func attribution(_ remote: String, _ trusted: [String], _ headers: [(String, String)], _ admitted: Bool, _ why: String) {
        let gate = StandInUpgradeGate(trustedProxies: trusted.compactMap { IPNetwork($0) })
        let refusal = gate.refusal(remote: remote, headers: Self.headers(headers), elapsed: .zero)
        #expect((refusal == nil) == admitted, "\(why): \(String(describing: refusal))")
        if let refusal { #expect(refusal.code == 403 && refusal.body.contains(#""type":"proxy_attribution_required""#)) }
    }

    @Test("allowRealIpFallback lets X-Real-IP name the client; without a trusted-proxy list nothing is gated")
    func fallbackAndOff() {
        let fallback = StandInUpgradeGate(trustedProxies: [IPNetwork("127.0.0.1")!], allowRealIpFallback: true)
        #expect(fallback.refusal(remote: "127.0.0.1", headers: Self.headers([("X-Real-IP", "10.0.0.5")]), elapsed: .zero) == nil)
        let off = StandInUpgradeGate()
        #expect(off.refusal(remote: "127.0.0.1", headers: Self.headers([("X-Forwarded-For", "1.2.3.4")]), elapsed: .zero) == nil)
    }

    @Test("restarting: 503 in the Gateway's words; rate limited: 429 with the seconds left, rounded up")
    func restartAndRateLimit() {
        let gate = StandInUpgradeGate(restartingFor: .seconds(2), rateLimitedFor: .seconds(10))
        let restarting = gate.refusal(remote: "127.0.0.1", headers: [:], elapsed: .milliseconds(100))
        #expect(restarting?.code == 503 && restarting?.body == "Gateway websocket admission closed", "\(String(describing: restarting))")
        let limited = gate.refusal(remote: "127.0.0.1", headers: [:], elapsed: .milliseconds(2500))
        #expect(limited?.code == 429 && limited?.retryAfter == 8, "\(String(describing: limited))")
        #expect(gate.refusal(remote: "127.0.0.1", headers: [:], elapsed: .seconds(10)) == nil)
    }
}

extension UpgradeRejectionTests {
    // Generous: on a loaded machine a connect alone has taken seconds; each test ends as soon as its answer is in.
    static let budget = Duration.seconds(60)

    static func target(_ port: Int) -> ProbeTarget {
        ProbeTarget(label: "ws://127.0.0.1:\(port)", host: "127.0.0.1", addresses: [IPAddress("127.0.0.1")!], port: port, tls: false)
    }

    @Test("a restarting stand-in: doctor opens again after its 503s and gets through within the budget")
    func restartingStandIn() async throws {
        let gateway = try await StandInGateway.start(
            host: "127.0.0.1", port: 0, identity: nil, gate: StandInUpgradeGate(restartingFor: .milliseconds(1500)))
        let report = await GatewayProbe.run(Self.target(gateway.port), budget: Self.budget, phases: [.tcp, .websocket])
        await gateway.stop()
        guard case .opened? = report.websocket?.outcome else {
            Issue.record("not opened: \(String(describing: report.websocket)), refusals \(report.upgradeRefusals)")
            return
        }
        #expect(!report.upgradeRefusals.isEmpty && report.upgradeRefusals.allSatisfy { $0.rejection.status == 503 })
    }

    @Test("a rate-limited stand-in: 429 with its Retry-After, asked exactly once")
    func rateLimitedStandIn() async throws {
        let seen = Mutex(0)
        let gateway = try await StandInGateway.start(
            host: "127.0.0.1", port: 0, identity: nil, gate: StandInUpgradeGate(rateLimitedFor: .seconds(60)),
            refused: { _, _ in seen.withLock { $0 += 1 } })
        let report = await GatewayProbe.run(Self.target(gateway.port), budget: Self.budget, phases: [.tcp, .websocket])
        await gateway.stop()
        let rejection = try #require(report.websocket?.outcome.rejection, "\(String(describing: report.websocket))")
        #expect(rejection.status == 429 && rejection.errorType == "rate_limited", "\(rejection)")
        guard case .seconds(let seconds)? = rejection.retryAfter else {
            Issue.record("no Retry-After: \(rejection)")
            return
        }
        #expect((59...60).contains(seconds), "\(seconds)")
        #expect(seen.withLock { $0 } == 1 && report.upgradeRefusals.isEmpty, "asked \(seen.withLock { $0 }) times")
    }
}

extension UpgradeRejectionTests {
    /// Keeps the first request head a client sends, then answers 404 and closes.
    final class RequestRecorder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let promise: EventLoopPromise<String>
        private var bytes: [UInt8] = []

        init(promise: EventLoopPromise<String>) { self.promise = promise }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            bytes += unwrapInboundIn(data).readableBytesView
            let text = String(decoding: bytes, as: UTF8.self)
            guard text.contains("\r\n\r\n") || bytes.count > 8192 else { return }
            promise.succeed(text)
            let answer = context.channel.allocator.buffer(
                string: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(answer)).whenComplete { _ in channel.close(promise: nil) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(ChannelError.eof)
        }
    }

    @Test("doctor's upgrade request is the one OpenClaw's clients send: no Content-Length, no body framing (h11 servers wait for none)")
    func upgradeRequestHead() async throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let promise = group.next().makePromise(of: String.self)
        let server = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(RequestRecorder(promise: promise)) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(server.localAddress?.port)
        let report = await GatewayProbe.run(Self.target(port), budget: Self.budget, phases: [.tcp, .websocket])
        promise.fail(ChannelError.eof)  // nothing arrived at all (a completed promise stays as it is)
        let head = try await promise.futureResult.get().lowercased()
        try await server.close()
        #expect(report.websocket?.outcome.rejection?.status == 404, "\(String(describing: report.websocket))")
        #expect(!head.contains("content-length") && !head.contains("transfer-encoding"), "\(head)")
        for line in ["get / http/1.1", "host: 127.0.0.1:\(port)", "upgrade: websocket", "sec-websocket-version: 13", "sec-websocket-key: "]
        {
            #expect(head.contains(line), "\(line): \(head)")
        }
    }
}
