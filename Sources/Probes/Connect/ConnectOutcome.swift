import DNSSD
import FoundationEssentials

/// A WebSocket close frame: its code and reason (UTF-8, at most 123 bytes by RFC 6455).
public struct CloseFrame: Sendable, Hashable {
    public let code: UInt16?
    public let reason: String

    public init(code: UInt16?, reason: String) {
        self.code = code
        self.reason = reason
    }
}

/// The Gateway's hello-ok, as much of it as a diagnosis needs.
public struct HelloOk: Sendable, Hashable {
    public let protocolVersion: Int?
    public let serverVersion: String?
    public let role: String?
    public let scopes: [String]
}

/// An error response to connect: OpenClaw's ErrorShape (`code`, `message`, `details`,
/// `retryable`, `retryAfterMs`) with the details fields that the Gateway's handshake sets
/// (packages/gateway-protocol/src/connect-error-details.ts). The codes are read once, here,
/// into typed cases; checks decide on them, never on `message`.
public struct ConnectError: Sendable, Hashable {
    /// NOT_PAIRED, INVALID_REQUEST, UNAVAILABLE, ...
    public let code: Code
    public let message: String
    /// `details.code`: PAIRING_REQUIRED, AUTH_TOKEN_MISMATCH, DEVICE_IDENTITY_REQUIRED,
    /// PROTOCOL_MISMATCH, ...
    public let detailCode: DetailCode?
    /// `details.requestId` of a pairing request.
    public let requestId: String?
    /// `details.reason` (not-paired, role-upgrade, ...; `startup-sidecars` while starting).
    public let reason: String?
    /// `details.recommendedNextStep`: update_auth_credentials, update_auth_configuration, ...
    public let recommendedNextStep: NextStep?
    public let canRetryWithDeviceToken: Bool?
    /// `details.expectedProtocol`, and the client's range as the Gateway read it.
    public let expectedProtocol: Int?
    public let clientMinProtocol: Int?
    public let clientMaxProtocol: Int?
    public let retryAfterMs: Int?
    /// `details.authReason`: why the credentials were refused, in the Gateway's own words
    /// (token_mismatch, trusted_proxy_untrusted_source, tailscale_proxy_missing, ...).
    public internal(set) var authReason: String?
    /// OpenClaw's reasons are a few words (`trusted_proxy_missing_header_<name>` the longest);
    /// past this a Gateway sends something else, kept only this long.
    static let authReasonLimit = 96
    /// The ErrorShape's `retryable`.
    public var retryable: Bool?
    /// What a pairing refusal says about the device (nil on other errors).
    public var pairing: PairingDetails?

    /// A protocol mismatch: details.code PROTOCOL_MISMATCH, or, from a Gateway that sends no
    /// details.code, INVALID_REQUEST with the message OpenClaw's server gives it
    /// (admitGatewayConnect in src/gateway/server/ws-connection/connect-admission.ts). The one
    /// comparison of a message, kept here; `detailCode` stays what the Gateway sent.
    public var isProtocolMismatch: Bool {
        detailCode == .protocolMismatch || (detailCode == nil && code == .invalidRequest && message == "protocol mismatch")
    }

    /// Reads the wire words into typed codes.
    public init(
        code: String, message: String, detailCode: String?, requestId: String?, reason: String?, recommendedNextStep: String?,
        canRetryWithDeviceToken: Bool?, expectedProtocol: Int?, clientMinProtocol: Int?, clientMaxProtocol: Int?, retryAfterMs: Int?
    ) {
        self.code = Code(word: code)
        self.message = message
        self.detailCode = detailCode.map(DetailCode.init(word:))
        self.requestId = requestId
        self.reason = reason
        self.recommendedNextStep = recommendedNextStep.map(NextStep.init(word:))
        self.canRetryWithDeviceToken = canRetryWithDeviceToken
        self.expectedProtocol = expectedProtocol
        self.clientMinProtocol = clientMinProtocol
        self.clientMaxProtocol = clientMaxProtocol
        self.retryAfterMs = retryAfterMs
    }

    /// `details.reason` of a PAIRING_REQUIRED refusal, read into its case.
    public var pairingReason: PairingReason? {
        guard detailCode == .pairingRequired else { return nil }
        return reason.map(PairingReason.init(word:)) ?? .notPaired
    }
}

/// The details of a PAIRING_REQUIRED refusal that say which device asked for what, and what
/// the Gateway approved it for (buildPairingConnectErrorDetails in
/// packages/gateway-protocol/src/connect-error-details.ts).
public struct PairingDetails: Sendable, Hashable {
    public var deviceId: String?
    public var requestedRole: String?
    public var requestedScopes: [String]
    public var approvedRoles: [String]
    public var approvedScopes: [String]

    public init(
        deviceId: String? = nil, requestedRole: String? = nil, requestedScopes: [String] = [], approvedRoles: [String] = [],
        approvedScopes: [String] = []
    ) {
        self.deviceId = deviceId
        self.requestedRole = requestedRole
        self.requestedScopes = requestedScopes
        self.approvedRoles = approvedRoles
        self.approvedScopes = approvedScopes
    }
}

/// How a Gateway answered doctor's connect request.
public enum ConnectOutcome: Sendable, Hashable {
    case helloOk(HelloOk)
    /// An error response, and the close that followed it (when it came in time).
    case rejected(ConnectError, close: CloseFrame?)
    /// The Gateway closed the WebSocket without answering.
    case closed(CloseFrame)
    /// Something that is not a response to the request (its first bytes).
    case unexpected(String)
    case timedOut
    case failed(String)
}

/// Reads the Gateway's answer to connect.
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
                    scopes: payload.auth?.scopes ?? []))
        }
        guard let error = frame.error else { return .unexpected(String(text.prefix(120))) }
        let details = error.details
        var rejection = ConnectError(
            code: error.code ?? "?", message: error.message ?? "", detailCode: details?.code, requestId: details?.requestId,
            reason: details?.reason, recommendedNextStep: details?.recommendedNextStep,
            canRetryWithDeviceToken: details?.canRetryWithDeviceToken, expectedProtocol: details?.expectedProtocol,
            clientMinProtocol: details?.clientMinProtocol, clientMaxProtocol: details?.clientMaxProtocol,
            retryAfterMs: error.retryAfterMs)
        rejection.authReason = details?.authReason.map { String($0.prefix(ConnectError.authReasonLimit)) }
        rejection.retryable = error.retryable
        if rejection.detailCode == .pairingRequired, let details {
            rejection.pairing = PairingDetails(
                deviceId: details.deviceId, requestedRole: details.requestedRole, requestedScopes: details.requestedScopes ?? [],
                approvedRoles: details.approvedRoles ?? [], approvedScopes: details.approvedScopes ?? [])
        }
        return .rejected(rejection, close: nil)
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
            let type: String?
            let `protocol`: Int?
            let server: Server?
            let auth: Auth?
        }
        struct Failure: Decodable {
            /// `details` is `unknown` in the schema: each field is read when it has the expected
            /// type and ignored otherwise.
            struct Details: Decodable {
                let code: String?
                let requestId: String?
                let reason: String?
                let recommendedNextStep: String?
                let canRetryWithDeviceToken: Bool?
                let expectedProtocol: Int?
                let clientMinProtocol: Int?
                let clientMaxProtocol: Int?
                let authReason: String?
                let deviceId: String?
                let requestedRole: String?
                let requestedScopes: [String]?
                let approvedRoles: [String]?
                let approvedScopes: [String]?

                private enum Key: String, CodingKey {
                    case code, requestId, reason, recommendedNextStep, canRetryWithDeviceToken, expectedProtocol
                    case clientMinProtocol, clientMaxProtocol, deviceId, requestedRole, requestedScopes, approvedRoles, approvedScopes
                    case authReason
                }

                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: Key.self)
                    code = try? container.decodeIfPresent(String.self, forKey: .code)
                    requestId = try? container.decodeIfPresent(String.self, forKey: .requestId)
                    reason = try? container.decodeIfPresent(String.self, forKey: .reason)
                    recommendedNextStep = try? container.decodeIfPresent(String.self, forKey: .recommendedNextStep)
                    canRetryWithDeviceToken = try? container.decodeIfPresent(Bool.self, forKey: .canRetryWithDeviceToken)
                    expectedProtocol = try? container.decodeIfPresent(Int.self, forKey: .expectedProtocol)
                    clientMinProtocol = try? container.decodeIfPresent(Int.self, forKey: .clientMinProtocol)
                    clientMaxProtocol = try? container.decodeIfPresent(Int.self, forKey: .clientMaxProtocol)
                    authReason = try? container.decodeIfPresent(String.self, forKey: .authReason)
                    deviceId = try? container.decodeIfPresent(String.self, forKey: .deviceId)
                    requestedRole = try? container.decodeIfPresent(String.self, forKey: .requestedRole)
                    requestedScopes = try? container.decodeIfPresent([String].self, forKey: .requestedScopes)
                    approvedRoles = try? container.decodeIfPresent([String].self, forKey: .approvedRoles)
                    approvedScopes = try? container.decodeIfPresent([String].self, forKey: .approvedScopes)
                }
            }
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
}
