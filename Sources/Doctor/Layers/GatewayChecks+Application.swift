import FoundationEssentials
import Probes

/// gw.http, gw.websocket and gw.protocol: what answers on the Gateway's port, and whether it
/// opens a WebSocket with connect.challenge.
extension GatewayChecks {
    static func http(_ http: HTTPEvidence?) -> Check {
        guard let http else { return Check(.gwHTTP, .skip, .notRun) }
        let reason: CheckReason
        switch http.health.outcome {
        case .response(200, let body, _, _):
            if !HealthBody.isGateway(body) {
                reason = .notGatewayHealth
            } else if case .response(let status, _, _, _)? = http.ready?.outcome, status != 200 {
                reason = .notReady
            } else {
                reason = .ok
            }
        case .response: reason = .unhealthy
        case .failed: reason = .healthFailed
        case .wantsTLS: reason = .wantsTLS
        case .timedOut: reason = .healthTimedOut
        }
        let status: Check.Status = reason == .ok ? .pass : reason == .notReady ? .warn : .fail
        return Check(.gwHTTP, status, reason, elapsed: http.health.elapsed, evidence: .http(http))
    }

    static func webSocket(_ webSocket: WebSocketEvidence?) -> Check {
        guard let webSocket else { return Check(.gwWebSocket, .skip, .notRun) }
        var reason: CheckReason
        switch webSocket.phase.outcome {
        case _ where webSocket.upgraded: reason = .ok
        case .upgradeRefused(let rejection): reason = refused(rejection)
        case .wantsTLS: reason = .wantsTLS
        case .timedOut: reason = .upgradeTimedOut
        case .failed: reason = .webSocketFailed
        case .upgradeFailed, .opened, .frameTooLarge, .closedBeforeFirstFrame, .framesBroken: reason = .upgradeFailed
        }
        if reason == .ok, case .closed(let after)? = webSocket.idle?.outcome, after < webSocket.tickInterval { reason = .closedWhenIdle }
        let status: Check.Status = reason == .ok ? .pass : reason == .upgradeUnavailable ? .warn : .fail
        return Check(.gwWebSocket, status, reason, elapsed: webSocket.phase.elapsed, evidence: .webSocket(webSocket))
    }

    /// What a refused upgrade says (`UpgradeRejection.kind`); a 503 in the Gateway's words is a
    /// warning while it restarts or drains, and a failure when this address holds too many
    /// connections that have not logged in (unauthenticatedLimit: it does not pass by itself).
    static func refused(_ rejection: UpgradeRejection) -> CheckReason {
        switch rejection.kind {
        case .proxyAttribution: .proxyAttributionRequired
        case .identityProxy: .identityProxy
        case .rateLimited: .upgradeRateLimited
        case .unavailable(.tooManyUnauthenticated): .unauthenticatedLimit
        case .unavailable: .upgradeUnavailable
        case .other: .upgradeRefused
        }
    }

    /// Judged after an upgrade only: the table skips it otherwise.
    static func firstFrame(_ webSocket: WebSocketEvidence?) -> Check {
        guard let webSocket, webSocket.upgraded else { return Check(.gwProtocol, .skip, .needsWebSocket) }
        let reason: CheckReason
        switch webSocket.phase.outcome {
        case .opened(let frame, _):
            if case .challenge = frame.content { reason = .ok } else { reason = .unexpectedFirstFrame }
        case .frameTooLarge: reason = .frameTooLarge
        case .closedBeforeFirstFrame: reason = .closedBeforeFirstFrame
        case .framesBroken: reason = .framesBroken
        case .timedOut, .upgradeRefused, .upgradeFailed, .wantsTLS, .failed: reason = .firstFrameTimedOut
        }
        return Check(.gwProtocol, reason == .ok ? .pass : .fail, reason, elapsed: webSocket.phase.elapsed, evidence: .webSocket(webSocket))
    }
}

/// The Gateway's health body, `{"ok":true,"status":"live"}` (src/gateway/server-http.ts):
/// anything else on /healthz is another program.
enum HealthBody {
    static func isGateway(_ body: String) -> Bool {
        struct Health: Decodable { let ok: Bool? }
        guard let data = body.data(using: .utf8), let health = try? JSONDecoder().decode(Health.self, from: data) else { return false }
        return health.ok == true
    }
}
