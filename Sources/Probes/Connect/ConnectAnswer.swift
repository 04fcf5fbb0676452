import DNSSD
import FoundationEssentials

/// Reads the Gateway's answer to connect, and the pairing decision a 2026.9 Gateway announces
/// on a socket it keeps open for it.
enum ConnectAnswer {
    /// The frame is the response to `requestId`: hello-ok or an error. nil when it is another
    /// frame (an event the Gateway sent first).
    static func read(_ text: String, requestId: String) -> ConnectOutcome? {
        guard let data = text.data(using: .utf8), let frame = try? JSONDecoder().decode(Response.self, from: data) else {
            return .unexpected(String(text.prefix(120)))
        }
        guard frame.type == "res" else { return nil }
        guard frame.id == requestId else { return .unexpected(String(text.prefix(120))) }
        if frame.ok == true {
            guard let payload = frame.payload, payload.type == "hello-ok" else { return .unexpected(String(text.prefix(120))) }
            return .helloOk(
                HelloOk(
                    protocolVersion: payload.protocol, serverVersion: payload.server?.version, role: payload.auth?.role,
                    scopes: payload.auth?.scopes ?? [], tickIntervalMs: payload.policy?.tickIntervalMs))
        }
        guard let error = frame.error else { return .unexpected(String(text.prefix(120))) }
        return .rejected(rejection(error), close: nil)
    }

    private static func rejection(_ error: Response.Failure) -> ConnectError {
        let details = error.details
        var rejection = ConnectError(
            code: error.code ?? "?", message: error.message ?? "", detailCode: details?.code, requestId: details?.requestId,
            reason: details?.reason, recommendedNextStep: details?.recommendedNextStep,
            canRetryWithDeviceToken: details?.canRetryWithDeviceToken, expectedProtocol: details?.expectedProtocol,
            clientMinProtocol: details?.clientMinProtocol, clientMaxProtocol: details?.clientMaxProtocol,
            retryAfterMs: error.retryAfterMs ?? details?.retryAfterMs)
        rejection.authReason = details?.authReason.map { String($0.prefix(ConnectError.authReasonLimit)) }
        rejection.retryable = error.retryable ?? details?.retryable
        rejection.minimumProbeProtocol = details?.minimumProbeProtocol
        // readControlUiBuildMismatchId: a build id longer than 96 characters is no build id.
        rejection.gatewayBuildId = details?.gatewayBuildId.flatMap { $0.count <= ConnectError.buildIdLimit ? $0 : nil }
        rejection.reloadRequired = details?.reloadRequired
        rejection.remediationHint = details?.remediationHint.map { String($0.prefix(ConnectError.hintLimit)) }
        if rejection.detailCode == .pairingRequired, let details {
            var pairing = PairingDetails(
                deviceId: details.deviceId, requestedRole: details.requestedRole, requestedScopes: details.requestedScopes ?? [],
                approvedRoles: details.approvedRoles ?? [], approvedScopes: details.approvedScopes ?? [])
            pairing.waitForResolution = details.waitForResolution
            rejection.pairing = pairing
        }
        return rejection
    }

    /// A `device.pair.resolved` event for the request `requestId` (docs/gateway/protocol/auth.md:
    /// sent to a client the Gateway keeps waiting, then the socket closes); nil for another frame.
    static func resolution(_ text: String, requestId: String) -> PairingResolution? {
        struct Event: Decodable {
            struct Payload: Decodable {
                let requestId: String?
                let decision: String?
            }
            let type: String?
            let event: String?
            let payload: Payload?
        }
        guard let event = try? JSONDecoder().decode(Event.self, from: Data(text.utf8)), event.type == "event",
            event.event == "device.pair.resolved", event.payload?.requestId == requestId, let decision = event.payload?.decision
        else { return nil }
        return PairingResolution(word: String(decision.prefix(40)))
    }

    // ResponseFrameSchema and HelloOkSchema (packages/gateway-protocol/src/schema/frames.ts);
    // unknown fields are ignored, fields of another type make the frame unreadable.
    private struct Response: Decodable {
        struct Payload: Decodable {
            struct Server: Decodable { let version: String? }
            struct Auth: Decodable {
                let role: String?
                let scopes: [String]?
            }
            struct Policy: Decodable {
                let tickIntervalMs: Int?

                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: Key.self)
                    tickIntervalMs = try? container.decodeIfPresent(Int.self, forKey: .tickIntervalMs)
                }
                private enum Key: String, CodingKey { case tickIntervalMs }
            }
            let type: String?
            let `protocol`: Int?
            let server: Server?
            let auth: Auth?
            let policy: Policy?
        }
        struct Failure: Decodable {
            let code: String?
            let message: String?
            let details: Details?
            let retryAfterMs: Int?
            let retryable: Bool?

            private enum Key: String, CodingKey { case code, message, details, retryAfterMs, retryable }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Key.self)
                code = try container.decodeIfPresent(String.self, forKey: .code)
                message = try container.decodeIfPresent(String.self, forKey: .message)
                details = try? container.decodeIfPresent(Details.self, forKey: .details)
                retryAfterMs = try? container.decodeIfPresent(Int.self, forKey: .retryAfterMs)
                retryable = try? container.decodeIfPresent(Bool.self, forKey: .retryable)
            }
        }
        let type: String?
        let id: String?
        let ok: Bool?
        let payload: Payload?
        let error: Failure?
    }

    /// `details` is `unknown` in the schema: each field is read when it has the expected type
    /// and ignored otherwise.
    private struct Details: Decodable {
        let code, requestId, reason, recommendedNextStep, authReason, deviceId, requestedRole: String?
        let gatewayBuildId, remediationHint: String?
        let canRetryWithDeviceToken, reloadRequired, waitForResolution, retryable: Bool?
        let expectedProtocol, clientMinProtocol, clientMaxProtocol, minimumProbeProtocol, retryAfterMs: Int?
        let requestedScopes, approvedRoles, approvedScopes: [String]?

        private enum Key: String, CodingKey {
            case code, requestId, reason, recommendedNextStep, canRetryWithDeviceToken, expectedProtocol
            case clientMinProtocol, clientMaxProtocol, deviceId, requestedRole, requestedScopes, approvedRoles, approvedScopes
            case authReason, minimumProbeProtocol, gatewayBuildId, reloadRequired, remediationHint, waitForResolution, retryable
            case retryAfterMs
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            func text(_ key: Key) -> String? { try? container.decodeIfPresent(String.self, forKey: key) }
            func flag(_ key: Key) -> Bool? { try? container.decodeIfPresent(Bool.self, forKey: key) }
            func number(_ key: Key) -> Int? { try? container.decodeIfPresent(Int.self, forKey: key) }
            func list(_ key: Key) -> [String]? { try? container.decodeIfPresent([String].self, forKey: key) }
            (code, requestId, reason, recommendedNextStep) = (text(.code), text(.requestId), text(.reason), text(.recommendedNextStep))
            (authReason, deviceId, requestedRole) = (text(.authReason), text(.deviceId), text(.requestedRole))
            (gatewayBuildId, remediationHint) = (text(.gatewayBuildId), text(.remediationHint))
            (canRetryWithDeviceToken, reloadRequired) = (flag(.canRetryWithDeviceToken), flag(.reloadRequired))
            (waitForResolution, retryable) = (flag(.waitForResolution), flag(.retryable))
            (expectedProtocol, clientMinProtocol, clientMaxProtocol) = (
                number(.expectedProtocol), number(.clientMinProtocol), number(.clientMaxProtocol)
            )
            (minimumProbeProtocol, retryAfterMs) = (number(.minimumProbeProtocol), number(.retryAfterMs))
            (requestedScopes, approvedRoles, approvedScopes) = (list(.requestedScopes), list(.approvedRoles), list(.approvedScopes))
        }
    }
}

/// `device.pair.resolved`'s decision (docs/gateway/protocol/auth.md: approved, rejected,
/// expired or superseded).
package enum PairingResolution: KnownWord {
    case approved, rejected, expired, superseded
    case other(String)

    package static let spellings: [(PairingResolution, String)] = [
        (.approved, "approved"), (.rejected, "rejected"), (.expired, "expired"), (.superseded, "superseded"),
    ]

    package var unknownWord: String? {
        if case .other(let word) = self { return word }
        return nil
    }
}
