import DNSSD
import FoundationEssentials

/// The stand-in's answers, each shaped as OpenClaw's server shapes it: hello-ok (HelloOkSchema),
/// and ErrorShapes with the details of packages/gateway-protocol/src/connect-error-details.ts
/// and startup-unavailable.ts, followed by the close the Gateway sends.
extension StandInConnect {
    func helloOk(_ id: String, role: String, scopes: [String], version: Int = protocolVersion) -> Reply {
        let policy: [String: JSONText] = [
            "maxPayload": .number(25 << 20), "maxBufferedBytes": .number(50 << 20),
            "tickIntervalMs": .number(Int(tickInterval.milliseconds)),
        ]
        let payload: [String: JSONText] = [
            "type": .text("hello-ok"), "protocol": .number(version),
            "server": .object(["version": .text(serverVersion(version)), "connId": .text(UUID().uuidString.lowercased())]),
            "features": .object([
                "methods": .array(StandInMethods.answered.map(JSONText.text)), "events": .array([.text("tick")]),
            ]),
            "snapshot": .object([:]),
            "auth": .object(["role": .text(role), "scopes": .array(scopes.map(JSONText.text))]),
            "policy": .object(policy),
        ]
        let frame: [String: JSONText] = ["type": .text("res"), "id": .text(id), "ok": .bool(true), "payload": .object(payload)]
        return Reply(frames: [JSONText.object(frame).encoded], close: nil)
    }

    /// The version the stand-in reports in hello-ok: which protocol and release it plays.
    func serverVersion(_ version: Int) -> String {
        let played = release == .current ? "" : " as \(release.rawValue)"
        return version == Self.protocolVersion ? "clawnet-stand-in\(played)" : "clawnet-stand-in (protocol \(version))\(played)"
    }

    func deviceRequired(_ id: String) -> Reply {
        error(id, .notPaired, "device identity required", details: ["code": .detailCode(.deviceIdentityRequired)], close: 1008)
    }

    /// formatGatewayAuthFailureMessage (auth-messages.ts), resolveUnauthorizedHandshakeContext
    /// (handshake-auth-helpers.ts) and resolveAuthConnectErrorDetailCode (connect-error-details.ts).
    func unauthorized(
        _ id: String, _ client: Client, _ failure: AuthFailure, hasDevice: Bool, tokenGiven: Bool, retryAfterMs: Int64? = nil
    ) -> Reply {
        let hint = client.id == "cli" ? "set gateway.remote.token to match gateway.auth.token" : "provide gateway auth token"
        let message = failure.message(tokenHint: hint)
        let canRetry = failure == .tokenMismatch && hasDevice && tokenGiven
        let next: ConnectError.NextStep = canRetry ? .retryWithDeviceToken : failure.nextStep
        var extra: [String: JSONText] = [:]
        if let retryAfterMs { extra = ["retryable": .bool(true), "retryAfterMs": .number(Int(retryAfterMs))] }
        return error(
            id, .invalidRequest, message,
            details: [
                "code": .detailCode(failure.detailCode), "authReason": .text(failure.reason),
                "canRetryWithDeviceToken": .bool(canRetry), "recommendedNextStep": .text(next.word),
            ],
            close: 1008, extra: extra)
    }

    /// requirePairing in connect-device-pairing.ts: one pending request per device (kept while
    /// the device asks the same), its details, and a close reason that carries its id
    /// (buildPairingConnectCloseReason).
    func pairingRequired(_ id: String, _ params: Params, reason: ConnectError.PairingReason, waiting: Bool = false) -> Reply {
        let requestId = pairings.requestId(for: params.device?.id ?? "")
        let (requirement, hint) = Self.pairingWords(reason)
        var details: [String: JSONText] = [
            "code": .detailCode(.pairingRequired), "reason": .text(reason.word), "requestId": .text(requestId),
            "remediationHint": .text(hint), "requestedRole": .text(params.role ?? "operator"),
            "requestedScopes": .array((params.scopes ?? []).map(JSONText.text)),
        ]
        if let deviceId = params.device?.id { details["deviceId"] = .text(deviceId) }
        if waiting { details["waitForResolution"] = .bool(true) }
        // A known device: what it is approved for (exposeApprovedAccess).
        switch reason {
        case .roleUpgrade: details["approvedRoles"] = .array([.text("operator")])
        case .scopeUpgrade, .metadataUpgrade:
            details["approvedRoles"] = .array([.text(params.role ?? "operator")])
            details["approvedScopes"] = .array([.text("operator.read")])
        case .notPaired, .other: break
        }
        let message = "pairing required: \(requirement)"
        var reply = error(id, .notPaired, message, details: details, close: 1008)
        reply.close = (1008, "\(message) (requestId: \(requestId))")
        return reply
    }

    /// PAIRING_CONNECT_REASON_METADATA: the requirement and the remediation hint of each reason.
    static func pairingWords(_ reason: ConnectError.PairingReason) -> (requirement: String, hint: String) {
        switch reason {
        case .roleUpgrade:
            (
                "device is asking for a higher role than currently approved",
                "Review the requested role upgrade, then approve the pending request."
            )
        case .scopeUpgrade:
            ("device is asking for more scopes than currently approved", "Review the requested scopes, then approve the pending upgrade.")
        case .metadataUpgrade:
            ("device identity changed and must be re-approved", "Review the refreshed device details, then approve the pending request.")
        case .notPaired, .other: ("device is not approved yet", "Approve this device from the pending pairing requests.")
        }
    }

    /// A published v3 Gateway (src/gateway/server/ws-connection/message-handler.ts of its
    /// release) sends `expectedProtocol` only, with no details.code, and closes 1002.
    func publishedMismatch(_ id: String, expected: Int) -> Reply {
        error(id, .invalidRequest, "protocol mismatch", details: ["expectedProtocol": .number(expected)], close: 1002)
    }

    /// admitGatewayConnect: a v4 Gateway names both ranges (PROTOCOL_MISMATCH), its probe floor,
    /// and its build (gatewayBuildId; reloadRequired for the Control UI, which must reload).
    func protocolMismatch(_ id: String, _ params: Params, expected: Int, minimumProbe: Int) -> Reply {
        var details: [String: JSONText] = [
            "code": .detailCode(.protocolMismatch), "clientMinProtocol": .number(params.minProtocol ?? 0),
            "clientMaxProtocol": .number(params.maxProtocol ?? 0), "expectedProtocol": .number(expected),
            "minimumProbeProtocol": .number(minimumProbe), "gatewayBuildId": .text(buildId),
        ]
        if params.client?.id == "openclaw-control-ui" { details["reloadRequired"] = .bool(true) }
        return error(id, .invalidRequest, "protocol mismatch", details: details, close: 1002)
    }

    /// The build the stand-in names (details.gatewayBuildId).
    var buildId: String { "clawnet-stand-in-\(release.rawValue)" }

    /// rejectGatewayStartupConnect: UNAVAILABLE, retryable, retryAfterMs, details.reason, close 1013.
    func starting(_ id: String) -> Reply {
        var reply = error(
            id, .unavailable, "gateway starting; retry shortly", details: ["reason": .text("startup-sidecars")], close: 1013,
            extra: ["retryable": .bool(true), "retryAfterMs": .number(500)])
        reply.close = (1013, "gateway starting")
        return reply
    }

    /// A response with an ErrorShape, then a close whose reason is the message
    /// (truncateCloseReason keeps 123 bytes).
    func error(
        _ id: String, _ code: ConnectError.Code, _ message: String, details: [String: JSONText]?, close: UInt16,
        extra: [String: JSONText] = [:]
    ) -> Reply {
        var shape: [String: JSONText] = ["code": .text(code.word), "message": .text(message)]
        if let details { shape["details"] = .object(details) }
        shape.merge(extra) { $1 }
        let frame: [String: JSONText] = ["type": .text("res"), "id": .text(id), "ok": .bool(false), "error": .object(shape)]
        return Reply(
            frames: [JSONText.object(frame).encoded], close: (close, String(decoding: Array(message.utf8.prefix(123)), as: UTF8.self)))
    }
}
