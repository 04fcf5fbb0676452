import CommandTestSupport
import DNSSD
import Foundation
import Probes
import TestSupport
import Testing

/// What OpenClaw users hit behind reverse proxies and edges, end to end: the stand-in Gateway
/// (in-process, on 127.0.0.1) behind nginx 1.22 or Caddy 2.6, each run by the test with its own
/// config in the node namespace, and doctor run in-process against the proxy. Each test is
/// named after the OpenClaw issue it comes from and asserts the cause doctor names and its fix.
// Serialized: eleven proxies, stand-ins and in-process doctors at once starved a loaded 2-core
// machine until doctor's own --timeout ran out before its first probe.
@Suite("doctor behind nginx and Caddy (OpenClaw's field cases)", .testBed, .serialized)
struct ProxyFieldTests {
    /// A stand-in Gateway, TLS 1.3 with its own self-signed certificate unless `plain`.
    static func gateway(plain: Bool = false, admission: StandInAdmission = StandInAdmission()) async throws -> StandInGateway {
        try await StandInGateway.start(
            host: "127.0.0.1", port: 0, identity: plain ? nil : try identity.get(), admission: admission)
    }

    /// One certificate for every TLS stand-in here: an RSA key made per test cost seconds of CPU.
    static let identity = Result { try StandInIdentity.make() }

    /// doctor in-process against `url` (nothing else: no mDNS, no wide-area), as JSON.
    static func doctor(_ url: String, _ extra: [String] = []) async throws -> (document: [String: Any], output: String) {
        let run = try await InProcessRun.run(["doctor", url, "--no-local", "--format", "json", "--timeout", "15s"] + extra, network: .live)
        let document = try jsonObject(run.out)
        return (document, summary(document) + "\n" + run.out + run.err)
    }

    /// The Gateway's checks and the causes, a line each: a failure's message starts with them,
    /// so that a CI log that keeps only its first lines still shows what doctor saw.
    static func summary(_ document: [String: Any]) -> String {
        let checks = (document["gateways"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]] ?? []
        let lines = checks.map { check in
            "\(check["id"] ?? "?") \(check["status"] ?? "?"): \(check["message"] ?? "") \(check["detail"] ?? "")"
        }
        return (lines + causes(document).map { "cause \($0["id"] ?? "?")" }).joined(separator: "\n")
    }

    /// Runs `body`, then stops the proxy and the stand-in, whether it passed or threw.
    static func stopping(_ proxy: ReverseProxy, _ gateway: StandInGateway, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            await proxy.stop()
            await gateway.stop()
            throw error
        }
        await proxy.stop()
        await gateway.stop()
    }

    static func check(_ document: [String: Any], _ id: String) -> [String: Any]? {
        ((document["gateways"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])?.first { $0["id"] as? String == id }
    }

    /// The Gateway's checks that warn or fail.
    static func troubled(_ document: [String: Any]) -> [String] {
        let checks = (document["gateways"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]] ?? []
        return checks.filter { ["warn", "fail"].contains($0["status"] as? String) }.compactMap { $0["id"] as? String }
    }

    static func causes(_ document: [String: Any]) -> [[String: Any]] { document["diagnosis"] as? [[String: Any]] ?? [] }

    static func cause(_ document: [String: Any], _ id: String) -> [String: Any]? { causes(document).first { $0["id"] as? String == id } }

    /// The nginx `location` lines that pass WebSockets.
    static let passesWebSockets = [
        "proxy_http_version 1.1;", "proxy_set_header Upgrade $http_upgrade;", "proxy_set_header Connection \"upgrade\";",
    ]

    // MARK: Upgrade headers, upstream scheme, idle timeout

    @Test("openclaw#71258: nginx without the Upgrade and Connection headers: proxy-drops-upgrade, with nginx's directive")
    func openclaw71258NginxDropsUpgrade() async throws {
        let bed = try TestBed.current()
        let gateway = try await Self.gateway(plain: true)
        let proxy = try await bed.startNginx(port: testPort(), upstream: "http://127.0.0.1:\(gateway.port)", directives: [])
        try await Self.stopping(proxy, gateway) {
            let (document, output) = try await Self.doctor("ws://127.0.0.1:\(proxy.port)")
            #expect(Self.check(document, "gw.http")?["status"] as? String == "pass", "\(output)\n\(proxy.config)")
            #expect(Self.check(document, "gw.websocket")?["status"] as? String == "fail", "\(output)")
            let cause = try #require(Self.cause(document, "proxy-drops-upgrade"), "\(output)")
            #expect((cause["cause"] as? String)?.contains("nginx") == true, "\(cause)")
            #expect((cause["fix"] as? String)?.contains("proxy_set_header Upgrade $http_upgrade;") == true, "\(cause)")
            #expect(Self.causes(document).count == 1, "one cause, not also gw-websocket: \(Self.causes(document))")
        }
    }

    @Test("openclaw#71258: nginx that passes WebSockets: every layer passes, and doctor says nginx answers in front")
    func openclaw71258NginxPassesWebSockets() async throws {
        let bed = try TestBed.current()
        let gateway = try await Self.gateway(plain: true)
        let proxy = try await bed.startNginx(
            port: testPort(), upstream: "http://127.0.0.1:\(gateway.port)", directives: Self.passesWebSockets)
        try await Self.stopping(proxy, gateway) {
            let (document, output) = try await Self.doctor("ws://127.0.0.1:\(proxy.port)")
            #expect(Self.troubled(document).isEmpty, "\(Self.troubled(document))\n\(output)\n\(proxy.config)")
            let webSocket = try #require(Self.check(document, "gw.websocket"), "\(output)")
            #expect((webSocket["message"] as? String)?.contains("a proxy answers here") == true, "\(webSocket)")
            #expect(((webSocket["detail"] as? [String: Any])?["idleHeldMs"] as? String) != nil, "\(webSocket)")
            #expect(((Self.check(document, "gw.http")?["detail"] as? [String: Any])?["server"] as? String)?.hasPrefix("nginx") == true)
        }
    }

    @Test(
        "openclaw#71258: a proxy speaking http:// to a Gateway with TLS answers 502: proxy-upstream, with the https:// upstream directive",
        arguments: ["nginx", "caddy"])
    func openclaw71258PlainUpstreamToTLS(_ program: String) async throws {
        let bed = try TestBed.current()
        let gateway = try await Self.gateway()
        let upstream = program == "nginx" ? "http://127.0.0.1:\(gateway.port)" : "127.0.0.1:\(gateway.port)"
        let proxy =
            program == "nginx"
            ? try await bed.startNginx(port: testPort(), upstream: upstream, directives: Self.passesWebSockets)
            : try await bed.startCaddy(port: testPort(), upstream: upstream, directives: [], internalTLS: false)
        try await Self.stopping(proxy, gateway) {
            let (document, output) = try await Self.doctor("ws://127.0.0.1:\(proxy.port)")
            let cause = try #require(Self.cause(document, "proxy-upstream"), "\(output)\n\(proxy.config)")
            let fix = cause["fix"] as? String ?? ""
            #expect(fix.contains(program == "nginx" ? "proxy_pass https://127.0.0.1:" : "reverse_proxy https://127.0.0.1:"), "\(cause)")
            #expect(Self.cause(document, "another-program") == nil, "a proxy's 502 is not another program: \(Self.causes(document))")
        }
    }

    @Test("openclaw#71258: nginx speaking https:// to a plain Gateway answers 502: proxy-upstream names both schemes")
    func openclaw71258TLSUpstreamToPlain() async throws {
        let bed = try TestBed.current()
        let gateway = try await Self.gateway(plain: true)
        let proxy = try await bed.startNginx(
            port: testPort(), upstream: "https://127.0.0.1:\(gateway.port)", directives: Self.passesWebSockets)
        try await Self.stopping(proxy, gateway) {
            let (document, output) = try await Self.doctor("ws://127.0.0.1:\(proxy.port)")
            let cause = try #require(Self.cause(document, "proxy-upstream"), "\(output)\n\(proxy.config)")
            let fix = cause["fix"] as? String ?? ""
            #expect(fix.contains("proxy_pass http://127.0.0.1:") && fix.contains("proxy_pass https://127.0.0.1:"), "\(cause)")
        }
    }

    @Test("openclaw#56645: nginx with proxy_read_timeout 2s cuts the idle WebSocket before the 30 s tick: proxy-idle-timeout")
    func openclaw56645IdleTimeout() async throws {
        let bed = try TestBed.current()
        let gateway = try await Self.gateway(plain: true)
        let proxy = try await bed.startNginx(
            port: testPort(), upstream: "http://127.0.0.1:\(gateway.port)", directives: Self.passesWebSockets + ["proxy_read_timeout 2s;"])
        try await Self.stopping(proxy, gateway) {
            let (document, output) = try await Self.doctor("ws://127.0.0.1:\(proxy.port)")
            let websocket = Self.check(document, "gw.websocket")
            #expect(websocket?["status"] as? String == "fail", "gw.websocket: \(websocket ?? [:])\n\(output)\n\(proxy.config)")
            let cause = try #require(Self.cause(document, "proxy-idle-timeout"), "\(output)")
            #expect((cause["fix"] as? String)?.contains("proxy_read_timeout") == true, "\(cause)")
        }
    }

    @Test("Caddy passes WebSockets by itself: every layer passes behind it, and its Server header names it")
    func caddyPassesWebSockets() async throws {
        let bed = try TestBed.current()
        let gateway = try await Self.gateway(plain: true)
        let proxy = try await bed.startCaddy(port: testPort(), upstream: "127.0.0.1:\(gateway.port)", directives: [], internalTLS: false)
        try await Self.stopping(proxy, gateway) {
            let (document, output) = try await Self.doctor("ws://127.0.0.1:\(proxy.port)")
            #expect(Self.troubled(document).isEmpty, "\(Self.troubled(document))\n\(output)\n\(proxy.config)")
            #expect(((Self.check(document, "gw.http")?["detail"] as? [String: Any])?["server"] as? String) == "Caddy", "\(output)")
        }
    }

    // MARK: The Gateway and its proxy

    @Test("openclaw#95405: auth mode trusted-proxy behind nginx that is not in gateway.trustedProxies: proxy-not-trusted")
    func openclaw95405ProxyNotTrusted() async throws {
        let bed = try TestBed.current()
        let gateway = try await Self.gateway(plain: true, admission: StandInAdmission(trustedProxyUserHeader: "x-forwarded-user"))
        let proxy = try await bed.startNginx(
            port: testPort(), upstream: "http://127.0.0.1:\(gateway.port)",
            directives: Self.passesWebSockets + [
                "proxy_set_header X-Forwarded-User alice;", "proxy_set_header X-Forwarded-For $remote_addr;",
            ])
        try await Self.stopping(proxy, gateway) {
            let (document, output) = try await Self.doctor("ws://127.0.0.1:\(proxy.port)")
            let connect = try #require(Self.check(document, "gw.connect"), "\(output)")
            #expect(((connect["detail"] as? [String: Any])?["authReason"] as? String) == "trusted_proxy_untrusted_source", "\(connect)")
            let cause = try #require(Self.cause(document, "proxy-not-trusted"), "\(output)")
            #expect((cause["fix"] as? String)?.contains("\"trustedProxies\": [\"127.0.0.1\"]") == true, "\(cause)")
        }
    }

    @Test("openclaw#71258: trusted-proxy with nginx on the Gateway host listed but loopback not allowed: allowLoopback named")
    func openclaw71258LoopbackProxy() async throws {
        let bed = try TestBed.current()
        let admission = StandInAdmission(trustedProxies: ["127.0.0.1"], trustedProxyUserHeader: "x-forwarded-user")
        let gateway = try await Self.gateway(plain: true, admission: admission)
        let proxy = try await bed.startNginx(
            port: testPort(), upstream: "http://127.0.0.1:\(gateway.port)",
            directives: Self.passesWebSockets + ["proxy_set_header X-Forwarded-User alice;"])
        try await Self.stopping(proxy, gateway) {
            let (document, output) = try await Self.doctor("ws://127.0.0.1:\(proxy.port)")
            let cause = try #require(Self.cause(document, "proxy-not-trusted"), "\(output)")
            #expect((cause["fix"] as? String)?.contains("gateway.auth.trustedProxy.allowLoopback") == true, "\(cause)")
        }
    }

    // MARK: Certificates in front of the Gateway

    @Test("openclaw#150152: a pin on the certificate Caddy's CA issued (tls internal): pin-on-renewing-certificate, with its date")
    func openclaw150152PinOnRenewingCertificate() async throws {
        let bed = try TestBed.current()
        let gateway = try await Self.gateway(plain: true)
        let proxy = try await bed.startCaddy(port: testPort(), upstream: "127.0.0.1:\(gateway.port)", directives: [], internalTLS: true)
        try await Self.stopping(proxy, gateway) {
            let url = "wss://127.0.0.1:\(proxy.port)"
            let first = try await Self.doctor(url)
            let served = try #require(
                (Self.check(first.document, "gw.tls")?["detail"] as? [String: Any])?["sha256"] as? String, "\(first.output)")
            let certificate = try #require(Self.check(first.document, "gw.cert"), "\(first.output)")
            #expect((certificate["message"] as? String)?.contains("Caddy Local Authority") == true, "\(certificate)")

            let (document, output) = try await Self.doctor(url, ["--pin", served])
            #expect(Self.check(document, "gw.pin")?["status"] as? String == "warn", "\(output)")
            let cause = try #require(Self.cause(document, "pin-on-renewing-certificate"), "\(output)")
            let notAfter = try #require((Self.check(document, "gw.cert")?["detail"] as? [String: Any])?["notAfter"] as? String)
            #expect((cause["cause"] as? String)?.contains(notAfter) == true, "\(cause)")
            #expect((cause["cause"] as? String)?.contains("Caddy") == true, "the pin belongs to Caddy: \(cause)")
            #expect((cause["fix"] as? String)?.contains("re-pin") == true, "\(cause)")
        }
    }

    @Test("openclaw#68438: nginx terminates TLS with a CA-issued certificate where the Gateway's was pinned: edge-certificate")
    func openclaw68438EdgeCertificate() async throws {
        let bed = try TestBed.current()
        let gateway = try await Self.gateway()
        let own = try #require(gateway.fingerprint)
        let issued = try await bed.makeCAIssuedCertificate(subjectAltName: "IP:127.0.0.1")
        let proxy = try await bed.startNginx(
            port: testPort(), upstream: "https://127.0.0.1:\(gateway.port)", directives: Self.passesWebSockets,
            certificate: issued.certificate)
        try await Self.stopping(proxy, gateway) {
            let (document, output) = try await Self.doctor("wss://127.0.0.1:\(proxy.port)", ["--pin", own.hex])
            #expect(Self.check(document, "gw.pin")?["status"] as? String == "fail", "\(output)")
            let certificate = try #require(Self.check(document, "gw.cert"), "\(output)")
            #expect((certificate["message"] as? String)?.contains("clawnet test intermediate") == true, "the chain: \(certificate)")
            let cause = try #require(Self.cause(document, "edge-certificate"), "\(output)")
            #expect((cause["cause"] as? String)?.contains("nginx's certificate") == true, "\(cause)")
            #expect(Self.cause(document, "pin-changed") == nil, "named once: \(Self.causes(document))")
        }
    }
}

extension ProxyFieldTests {
    @Test(
        "openclaw#71258: a browser origin the Gateway allows, refused behind Caddy (X-Forwarded-Host from an untrusted proxy): origin-not-allowed"
    )
    func openclaw71258OriginBehindCaddy() async throws {
        let bed = try TestBed.current()
        let origin = "https://gw.example"
        let gateway = try await Self.gateway(plain: true, admission: StandInAdmission(allowedOrigins: [origin]))
        let proxy = try await bed.startCaddy(port: testPort(), upstream: "127.0.0.1:\(gateway.port)", directives: [], internalTLS: false)
        try await Self.stopping(proxy, gateway) {
            let direct = try await Self.doctor("ws://127.0.0.1:\(gateway.port)", ["--origin", origin])
            #expect(Self.troubled(direct.document).isEmpty, "the origin is allowed directly: \(direct.output)")
            let refused = try await Self.doctor("ws://127.0.0.1:\(gateway.port)", ["--origin", "https://evil.example"])
            #expect(Self.cause(refused.document, "origin-not-allowed") != nil, "\(refused.output)")

            let (document, output) = try await Self.doctor("ws://127.0.0.1:\(proxy.port)", ["--origin", origin])
            let connect = try #require(Self.check(document, "gw.connect"), "\(output)")
            #expect(((connect["detail"] as? [String: Any])?["detailCode"] as? String) == "CONTROL_UI_ORIGIN_NOT_ALLOWED", "\(connect)")
            let cause = try #require(Self.cause(document, "origin-not-allowed"), "\(output)")
            #expect((cause["fix"] as? String)?.contains("trustedProxies") == true, "\(cause)")
        }
    }
}
