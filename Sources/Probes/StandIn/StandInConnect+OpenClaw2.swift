import DNSSD
import FoundationEssentials

/// The answers OpenClaw 2 (2026.8, 2026.9) added at the connect level, for the outcomes that
/// rehearse them: a Gateway draining (restart-unavailable.ts) or closing 1012/1009, the auth
/// rate limit and the Tailscale and trusted-proxy refusals (auth-messages.ts,
/// connect-error-details.ts), the operator's pairing decision (docs/gateway/protocol/auth.md),
/// operator access policies.
extension StandInConnect {
    /// The refused credential, as the Gateway's auth names it (`authReason`).
    enum AuthFailure: String, Sendable, CaseIterable {
        case tokenMissing = "token_missing"
        case tokenMismatch = "token_mismatch"
        case rateLimited = "rate_limited"
        case tailscaleUserMissing = "tailscale_user_missing"
        case tailscaleProxyMissing = "tailscale_proxy_missing"
        case tailscaleWhoisFailed = "tailscale_whois_failed"
        case tailscaleUserMismatch = "tailscale_user_mismatch"
        case trustedProxyMissingHeader = "trusted_proxy_missing_header_x-forwarded-user"

        var reason: String { rawValue }

        var detailCode: ConnectError.DetailCode {
            switch self {
            case .tokenMissing: .authTokenMissing
            case .tokenMismatch: .authTokenMismatch
            case .rateLimited: .authRateLimited
            case .tailscaleUserMissing: .tailscaleIdentityMissing
            case .tailscaleProxyMissing: .tailscaleProxyMissing
            case .tailscaleWhoisFailed: .tailscaleWhoisFailed
            case .tailscaleUserMismatch: .tailscaleIdentityMismatch
            case .trustedProxyMissingHeader: .identityHeaderRequired
            }
        }

        /// resolveUnauthorizedHandshakeContext's step for the reason.
        var nextStep: ConnectError.NextStep {
            switch self {
            case .tokenMissing: .updateAuthConfiguration
            case .tokenMismatch: .updateAuthCredentials
            case .rateLimited: .waitThenRetry
            default: .reviewAuthConfiguration
            }
        }

        func message(tokenHint: String) -> String {
            let serve = "use Tailscale Serve auth or gateway token/password"
            return switch self {
            case .tokenMissing: "unauthorized: gateway token missing (\(tokenHint))"
            case .tokenMismatch: "unauthorized: gateway token mismatch (\(tokenHint))"
            case .rateLimited: "unauthorized: too many failed authentication attempts (retry later)"
            case .tailscaleUserMissing: "unauthorized: tailscale identity missing (\(serve))"
            case .tailscaleProxyMissing: "unauthorized: tailscale proxy headers missing (use Tailscale Serve or gateway token/password)"
            case .tailscaleWhoisFailed: "unauthorized: tailscale identity check failed (\(serve))"
            case .tailscaleUserMismatch: "unauthorized: tailscale identity mismatch (\(serve))"
            case .trustedProxyMissingHeader: "unauthorized"
            }
        }
    }

    /// GATEWAY_RESTART_UNAVAILABLE_REASON's lockout for `rate-limited`: the limiter's 5 minutes.
    static let rateLimitedWaitMs: Int64 = StandInRateLimit.lockoutMs

    /// The answer of an OpenClaw 2 outcome, or nil for the others.
    func openClaw2Reply(_ id: String, _ params: Params) -> Reply? {
        let client = params.client ?? Client(id: nil, mode: nil, version: nil, platform: nil, deviceFamily: nil)
        let device = params.device != nil
        switch outcome {
        case .restarting: return draining(id, .restarting)
        case .suspending: return draining(id, .suspending)
        case .closing: return draining(id, .closing)
        case .close1012: return Reply(frames: [], close: (1012, "service restart"))
        case .close1009: return Reply(frames: [], close: (1009, "Max payload size exceeded"))
        case .rateLimited:
            return unauthorized(id, client, .rateLimited, hasDevice: device, tokenGiven: true, retryAfterMs: Self.rateLimitedWaitMs)
        case .pairingRejected: return pairingDecision(id, params, .rejected)
        case .pairingExpired: return pairingDecision(id, params, .expired)
        case .operatorAccessDenied:
            return error(
                id, .notPaired, "operator access denied (no role grants this user access)",
                details: ["code": .detailCode(.operatorAccessDenied)], close: 1008)
        case .verifiedUserRequired:
            return error(
                id, .notPaired,
                "operator role policies require a verified user identity for this authentication method; reconnect through the "
                    + "trusted proxy or Tailscale, or use the shared gateway token/password",
                details: ["code": .detailCode(.verifiedUserRequired)], close: 1008)
        case .tailscaleIdentityMissing: return unauthorized(id, client, .tailscaleUserMissing, hasDevice: device, tokenGiven: false)
        case .tailscaleProxyMissing: return unauthorized(id, client, .tailscaleProxyMissing, hasDevice: device, tokenGiven: false)
        case .tailscaleWhoisFailed: return unauthorized(id, client, .tailscaleWhoisFailed, hasDevice: device, tokenGiven: false)
        case .tailscaleIdentityMismatch: return unauthorized(id, client, .tailscaleUserMismatch, hasDevice: device, tokenGiven: false)
        case .identityHeaderRequired: return unauthorized(id, client, .trustedProxyMissingHeader, hasDevice: device, tokenGiven: false)
        default: return nil
        }
    }

    /// UNAVAILABLE with the drain's reason, retry after a second, then close 1012.
    func draining(_ id: String, _ drain: GatewayPause.Drain) -> Reply {
        let state = drain.rawValue.dropFirst("gateway-".count)
        var reply = error(
            id, .unavailable, "gateway \(state); retry shortly", details: ["reason": .text(drain.rawValue)], close: 1012,
            extra: ["retryable": .bool(true), "retryAfterMs": .number(1000)])
        reply.close = (1012, "service restart")
        return reply
    }

    /// A 2026.9 Gateway keeps the pairing refusal open (waitForResolution), announces the
    /// operator's decision as device.pair.resolved, then closes 4008; an older one only refuses.
    func pairingDecision(_ id: String, _ params: Params, _ decision: PairingResolution) -> Reply {
        guard release.announcesPairingDecisions else { return pairingRequired(id, params, reason: .notPaired) }
        var reply = pairingRequired(id, params, reason: .notPaired, waiting: true)
        let requestId = pairings.requestId(for: params.device?.id ?? "")
        var payload: [String: JSONText] = [
            "requestId": .text(requestId), "decision": .text(decision.word), "ts": .number(Int(Date().timeIntervalSince1970 * 1000)),
        ]
        if let deviceId = params.device?.id { payload["deviceId"] = .text(deviceId) }
        let event: [String: JSONText] = ["type": .text("event"), "event": .text("device.pair.resolved"), "payload": .object(payload)]
        reply.frames.append(JSONText.object(event).encoded)
        reply.close = (4008, "pairing \(decision.word)")
        return reply
    }
}
