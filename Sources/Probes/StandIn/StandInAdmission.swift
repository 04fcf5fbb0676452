import DNSSD
import FoundationEssentials
import NIOHTTP1

/// What a Gateway decides from the upgrade request before it reads `connect` itself: a browser
/// Origin it does not allow (checkBrowserOrigin in src/gateway/origin-check.ts, enforced for any
/// client that sends an Origin: resolveHandshakeBrowserSecurityContext), and, in auth mode
/// trusted-proxy, a proxy it does not trust or a proxy that sends no user
/// (authorizeTrustedProxy in src/gateway/auth.ts; the reasons and their detail codes as
/// resolveAuthConnectErrorDetailCode in packages/gateway-protocol/src/connect-error-details.ts
/// maps them). The default admits everything, as the stand-in did before it had this.
package struct StandInAdmission: Sendable {
    /// gateway.trustedProxies: the addresses whose forwarded headers are believed.
    package var trustedProxies: [String]
    /// gateway.controlUi.allowedOrigins (`*` allows any).
    package var allowedOrigins: [String]
    /// gateway.auth.mode "trusted-proxy" with gateway.auth.trustedProxy.userHeader; nil: another mode.
    package var trustedProxyUserHeader: String?
    /// gateway.auth.trustedProxy.allowLoopback: a proxy on the Gateway's own host may vouch.
    package var allowLoopbackProxy: Bool

    package init(
        trustedProxies: [String] = [], allowedOrigins: [String] = [], trustedProxyUserHeader: String? = nil,
        allowLoopbackProxy: Bool = false
    ) {
        self.trustedProxies = trustedProxies
        self.allowedOrigins = allowedOrigins
        self.trustedProxyUserHeader = trustedProxyUserHeader
        self.allowLoopbackProxy = allowLoopbackProxy
    }

    /// The refusal of the connect request `text` that came over an upgrade from `remote` with
    /// `headers`; nil when the request goes on to the connect decision.
    func refusal(of text: String, remote: String, headers: HTTPHeaders) -> StandInConnect.Reply? {
        struct Request: Decodable { let id: String? }
        guard let id = (try? JSONDecoder().decode(Request.self, from: Data(text.utf8)))?.id else { return nil }
        let trusted = trustedProxies.contains(remote)
        if let origin = headers.first(name: "origin"),
            !originAllowed(origin, forwardedHost: headers.contains(name: "x-forwarded-host"), trusted)
        {
            let message = "origin not allowed (open the Control UI from the gateway host or allow it in gateway.controlUi.allowedOrigins)"
            return Self.refuse(id, message, ["code": .text("CONTROL_UI_ORIGIN_NOT_ALLOWED"), "reason": .text("origin not allowed")])
        }
        guard let userHeader = trustedProxyUserHeader else { return nil }
        let reason: String
        if !trusted {
            reason = "trusted_proxy_untrusted_source"
        } else if Self.isLoopback(remote), !allowLoopbackProxy {
            reason = "trusted_proxy_loopback_source"
        } else if (headers.first(name: userHeader) ?? "").trimmingSpaces().isEmpty {
            reason = "trusted_proxy_user_missing"
        } else {
            return nil
        }
        return Self.refuse(id, "unauthorized", ["code": .text("AUTH_UNAUTHORIZED"), "authReason": .text(reason)])
    }

    /// checkBrowserOrigin, without the forwarded-proto and host-header fallbacks: a forwarded
    /// host from an untrusted proxy is refused outright, then the allowlist decides.
    private func originAllowed(_ origin: String, forwardedHost: Bool, _ trusted: Bool) -> Bool {
        if forwardedHost && !trusted { return false }
        let normalized = origin.trimmingSpaces().lowercased()
        return allowedOrigins.contains { $0 == "*" || $0.lowercased() == normalized }
    }

    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }

    /// INVALID_REQUEST with `details`, then close 1008 with the message (truncateCloseReason keeps 123 bytes).
    private static func refuse(_ id: String, _ message: String, _ details: [String: JSONText]) -> StandInConnect.Reply {
        let shape: [String: JSONText] = ["code": .text("INVALID_REQUEST"), "message": .text(message), "details": .object(details)]
        let frame: [String: JSONText] = ["type": .text("res"), "id": .text(id), "ok": .bool(false), "error": .object(shape)]
        return StandInConnect.Reply(
            frames: [JSONText.object(frame).encoded], close: (1008, String(decoding: Array(message.utf8.prefix(123)), as: UTF8.self)))
    }
}
