/// The OpenClaw release the stand-in answers as (`advertise --serve --release`). What differs
/// at the connect level, each from the release's own sources:
/// - the probe floor, details.minimumProbeProtocol: 4 on 2026.5.18, 3 from July builds
///   (MIN_PROBE_PROTOCOL_VERSION, packages/gateway-protocol/src/version.ts);
/// - the device signature window: 10 minutes before, 2 minutes in 2026.9
///   (DEVICE_SIGNATURE_SKEW_MS, src/gateway/server/ws-connection/connect-device-proof.ts);
/// - a pairing decision announced as device.pair.resolved on a socket kept open for it
///   (2026.9, docs/gateway/protocol/auth.md).
package enum StandInRelease: String, Sendable, CaseIterable {
    case september2026 = "2026.9"
    case may2026 = "2026.5"

    package static let current = StandInRelease.september2026

    var minimumProbeProtocol: Int { self == .may2026 ? ProtocolRange.currentVersion : ProtocolRange.previousVersion }

    var signatureSkewMs: Int64 { self == .may2026 ? 10 * 60 * 1000 : 2 * 60 * 1000 }

    var announcesPairingDecisions: Bool { self == .september2026 }
}

/// The Gateway's limits before login that the stand-in keeps, as OpenClaw's server does:
/// - `handshake`: the connection must log in (hello-ok) within this long, or it is closed
///   (DEFAULT_PREAUTH_HANDSHAKE_TIMEOUT_MS, packages/gateway-client/src/timeouts.ts: 15 s);
/// - `unauthenticatedPerAddress`: WebSockets of one address that have not logged in; past it
///   the upgrade gets HTTP 503 "Too many unauthenticated sockets"
///   (src/gateway/server/preauth-connection-budget.ts: 32);
/// - `connections`: every connection at once, so that a flood cannot take every descriptor of
///   the process (the Gateway leaves that to its host; advertise must keep some to withdraw
///   its records);
/// - `waitingPerAddress`: connections of one address that have not logged in (silent TCP, an
///   HTTP request, a WebSocket before hello-ok); past it a new one takes the place of the
///   address's oldest waiting one, so that one address cannot fill `connections`. Above
///   `unauthenticatedPerAddress`, so that the Gateway's 503 is still what a client sees first.
package struct StandInLimits: Sendable, Hashable {
    package var handshake: Duration
    package var unauthenticatedPerAddress: Int
    package var connections: Int
    package var waitingPerAddress: Int

    package init(
        handshake: Duration = .seconds(15), unauthenticatedPerAddress: Int = 32, connections: Int = StandInLimits.defaultConnections,
        waitingPerAddress: Int = 64
    ) {
        self.handshake = handshake
        self.unauthenticatedPerAddress = unauthenticatedPerAddress
        self.connections = connections
        self.waitingPerAddress = max(1, waitingPerAddress)
    }

    /// Descriptors left to everything but the stand-in's connections (Avahi, D-Bus, DNS UPDATE, files).
    static let spareDescriptors = 64

    /// Half the process's descriptor limit, less the spare ones, at most 4096.
    package static var defaultConnections: Int {
        let limit = DescriptorLimit.soft
        return max(8, min(4096, limit / 2 - spareDescriptors))
    }
}
