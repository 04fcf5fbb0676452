import Probes

extension AdvertiseLines {
    /// An upgrade the stand-in refused as a 2026.9 Gateway does: `upgrade from ADDRESS: 403 proxy_attribution_required`.
    package static func refused(from client: String, _ refusal: StandInUpgradeGate.Refusal) -> String {
        let kind =
            switch refusal.code {
            case 403: "proxy_attribution_required (proxy headers from a source outside --trusted-proxy, or a loopback client)"
            case 429: "rate_limited, Retry-After \(refusal.retryAfter ?? 0) s"
            default: refusal.body
            }
        return "upgrade from \(client): \(refusal.code) \(kind)"
    }
}
