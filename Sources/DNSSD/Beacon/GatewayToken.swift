/// A Gateway token (gateway.remote.token, gateway.auth.token, OPENCLAW_GATEWAY_TOKEN or
/// --token-file). It is a credential: it prints as where it came from, never as itself, and
/// is not Encodable, so no report or log line can carry it. Only the connect request reads it.
package struct GatewayToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    private let value: String
    /// Where it came from, for messages: `gateway.remote.token`, `--token-file /path`.
    package let source: String
    /// The user who owns the file it was read from (for a variable, the user whose environment
    /// it is): a listener on this machine is shown the token only when that user or root runs it.
    package var owner: UInt32?

    /// nil for an empty token (after trimming white space, as OpenClaw does).
    package init?(_ value: String, source: String, owner: UInt32? = nil) {
        let trimmed = value.trimmingSpaces()
        guard !trimmed.isEmpty else { return nil }
        self.value = trimmed
        self.source = source
        self.owner = owner
    }

    /// The token itself, for the `auth.token` field of a connect request and nothing else.
    package var forConnectRequest: String { value }

    /// Two tokens are the same when their text is, wherever they came from.
    package static func == (lhs: GatewayToken, rhs: GatewayToken) -> Bool { lhs.value == rhs.value }
    package func hash(into hasher: inout Hasher) { hasher.combine(value) }

    package var description: String { "the token from \(source)" }
    package var debugDescription: String { description }
}
