import Probes

/// The causes OpenClaw 2 (2026.8, 2026.9) added at the connect level, each its own: a running
/// Gateway draining (restart-unavailable.ts) or closing 1012/1013; the auth rate limit; a
/// frame over 64 KiB before login (close 1009); the operator's pairing decision; operator
/// access policies; and, at the upgrade, the per-address limit on connections that have not
/// logged in (src/gateway/server/preauth-connection-budget.ts).
extension DiagnosisRules {
    static let openClaw2: [DiagnosisRule] = [
        gatewayRestarting, authRateLimited, frameTooLarge, pairingRejected, pairingExpired, operatorAccessDenied,
        verifiedUserRequired, unauthenticatedLimit,
    ]

    static let gatewayRestarting = warning(.gatewayRestarting, .gwConnect, [.gatewayRestarting])
    static let authRateLimited = failure(.authRateLimited, .gwConnect, [.rateLimited])
    static let frameTooLarge = failure(.frameTooLarge, .gwConnect, [.frameTooLargeBeforeLogin])
    static let pairingRejected = failure(.pairingRejected, .gwConnect, [.pairingRejected])
    static let pairingExpired = failure(.pairingExpired, .gwConnect, [.pairingExpired])
    static let operatorAccessDenied = failure(.operatorAccessDenied, .gwConnect, [.operatorAccessDenied])
    static let verifiedUserRequired = failure(.verifiedUserRequired, .gwConnect, [.verifiedUserRequired])
    static let unauthenticatedLimit = failure(
        .unauthenticatedLimit, .gwWebSocket, [.unauthenticatedLimit], also: [.gwProtocol, .gwConnect])
}
