import Doctor
import Probes

/// The words of the causes an OpenClaw 2 Gateway, or what stands in front of it, gives in its
/// answer to the WebSocket upgrade: proxy headers it cannot attribute, and an identity-aware
/// proxy's login.
extension DiagnosisText {
    /// 403 proxy_attribution_required (src/gateway/ingress-attribution.ts): the proxy's source is
    /// not in gateway.trustedProxies, or the client it forwards is loopback.
    static func proxyAttribution(_ finding: IntermediaryFinding) -> DiagnosisText {
        let path = finding.path
        let who = path.intermediary.map { "from \($0), which is" } ?? "from a proxy"
        let sameHost =
            finding.loopback
            ? "; doctor reached the proxy from this very host, so the client it forwards is loopback, which the Gateway refuses even "
                + "from a trusted proxy: once the proxy is trusted, check from another machine, or the Gateway's own port"
            : ""
        let serve =
            path.intermediary == .tailscaleServe
            ? "; a Serve route made by hand is a proxy like any other: let the Gateway manage Serve (gateway.tailscale.mode serve) "
                + "so it attributes Serve's requests itself"
            : ""
        return DiagnosisText(
            cause: "\(finding.target): the Gateway refuses the WebSocket upgrade with 403 proxy_attribution_required: proxy headers "
                + "(X-Forwarded-For, Forwarded, X-Real-IP) reach it \(who) not in gateway.trustedProxies, or through a trusted proxy "
                + "whose X-Forwarded-For ends on a loopback address. OpenClaw 2026.8 and later fail closed: every node, app and browser "
                + "that connects this way is refused",
            fix: "on the Gateway host add the address the Gateway sees the proxy connect from to gateway.trustedProxies and restart "
                + "it: 127.0.0.1 for a proxy on the Gateway's own host (and ::1 when it connects to [::1] or localhost), `\"gateway\": "
                + "{ \"trustedProxies\": [\"127.0.0.1\", \"::1\"] }`; for a proxy on another host, that host's address on the Gateway's "
                + "network (doctor reached it as \(path.host)). Make the proxy overwrite X-Forwarded-For with the client's address "
                + "(nginx: `proxy_set_header X-Forwarded-For $remote_addr;`; Caddy does by itself); one that sends only X-Real-IP "
                + "needs gateway.allowRealIpFallback true too. With gateway.auth.mode trusted-proxy a proxy on the Gateway's host also "
                + "needs gateway.auth.trustedProxy.allowLoopback true (its source is loopback)" + sameHost + serve)
    }

    /// 30x/401/403 with a Location: the login page of whatever answers in front of the Gateway.
    static func identityAwareProxy(_ finding: IntermediaryFinding) -> DiagnosisText {
        var rejection: UpgradeRejection?
        if case .webSocket(let evidence) = finding.check.evidence { rejection = evidence.phase.outcome.rejection }
        let location = rejection?.location ?? ""
        let proxy =
            UpgradeRejection.isCloudflareAccess(location)
            ? "Cloudflare Access" : finding.path.intermediary.map { "\($0) (an identity-aware proxy)" } ?? "an identity-aware proxy"
        let host = UpgradeRejection.host(of: location).map(CheckText.shown) ?? "its login page"
        let status = rejection.map { "HTTP \($0.status)" } ?? "a redirect"
        return DiagnosisText(
            cause: "\(finding.target): \(proxy) answers the WebSocket upgrade with \(status) and sends the client to \(host) to log "
                + "in; OpenClaw's nodes and CLI carry no browser session, so they never reach the Gateway (websocket-upgrade-rejected, "
                + "\(status))",
            fix: CheckText.identityProxyFix(location))
    }
}
