import DNSSD
import FoundationEssentials

/// A WebSocket close frame: its code and reason (UTF-8, at most 123 bytes by RFC 6455).
package struct CloseFrame: Sendable, Hashable {
    package let code: UInt16?
    package let reason: String

    package init(code: UInt16?, reason: String) {
        self.code = code
        self.reason = reason
    }
}

/// The Gateway's hello-ok, as much of it as a diagnosis needs.
package struct HelloOk: Sendable, Hashable {
    package let protocolVersion: Int?
    package let serverVersion: String?
    package let role: String?
    package let scopes: [String]
    /// `policy.tickIntervalMs`: how often the Gateway sends `tick`; OpenClaw's client closes
    /// with 4000 after two intervals without one (startTickWatch in packages/gateway-client/src/client.ts).
    package var tickIntervalMs: Int?

    package init(protocolVersion: Int?, serverVersion: String?, role: String?, scopes: [String], tickIntervalMs: Int? = nil) {
        self.protocolVersion = protocolVersion
        self.serverVersion = serverVersion
        self.role = role
        self.scopes = scopes
        self.tickIntervalMs = tickIntervalMs
    }

    /// The tick interval the Gateway announced, when it is a sane one (1 s to 1 hour).
    package var tickInterval: Duration? {
        tickIntervalMs.flatMap { (1000...3_600_000).contains($0) ? .milliseconds($0) : nil }
    }
}

/// An error response to connect: OpenClaw's ErrorShape (`code`, `message`, `details`,
/// `retryable`, `retryAfterMs`) with the details fields that the Gateway's handshake sets
/// (packages/gateway-protocol/src/connect-error-details.ts). The codes are read once, here,
/// into typed cases; checks decide on them, never on `message`.
package struct ConnectError: Sendable, Hashable {
    /// NOT_PAIRED, INVALID_REQUEST, UNAVAILABLE, ...
    package let code: Code
    package let message: String
    /// `details.code`: PAIRING_REQUIRED, AUTH_TOKEN_MISMATCH, DEVICE_IDENTITY_REQUIRED,
    /// PROTOCOL_MISMATCH, ...
    package internal(set) var detailCode: DetailCode?
    /// `details.requestId` of a pairing request.
    package let requestId: String?
    /// `details.reason` (not-paired, role-upgrade, ...; `startup-sidecars` while starting).
    package let reason: String?
    /// `details.recommendedNextStep`: update_auth_credentials, update_auth_configuration, ...
    package let recommendedNextStep: NextStep?
    package let canRetryWithDeviceToken: Bool?
    /// `details.expectedProtocol`, and the client's range as the Gateway read it.
    package let expectedProtocol: Int?
    package let clientMinProtocol: Int?
    package let clientMaxProtocol: Int?
    /// The ErrorShape's `retryAfterMs` (or the same field in `details`).
    package internal(set) var retryAfterMs: Int?
    /// `details.authReason`: why the credentials were refused, in the Gateway's own words
    /// (token_mismatch, trusted_proxy_untrusted_source, tailscale_proxy_missing, ...).
    package internal(set) var authReason: String?
    /// OpenClaw's reasons are a few words (`trusted_proxy_missing_header_<name>` the longest);
    /// past this a Gateway sends something else, kept only this long.
    static let authReasonLimit = 96
    /// The ErrorShape's `retryable`.
    package var retryable: Bool?
    /// What a pairing refusal says about the device (nil on other errors).
    package var pairing: PairingDetails?
    /// A protocol mismatch's `details.minimumProbeProtocol`: the oldest protocol the Gateway
    /// takes from probes and nodes (4 on 2026.5.18, 3 in later builds: read, never assumed).
    package internal(set) var minimumProbeProtocol: Int?
    /// `details.gatewayBuildId` and `details.reloadRequired` of PROTOCOL_MISMATCH and
    /// CONTROL_UI_BUILD_MISMATCH (readControlUiBuildMismatchId: at most 96 characters).
    package internal(set) var gatewayBuildId: String?
    package internal(set) var reloadRequired: Bool?
    /// `details.remediationHint`: the Gateway's own sentence on what to do (pairing refusals).
    package internal(set) var remediationHint: String?
    /// The operator's decision a Gateway announced after this refusal (device.pair.resolved).
    package internal(set) var resolution: PairingResolution?
    static let buildIdLimit = 96
    static let hintLimit = 240

    /// A protocol mismatch: details.code PROTOCOL_MISMATCH, or, from a Gateway that sends no
    /// details.code, INVALID_REQUEST with the message OpenClaw's server gives it
    /// (admitGatewayConnect in src/gateway/server/ws-connection/connect-admission.ts). The one
    /// comparison of a message, kept here; `detailCode` stays what the Gateway sent.
    package var isProtocolMismatch: Bool {
        detailCode == .protocolMismatch || (detailCode == nil && code == .invalidRequest && message == "protocol mismatch")
    }

    /// Reads the wire words into typed codes.
    package init(
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
    package var pairingReason: PairingReason? {
        guard detailCode == .pairingRequired else { return nil }
        return reason.map(PairingReason.init(word:)) ?? .notPaired
    }

    /// `requestId` when it has the shape of the ids OpenClaw makes: `randomUUID()` in
    /// requestDevicePairing (src/infra/device-pairing.ts), 8-4-4-4-12 hex digits. Only such an
    /// id goes into a command an operator is told to run; any other text (`--latest`, `-h`)
    /// could be read by `openclaw devices approve` as an option.
    package var approvableRequestId: String? {
        guard let id = requestId, Self.isUUID(id) else { return nil }
        return id
    }

    static func isUUID(_ text: String) -> Bool {
        let characters = Array(text)
        guard characters.count == 36 else { return false }
        return characters.enumerated().allSatisfy { index, character in
            [8, 13, 18, 23].contains(index) ? character == "-" : character.isASCII && character.isHexDigit
        }
    }
}

/// The details of a PAIRING_REQUIRED refusal that say which device asked for what, and what
/// the Gateway approved it for (buildPairingConnectErrorDetails in
/// packages/gateway-protocol/src/connect-error-details.ts).
package struct PairingDetails: Sendable, Hashable {
    package var deviceId: String?
    package var requestedRole: String?
    package var requestedScopes: [String]
    package var approvedRoles: [String]
    package var approvedScopes: [String]
    /// `details.waitForResolution`: the Gateway keeps the socket open and announces the
    /// operator's decision (device.pair.resolved) before it closes it.
    package var waitForResolution: Bool?

    package init(
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
package enum ConnectOutcome: Sendable, Hashable {
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
