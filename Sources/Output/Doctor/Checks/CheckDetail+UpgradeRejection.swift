import Doctor
import Probes

/// gw.websocket's detail for a refused upgrade, in the names OpenClaw's clients give the same
/// facts on their connect error (details.reason "websocket-upgrade-rejected", httpStatus,
/// location, gatewayErrorType: packages/gateway-client/src/client.handshake.test.ts), and how
/// often a restarting Gateway answered 503 first.
extension CheckDetail {
    static func upgradeRejection(_ evidence: WebSocketEvidence) -> [String: String] {
        var detail: [String: String] = [:]
        if !evidence.refusals.isEmpty { detail["unavailableBefore"] = String(evidence.refusals.count) }
        guard let rejection = evidence.phase.outcome.rejection else { return detail }
        detail["reason"] = "websocket-upgrade-rejected"
        detail["httpStatus"] = String(rejection.status)
        detail["location"] = rejection.location
        detail["gatewayErrorType"] = rejection.errorType.map { String($0.prefix(80)) }
        switch rejection.retryAfter {
        case .seconds(let seconds)?: detail["retryAfterSeconds"] = String(seconds)
        case .date(let date)?: detail["retryAfter"] = CheckText.iso(date)
        case nil: break
        }
        return detail
    }
}
