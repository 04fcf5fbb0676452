import DNSSD

/// The host aliases OpenClaw 2026.9 refuses in `gateway.bind` (the config is invalid and the
/// Gateway does not start; `openclaw doctor --fix` rewrites them to a bind mode:
/// src/commands/doctor/shared/legacy-config-migrations.runtime.gateway.ts, isLegacyGatewayBindHostAlias
/// and the gateway.bind.host-alias->bind-mode migration).
extension GatewayBind {
    /// The address words and the mode `openclaw doctor --fix` turns each into.
    static let hostAliases: [String: GatewayBind] = [
        "0.0.0.0": .lan, "::": .lan, "[::]": .lan, "*": .lan, "127.0.0.1": .loopback, "localhost": .loopback, "::1": .loopback,
        "[::1]": .loopback,
    ]

    /// For a host alias, the bind mode that replaces it; nil for a mode or another word.
    package var aliasReplacement: GatewayBind? {
        guard let word = unknownWord else { return nil }
        return Self.hostAliases[word.trimmingSpaces().lowercased()]
    }
}
