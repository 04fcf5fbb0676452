/// The protocol versions a connect request offers (`minProtocol`...`maxProtocol`), and which
/// side is older when a Gateway expects another one. The versions follow
/// packages/gateway-protocol/src/version.ts; the range per client follows
/// packages/gateway-client/src/client.ts (assembleConnectParams, shouldNegotiateLegacyNodeProtocol).
package struct ProtocolRange: Sendable, Hashable, CustomStringConvertible {
    package let min: Int
    package let max: Int

    package init(min: Int, max: Int) {
        self.min = min
        self.max = max
    }

    /// PROTOCOL_VERSION: what current Gateways and clients speak.
    package static let currentVersion = 4
    /// MIN_PROBE_PROTOCOL_VERSION and MIN_NODE_PROTOCOL_VERSION: probes and nodes may speak N-1.
    package static let previousVersion = 3

    /// A probe (client mode `probe`, as `openclaw gateway probe` sends it): MIN_PROBE_PROTOCOL_VERSION
    /// through PROTOCOL_VERSION, so a Gateway of either version answers it.
    package static let probe = ProtocolRange(min: previousVersion, max: currentVersion)
    /// The node host asks for the current protocol first (negotiatesNodeProtocol)...
    package static let node = ProtocolRange(min: currentVersion, max: currentVersion)
    /// ...and, when a Gateway answers `expectedProtocol: 3`, again with the envelope the
    /// released v3 node host sent (useLegacyNodeProtocolEnvelope), so v3 pairings stay as they are.
    package static let legacyNode = ProtocolRange(min: previousVersion, max: previousVersion)

    package func contains(_ version: Int) -> Bool { (min...max).contains(version) }

    /// Which side is older when a Gateway that speaks `expected`, and takes probes and nodes
    /// from `minimum` (details.minimumProbeProtocol), refused this range.
    package func older(than expected: Int, minimum: Int? = nil) -> OlderSide {
        if expected < min { return .gateway }
        if Swift.min(minimum ?? expected, expected) > max { return .client }
        return .neither
    }

    package enum OlderSide: Sendable, Hashable {
        /// The Gateway speaks a version below what the client offers: update the Gateway.
        case gateway
        /// The Gateway speaks a version above it: update the client (the node).
        case client
        /// The Gateway refused a range that holds its version (a probe floor, a role rule).
        case neither
    }

    /// `v3…v4`, or `v4` for a single version.
    package var description: String { min == max ? "v\(min)" : "v\(min)…v\(max)" }
}
