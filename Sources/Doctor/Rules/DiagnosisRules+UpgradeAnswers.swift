import Probes

/// OpenClaw 2's answers to the WebSocket upgrade that are not 101 and say why
/// (src/gateway/server-http.ts attachGatewayUpgradeHandler): proxy headers the Gateway cannot
/// attribute (403 proxy_attribution_required, src/gateway/ingress-attribution.ts), an
/// identity-aware proxy in front of it (30x/401/403 with a Location), too many failed
/// authentications (429 with Retry-After), and a Gateway restarting or draining (503: a warning).
extension DiagnosisRules {
    static let upgradeAnswers: [DiagnosisRule] = [proxyAttribution, identityAwareProxy, upgradeRateLimited, upgradeUnavailable]

    static let proxyAttribution = DiagnosisRule.gateway(.proxyAttribution, explains: [.gwWebSocket: [.proxyAttributionRequired]]) {
        result, machine in
        result.failing(.gwWebSocket, [.proxyAttributionRequired]).map { intermediary(.proxyAttribution, result, $0, machine) }
    }

    /// The proxy's login answers /healthz too (Cloudflare Access guards every route): one cause for both.
    static let identityAwareProxy = DiagnosisRule.gateway(
        .identityAwareProxy, explains: [.gwWebSocket: [.identityProxy], .gwHTTP: [.unhealthy]]
    ) { result, machine in
        guard let webSocket = result.failing(.gwWebSocket, [.identityProxy]) else { return nil }
        var also: [CheckID] = []
        if result.failing(.gwHTTP, [.unhealthy]) != nil, case .response(let status, _, _, _)? = result.evidence.http?.health.outcome,
            UpgradeRejection.loginStatuses.contains(status)
        {
            also.append(.gwHTTP)
        }
        return intermediary(.identityAwareProxy, result, webSocket, machine, also: also)
    }

    static let upgradeRateLimited = failure(.upgradeRateLimited, .gwWebSocket, [.upgradeRateLimited])
    static let upgradeUnavailable = warning(.upgradeUnavailable, .gwWebSocket, [.upgradeUnavailable])
}

extension DiagnosisID {
    /// 403 proxy_attribution_required: a proxy the Gateway does not trust, or a chain that ends on loopback.
    package static let proxyAttribution = DiagnosisID(rawValue: "proxy-attribution")
    /// An identity-aware proxy (Cloudflare Access, oauth2-proxy, ...) answers the upgrade with its login.
    package static let identityAwareProxy = DiagnosisID(rawValue: "identity-aware-proxy")
    /// 429 with Retry-After from gateway.auth.rateLimit: never asked again.
    package static let upgradeRateLimited = DiagnosisID(rawValue: "upgrade-rate-limited")
    /// 503 while the Gateway restarts or drains (too many unauthenticated connections from here is
    /// unauthenticated-limit, a failure).
    package static let upgradeUnavailable = DiagnosisID(rawValue: "upgrade-unavailable")
}
