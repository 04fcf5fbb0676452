import DNSSD
import FoundationEssentials

/// How the stand-in Gateway answers `connect`, faithful to OpenClaw's server
/// (src/gateway/server/ws-connection/connect-admission.ts, connect-auth.ts, connect-policy.ts,
/// connect-device-pairing.ts, with the error details of packages/gateway-protocol/src/
/// connect-error-details.ts and startup-unavailable.ts). `auto` decides as a Gateway with
/// `gateway.auth.token` set to `token` (auth mode none without one) whose paired devices are
/// `pairedDevices`, treating every client as remote (no silent local pairing); the other
/// outcomes answer every connect the same way.
public struct StandInConnect: Sendable {
    public enum Outcome: String, Sendable, CaseIterable {
        case auto
        case helloOk = "hello-ok"
        case pairingRequired = "pairing-required"
        case tokenMismatch = "token-mismatch"
        case tokenMissing = "token-missing"
        case deviceRequired = "device-required"
        case protocolMismatch = "protocol-mismatch"
        case starting
        case close1008 = "close-1008"
    }

    public var outcome: Outcome
    public var token: GatewayToken?
    public var pairedDevices: Set<String>

    public init(outcome: Outcome = .auto, token: GatewayToken? = nil, pairedDevices: Set<String> = []) {
        self.outcome = outcome
        self.token = token
        self.pairedDevices = pairedDevices
    }

    /// PROTOCOL_VERSION and MIN_PROBE_PROTOCOL_VERSION (packages/gateway-protocol/src/version.ts).
    static let protocolVersion = 4
    static let minimumProbeProtocol = 3
    /// The version `protocol-mismatch` claims: a Gateway newer than its clients.
    static let newerProtocol = 5
    /// DEVICE_SIGNATURE_SKEW_MS: a signature older or newer than this is refused.
    static let signatureSkewMs: Int64 = 10 * 60 * 1000

    /// What the stand-in sends back: frames (JSON text) and, unless the connection stays open,
    /// the close that follows.
    public struct Reply: Sendable, Equatable {
        public var frames: [String]
        public var close: (code: UInt16, reason: String)?

        public static func == (lhs: Reply, rhs: Reply) -> Bool {
            lhs.frames == rhs.frames && lhs.close?.code == rhs.close?.code && lhs.close?.reason == rhs.close?.reason
        }
    }

    public func reply(to text: String, nonce: String, nowMs: Int64) -> Reply {
        guard let request = try? JSONDecoder().decode(Request.self, from: Data(text.utf8)), request.type == "req", let id = request.id
        else {
            return Reply(frames: [], close: (1008, "invalid request frame"))
        }
        guard request.method == "connect", let params = request.params, let client = params.client else {
            return error(id, .invalidRequest, "invalid handshake: first request must be connect", details: nil, close: 1008)
        }
        switch outcome {
        case .auto: return decide(id, params, client, nonce: nonce, nowMs: nowMs)
        case .helloOk: return helloOk(id, role: params.role ?? "operator", scopes: params.scopes ?? [])
        case .pairingRequired: return pairingRequired(id, params)
        case .tokenMismatch: return unauthorized(id, client, reason: "token_mismatch", hasDevice: params.device != nil, tokenGiven: true)
        case .tokenMissing: return unauthorized(id, client, reason: "token_missing", hasDevice: params.device != nil, tokenGiven: false)
        case .deviceRequired: return deviceRequired(id)
        case .protocolMismatch: return protocolMismatch(id, params, expected: Self.newerProtocol)
        case .starting: return starting(id)
        case .close1008: return Reply(frames: [], close: (1008, "invalid request frame"))
        }
    }

    /// What a connect request showed, for the stand-in's log: whether a token came and matched,
    /// and the device, never the token itself. nil for a frame that is not a connect request.
    public func received(_ text: String) -> Received? {
        guard let request = try? JSONDecoder().decode(Request.self, from: Data(text.utf8)), request.method == "connect",
            let params = request.params
        else { return nil }
        let given = params.auth?.token.flatMap { GatewayToken($0, source: "connect") }
        let tokenWord: Received.Token =
            switch (given, token) {
            case (nil, _): .none
            case (_, nil): .given
            case (let given?, let token?): given == token ? .matching : .other
            }
        return Received(
            client: "\(params.client?.id ?? "?")/\(params.client?.mode ?? "?")", role: params.role ?? "?", token: tokenWord,
            device: params.device?.id, signed: params.device?.signature != nil)
    }

    public struct Received: Sendable, Hashable, CustomStringConvertible {
        public enum Token: String, Sendable, Hashable {
            case none = "no token"
            case given = "a token"
            case matching = "the token"
            case other = "a token that does not match"
        }

        public let client: String
        public let role: String
        public let token: Token
        /// The device id shown, if any, and whether it came with a signature.
        public let device: String?
        public let signed: Bool

        public var description: String {
            let shown = device.map { "device \($0.prefix(12))…\(signed ? " with a signature" : "")" } ?? "no device"
            return "client \(client), role \(role), \(token.rawValue), \(shown)"
        }
    }

    /// The Gateway's own order: protocol, role, credentials, device proof, auth, pairing.
    private func decide(_ id: String, _ params: Params, _ client: Client, nonce: String, nowMs: Int64) -> Reply {
        let minimum = params.minProtocol ?? 0
        let maximum = params.maxProtocol ?? 0
        let current = maximum >= Self.protocolVersion && minimum <= Self.protocolVersion
        let probe = client.mode == "probe" && maximum >= Self.minimumProbeProtocol && minimum <= Self.protocolVersion
        guard current || probe else { return protocolMismatch(id, params, expected: Self.protocolVersion) }
        let role = params.role ?? "operator"
        guard role == "operator" || role == "node" else {
            return error(id, .invalidRequest, "invalid role", details: nil, close: 1008)
        }
        let given = params.auth?.token.flatMap { GatewayToken($0, source: "connect") }
        let authOk = token.map { $0 == given } ?? true
        let sharedAuthOk = token != nil && token == given
        guard let device = params.device else {
            if role == "operator" && sharedAuthOk { return helloOk(id, role: role, scopes: []) }
            if !authOk && given != nil {
                return unauthorized(id, client, reason: "token_mismatch", hasDevice: false, tokenGiven: true)
            }
            return deviceRequired(id)
        }
        if let problem = deviceProblem(device, params, client, role: role, given: given, nonce: nonce, nowMs: nowMs) {
            return error(id, .invalidRequest, problem.message, details: ["code": .detailCode(problem.code)], close: 1008)
        }
        guard authOk else {
            return unauthorized(
                id, client, reason: given == nil ? "token_missing" : "token_mismatch", hasDevice: true, tokenGiven: given != nil)
        }
        guard pairedDevices.contains(device.id ?? "") else { return pairingRequired(id, params) }
        return helloOk(id, role: role, scopes: params.scopes ?? [])
    }

    /// verifyGatewayConnectDeviceProof: the id is the key's hash, the signature is fresh,
    /// carries this connection's nonce and verifies over the v3 payload.
    private func deviceProblem(
        _ device: Device, _ params: Params, _ client: Client, role: String, given: GatewayToken?, nonce: String, nowMs: Int64
    ) -> (code: ConnectError.DetailCode, message: String)? {
        guard let publicKey = device.publicKey, let deviceId = device.id, DeviceIdentity.deviceId(ofPublicKey: publicKey) == deviceId
        else {
            return (.deviceAuth("DEVICE_AUTH_DEVICE_ID_MISMATCH"), "device identity mismatch")
        }
        guard let signedAt = device.signedAt, abs(nowMs - signedAt) <= Self.signatureSkewMs else {
            return (.deviceAuth("DEVICE_AUTH_SIGNATURE_EXPIRED"), "device signature expired")
        }
        guard device.nonce == nonce else { return (.deviceAuth("DEVICE_AUTH_NONCE_MISMATCH"), "device nonce mismatch") }
        let payload = ConnectRequest.devicePayload(
            deviceId: deviceId, clientId: client.id ?? "", clientMode: client.mode ?? "", role: role, scopes: params.scopes ?? [],
            signedAtMs: signedAt, token: given?.forConnectRequest, nonce: nonce, platform: client.platform,
            deviceFamily: client.deviceFamily)
        guard DeviceIdentity.verify(publicKey: publicKey, payload: payload, signature: device.signature ?? "") else {
            return (.deviceAuth("DEVICE_AUTH_SIGNATURE_INVALID"), "device signature invalid")
        }
        return nil
    }

    private func helloOk(_ id: String, role: String, scopes: [String]) -> Reply {
        let payload: [String: JSONText] = [
            "type": .text("hello-ok"), "protocol": .number(Self.protocolVersion),
            "server": .object(["version": .text("clawnet-stand-in"), "connId": .text(UUID().uuidString.lowercased())]),
            "features": .object(["methods": .array([]), "events": .array([])]),
            "snapshot": .object([:]),
            "auth": .object(["role": .text(role), "scopes": .array(scopes.map(JSONText.text))]),
            "policy": .object(["maxPayload": .number(25 << 20), "maxBufferedBytes": .number(50 << 20), "tickIntervalMs": .number(30_000)]),
        ]
        let frame: [String: JSONText] = ["type": .text("res"), "id": .text(id), "ok": .bool(true), "payload": .object(payload)]
        return Reply(frames: [JSONText.object(frame).encoded], close: nil)
    }

    private func deviceRequired(_ id: String) -> Reply {
        error(id, .notPaired, "device identity required", details: ["code": .detailCode(.deviceIdentityRequired)], close: 1008)
    }

    /// formatGatewayAuthFailureMessage (auth-messages.ts) and resolveUnauthorizedHandshakeContext.
    private func unauthorized(_ id: String, _ client: Client, reason: String, hasDevice: Bool, tokenGiven: Bool) -> Reply {
        let hint = client.id == "cli" ? "set gateway.remote.token to match gateway.auth.token" : "provide gateway auth token"
        let missing = reason == "token_missing"
        let message = "unauthorized: gateway token \(missing ? "missing" : "mismatch") (\(hint))"
        let canRetry = !missing && hasDevice && tokenGiven
        let next: ConnectError.NextStep = missing ? .updateAuthConfiguration : canRetry ? .retryWithDeviceToken : .updateAuthCredentials
        return error(
            id, .invalidRequest, message,
            details: [
                "code": .detailCode(missing ? .authTokenMissing : .authTokenMismatch), "authReason": .text(reason),
                "canRetryWithDeviceToken": .bool(canRetry), "recommendedNextStep": .text(next.word),
            ],
            close: 1008)
    }

    private func pairingRequired(_ id: String, _ params: Params) -> Reply {
        let requestId = UUID().uuidString.lowercased()
        var details: [String: JSONText] = [
            "code": .detailCode(.pairingRequired), "reason": .text("not-paired"), "requestId": .text(requestId),
            "remediationHint": .text("Approve this device from the pending pairing requests."),
            "requestedRole": .text(params.role ?? "operator"), "requestedScopes": .array((params.scopes ?? []).map(JSONText.text)),
        ]
        if let deviceId = params.device?.id { details["deviceId"] = .text(deviceId) }
        var reply = error(id, .notPaired, "pairing required: device is not approved yet", details: details, close: 1008)
        reply.close = (1008, "pairing required: device is not approved yet (requestId: \(requestId))")
        return reply
    }

    private func protocolMismatch(_ id: String, _ params: Params, expected: Int) -> Reply {
        error(
            id, .invalidRequest, "protocol mismatch",
            details: [
                "code": .detailCode(.protocolMismatch), "clientMinProtocol": .number(params.minProtocol ?? 0),
                "clientMaxProtocol": .number(params.maxProtocol ?? 0), "expectedProtocol": .number(expected),
                "minimumProbeProtocol": .number(Self.minimumProbeProtocol),
            ],
            close: 1002)
    }

    private func starting(_ id: String) -> Reply {
        var reply = error(
            id, .unavailable, "gateway starting; retry shortly", details: ["reason": .text("startup-sidecars")], close: 1013,
            extra: ["retryable": .bool(true), "retryAfterMs": .number(500)])
        reply.close = (1013, "gateway starting")
        return reply
    }

    /// A response with an ErrorShape, then a close whose reason is the message
    /// (truncateCloseReason keeps 123 bytes).
    private func error(
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

    // What the stand-in reads of a request; anything of another shape is not a connect.
    private struct Request: Decodable {
        let type: String?
        let id: String?
        let method: String?
        let params: Params?
    }

    private struct Params: Decodable {
        struct Auth: Decodable { let token: String? }
        let minProtocol: Int?
        let maxProtocol: Int?
        let client: Client?
        let role: String?
        let scopes: [String]?
        let auth: Auth?
        let device: Device?
    }

    private struct Client: Decodable {
        let id: String?
        let mode: String?
        let platform: String?
        let deviceFamily: String?
    }

    private struct Device: Decodable {
        let id: String?
        let publicKey: String?
        let signature: String?
        let signedAt: Int64?
        let nonce: String?
    }
}

/// A JSON value the stand-in writes, encoded with sorted keys so that no text from a client
/// can break out of its string.
enum JSONText: Encodable, Sendable {
    case text(String)
    case number(Int)
    case bool(Bool)
    case array([JSONText])
    case object([String: JSONText])

    static func detailCode(_ code: ConnectError.DetailCode) -> JSONText { .text(code.word) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
