import ArgumentParser
import DNSSD
import Probes

/// `advertise --serve`'s answers to the WebSocket upgrade as OpenClaw 2 gives them: proxy
/// attribution (always on, as 2026.8 and later are; --trusted-proxy is gateway.trustedProxies),
/// 503 while restarting, 429 while rate limited.
struct UpgradeGateOptions: ParsableArguments {
    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "With --serve: an address or CIDR range in gateway.trustedProxies (repeatable); without one, any proxy headers "
                + "(X-Forwarded-For, Forwarded, X-Real-IP) get 403 proxy_attribution_required.",
            valueName: "ADDRESS"),
        transform: UpgradeGateOptions.network)
    var trustedProxies: [IPNetwork] = []

    @Flag(
        name: .customLong("allow-real-ip-fallback"),
        help: "With --serve: gateway.allowRealIpFallback (X-Real-IP names the client when X-Forwarded-For does not).")
    var allowRealIpFallback = false

    @Option(
        name: .customLong("restarting-for"), parsing: .unconditional,
        help: ArgumentHelp(
            "With --serve: answer the upgrade with 503 \"Gateway websocket admission closed\" for this long from the first one, "
                + "as a restarting Gateway does.",
            valueName: "DURATION"),
        transform: Arguments.duration)
    var restartingFor: Duration?

    @Option(
        name: .customLong("rate-limited-for"), parsing: .unconditional,
        help: ArgumentHelp(
            "With --serve: answer the upgrade with 429 and Retry-After for this long from the first one, as a Gateway whose "
                + "gateway.auth.rateLimit locked this client out does.",
            valueName: "DURATION"),
        transform: Arguments.duration)
    var rateLimitedFor: Duration?

    /// Whether any of these was given (they go with --serve).
    var isSet: Bool { !trustedProxies.isEmpty || allowRealIpFallback || restartingFor != nil || rateLimitedFor != nil }

    var gate: StandInUpgradeGate {
        StandInUpgradeGate(
            trustedProxies: trustedProxies, allowRealIpFallback: allowRealIpFallback, restartingFor: restartingFor,
            rateLimitedFor: rateLimitedFor)
    }

    /// `127.0.0.1`, `::1` or `10.0.0.0/8`.
    static func network(_ text: String) throws -> IPNetwork {
        guard let network = IPNetwork(text) else { throw ValidationError("'\(text)' is not an IP address or CIDR range") }
        return network
    }
}
