import Probes

/// gw.connect refusals of what a proxy in front of the Gateway forwarded: the browser's Origin
/// (CONTROL_UI_ORIGIN_NOT_ALLOWED, src/gateway/origin-check.ts), and in auth mode trusted-proxy a
/// proxy outside gateway.trustedProxies or one that sent no user (authorizeTrustedProxy in
/// src/gateway/auth.ts: details.authReason `trusted_proxy_*`, under AUTH_UNAUTHORIZED or
/// AUTH_IDENTITY_HEADER_REQUIRED as connect-error-details.ts maps them).
extension GatewayChecks {
    static func intermediaryRefusal(_ error: ConnectError) -> CheckReason? {
        if error.detailCode == .originNotAllowed { return .originNotAllowed }
        if error.authReason?.hasPrefix(trustedProxyReasonPrefix) == true || error.detailCode == .identityHeaderRequired {
            return .proxyNotTrusted
        }
        if error.authReason?.hasPrefix(tailscaleReasonPrefix) == true || error.detailCode?.isTailscale == true {
            return .tailscaleIdentityRefused
        }
        return nil
    }

    static let trustedProxyReasonPrefix = "trusted_proxy_"
    /// tailscale_user_missing, tailscale_proxy_missing, tailscale_whois_failed, tailscale_user_mismatch
    /// (formatGatewayAuthFailureMessage in src/gateway/server/ws-connection/auth-messages.ts).
    static let tailscaleReasonPrefix = "tailscale_"
}
