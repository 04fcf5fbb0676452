import DNSSD
import FoundationEssentials

/// How the stand-in Gateway answers `connect`, faithful to OpenClaw's server
/// (src/gateway/server/ws-connection/connect-admission.ts, connect-auth.ts, connect-policy.ts,
/// connect-device-pairing.ts, with the error details of packages/gateway-protocol/src/
/// connect-error-details.ts and startup-unavailable.ts). `auto` decides as a Gateway with
/// `gateway.auth.token` set to `token` (auth mode none without one) whose paired devices are
/// `pairedDevices`, treating every client as remote (no silent local pairing); `protocol-3`
/// decides the same way as a published protocol-3 Gateway; the other outcomes answer every
/// connect the same way. For `startingFor` after the first connect request, every client but a node is
/// told the Gateway is starting, as admitGatewayConnect does while startup is pending. Before any
/// outcome, the request must be one OpenClaw's schema takes (a client, one of its client ids
/// and modes: packages/gateway-protocol/src/client-info.ts), else "invalid connect params".
package struct StandInConnect: Sendable {
    package enum Outcome: String, Sendable, CaseIterable {
        case auto
        case helloOk = "hello-ok"
        case pairingRequired = "pairing-required"
        case tokenMismatch = "token-mismatch"
        case tokenMissing = "token-missing"
        case deviceRequired = "device-required"
        case protocolMismatch = "protocol-mismatch"
        case starting
        case close1008 = "close-1008"
        /// A published protocol-3 Gateway: `auto`, with the version rule and answers of v3.
        case protocol3 = "protocol-3"
        /// PAIRING_REQUIRED for a device the Gateway knows, for each reason but not-paired.
        case pairingRoleUpgrade = "pairing-role-upgrade"
        case pairingScopeUpgrade = "pairing-scope-upgrade"
        case pairingMetadataUpgrade = "pairing-metadata-upgrade"
        /// OpenClaw 2: a running Gateway draining (UNAVAILABLE gateway-restarting, -suspending,
        /// -closing, then close 1012), or closing 1012 or 1009 without an answer.
        case restarting, suspending, closing
        case close1012 = "close-1012"
        case close1009 = "close-1009"
        /// AUTH_RATE_LIMITED with retryAfterMs; the operator's pairing decision announced as
        /// device.pair.resolved, then close 4008; operator access policies.
        case rateLimited = "rate-limited"
        case pairingRejected = "pairing-rejected"
        case pairingExpired = "pairing-expired"
        case operatorAccessDenied = "operator-access-denied"
        case verifiedUserRequired = "verified-user-required"
        /// The Tailscale Serve identity refusals (AUTH_TAILSCALE_*), and a trusted proxy that
        /// sent no user header (AUTH_IDENTITY_HEADER_REQUIRED).
        case tailscaleIdentityMissing = "tailscale-identity-missing"
        case tailscaleProxyMissing = "tailscale-proxy-missing"
        case tailscaleWhoisFailed = "tailscale-whois-failed"
        case tailscaleIdentityMismatch = "tailscale-identity-mismatch"
        case identityHeaderRequired = "identity-header-required"
    }

    package var outcome: Outcome
    package var token: GatewayToken?
    package var pairedDevices: Set<String>
    /// How long the Gateway says it is starting, counted from the first connect request it reads
    /// (so that a test sees the start whatever the machine's load).
    package var startingFor: Duration?
    /// The release the stand-in answers as.
    package var release: StandInRelease = .current
    /// policy.tickIntervalMs in hello-ok, and how often a logged-in client gets `tick`
    /// (TICK_INTERVAL_MS, src/gateway/server-constants.ts: 30 s).
    package var tickInterval: Duration = .seconds(30)
    /// When the first connect request came, shared by every connection of this stand-in.
    let startup = StandInStartup()
    /// One pending pairing request per device, shared by every connection of this stand-in.
    let pairings = StandInPairings()
    /// Failed authentication per address (`auto`).
    let rateLimit = StandInRateLimit()

    package init(outcome: Outcome = .auto, token: GatewayToken? = nil, pairedDevices: Set<String> = [], startingFor: Duration? = nil) {
        self.outcome = outcome
        self.token = token
        self.pairedDevices = pairedDevices
        self.startingFor = startingFor
    }

    /// PROTOCOL_VERSION (packages/gateway-protocol/src/version.ts).
    static let protocolVersion = ProtocolRange.currentVersion
    /// MIN_NODE_PROTOCOL_VERSION.
    static let minimumNodeProtocol = ProtocolRange.previousVersion
    /// The version `protocol-mismatch` claims: a Gateway newer than its clients, whose probe
    /// floor is its own version (so a probe of v3…v4 is refused too).
    static let newerProtocol = 5

    /// What the stand-in sends back: frames (JSON text) and, unless the connection stays open,
    /// the close that follows.
    package struct Reply: Sendable, Equatable {
        package var frames: [String]
        package var close: (code: UInt16, reason: String)?

        package static func == (lhs: Reply, rhs: Reply) -> Bool {
            lhs.frames == rhs.frames && lhs.close?.code == rhs.close?.code && lhs.close?.reason == rhs.close?.reason
        }

        /// hello-ok: the connection logged in.
        package var loggedIn: Bool { close == nil }
    }

    package func reply(to text: String, nonce: String, nowMs: Int64, remote: String = "?") -> Reply {
        guard let request = try? JSONDecoder().decode(Request.self, from: Data(text.utf8)), request.type == "req", let id = request.id
        else {
            return Reply(frames: [], close: (1008, "invalid request frame"))
        }
        guard request.method == "connect" else {
            var reply = error(id, .invalidRequest, "invalid handshake: first request must be connect", details: nil, close: 1008)
            reply.close = (1008, "invalid handshake")
            return reply
        }
        let client: Client
        let params: Params
        switch validated(request.params) {
        case .success(let valid):
            params = valid.0
            client = valid.1
        case .failure(let invalid): return invalidParams(id, invalid.problem)
        }
        // isStartupNodeConnect: a node is admitted while startup is pending, nobody else.
        if let startingFor, startup.isStarting(nowMs: nowMs, for: startingFor), !(params.role == "node" && client.mode == "node") {
            return starting(id)
        }
        if let rehearsed = openClaw2Reply(id, params) { return rehearsed }
        switch outcome {
        case .auto: return decide(id, params, client, nonce: nonce, nowMs: nowMs, remote: remote)
        case .protocol3:
            return decide(id, params, client, nonce: nonce, nowMs: nowMs, remote: remote, version: ProtocolRange.previousVersion)
        case .helloOk: return helloOk(id, role: params.role ?? "operator", scopes: params.scopes ?? [])
        case .pairingRequired: return pairingRequired(id, params, reason: .notPaired)
        case .pairingRoleUpgrade: return pairingRequired(id, params, reason: .roleUpgrade)
        case .pairingScopeUpgrade: return pairingRequired(id, params, reason: .scopeUpgrade)
        case .pairingMetadataUpgrade: return pairingRequired(id, params, reason: .metadataUpgrade)
        case .tokenMismatch: return unauthorized(id, client, .tokenMismatch, hasDevice: params.device != nil, tokenGiven: true)
        case .tokenMissing: return unauthorized(id, client, .tokenMissing, hasDevice: params.device != nil, tokenGiven: false)
        case .deviceRequired: return deviceRequired(id)
        case .protocolMismatch:
            return protocolMismatch(id, params, expected: Self.newerProtocol, minimumProbe: Self.newerProtocol)
        case .starting: return starting(id)
        case .close1008: return Reply(frames: [], close: (1008, "invalid request frame"))
        default: return Reply(frames: [], close: (1008, "invalid request frame"))
        }
    }

    /// What a connect request showed, for the stand-in's log: whether a token came and matched,
    /// and the device, never the token itself. nil for a frame that is not a connect request.
    package func received(_ text: String) -> Received? {
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
            device: params.device?.id, signed: params.device?.signature != nil,
            range: "v\(params.minProtocol ?? 0)…v\(params.maxProtocol ?? 0)")
    }

    package struct Received: Sendable, Hashable, CustomStringConvertible {
        package enum Token: String, Sendable, Hashable {
            case none = "no token"
            case given = "a token"
            case matching = "the token"
            case other = "a token that does not match"
        }

        package let client: String
        package let role: String
        package let token: Token
        /// The device id shown, if any, and whether it came with a signature.
        package let device: String?
        package let signed: Bool
        /// The protocol range offered, `v3…v4`.
        package let range: String

        package var description: String {
            let shown = device.map { "device \($0.prefix(12))…\(signed ? " with a signature" : "")" } ?? "no device"
            return "client \(client) (protocol \(range)), role \(role), \(token.rawValue), \(shown)"
        }
    }

    /// The Gateway's own order: protocol, role, credentials, device proof, auth, pairing. A
    /// Gateway of `version` 3 has the published v3 version rule. Failed tokens count against
    /// the address (gateway.auth.rateLimit's defaults); a locked-out address is told how long.
    private func decide(
        _ id: String, _ params: Params, _ client: Client, nonce: String, nowMs: Int64, remote: String, version: Int = protocolVersion
    ) -> Reply {
        guard admits(params, client, version: version) else {
            return version == Self.protocolVersion
                ? protocolMismatch(id, params, expected: version, minimumProbe: release.minimumProbeProtocol)
                : publishedMismatch(id, expected: version)
        }
        let role = params.role ?? "operator"
        guard role == "operator" || role == "node" else {
            return error(id, .invalidRequest, "invalid role", details: nil, close: 1008)
        }
        if let waitMs = rateLimit.lockedOut(remote, nowMs: nowMs) {
            return unauthorized(id, client, .rateLimited, hasDevice: params.device != nil, tokenGiven: true, retryAfterMs: waitMs)
        }
        let given = params.auth?.token.flatMap { GatewayToken($0, source: "connect") }
        let authOk = token.map { $0 == given } ?? true
        let sharedAuthOk = token != nil && token == given
        if !authOk && given != nil { rateLimit.recordFailure(remote, nowMs: nowMs) }
        guard let device = params.device else {
            if role == "operator" && sharedAuthOk { return helloOk(id, role: role, scopes: [], version: version) }
            if !authOk && given != nil {
                return unauthorized(id, client, .tokenMismatch, hasDevice: false, tokenGiven: true)
            }
            return deviceRequired(id)
        }
        if let problem = deviceProblem(device, params, client, role: role, given: given, nonce: nonce, nowMs: nowMs) {
            return error(id, .invalidRequest, problem.message, details: ["code": .detailCode(problem.code)], close: 1008)
        }
        guard authOk else {
            return unauthorized(id, client, given == nil ? .tokenMissing : .tokenMismatch, hasDevice: true, tokenGiven: given != nil)
        }
        guard pairedDevices.contains(device.id ?? "") else { return pairingRequired(id, params, reason: .notPaired) }
        // A node on the N-1 window has a session of that version (usesLegacyNodeProtocol).
        return helloOk(id, role: role, scopes: params.scopes ?? [], version: min(version, params.maxProtocol ?? version))
    }

    /// The version rule: a v4 Gateway's (the current protocol, a probe's N-1 window, a node's
    /// N-1 window), or the published v3 Gateway's (its one version in the range).
    private func admits(_ params: Params, _ client: Client, version: Int) -> Bool {
        let minimum = params.minProtocol ?? 0
        let maximum = params.maxProtocol ?? 0
        guard version == Self.protocolVersion else { return maximum >= version && minimum <= version }
        let current = maximum >= version && minimum <= version
        let probe = client.mode == "probe" && maximum >= release.minimumProbeProtocol && minimum <= version
        let isNode = params.role == "node" && client.mode == "node"
        let node = isNode && maximum >= Self.minimumNodeProtocol && minimum <= Self.minimumNodeProtocol
        return current || probe || node
    }

    /// verifyGatewayConnectDeviceProof (connect-device-proof.ts): the id is the key's hash, the
    /// signature is fresh (the release's window), carries this connection's nonce and verifies
    /// over the v3 payload, else the v2 one (resolveDeviceSignaturePayloadVersion in
    /// handshake-auth-helpers.ts: third-party clients still sign v2).
    private func deviceProblem(
        _ device: Device, _ params: Params, _ client: Client, role: String, given: GatewayToken?, nonce: String, nowMs: Int64
    ) -> (code: ConnectError.DetailCode, message: String)? {
        guard let publicKey = device.publicKey, let deviceId = device.id, DeviceIdentity.deviceId(ofPublicKey: publicKey) == deviceId
        else {
            return (.deviceAuth("DEVICE_AUTH_DEVICE_ID_MISMATCH"), "device identity mismatch")
        }
        guard let signedAt = device.signedAt, abs(nowMs - signedAt) <= release.signatureSkewMs else {
            return (.deviceAuth("DEVICE_AUTH_SIGNATURE_EXPIRED"), "device signature expired")
        }
        guard let deviceNonce = device.nonce?.trimmingSpaces(), !deviceNonce.isEmpty else {
            return (.deviceAuth("DEVICE_AUTH_NONCE_REQUIRED"), "device nonce required")
        }
        guard deviceNonce == nonce else { return (.deviceAuth("DEVICE_AUTH_NONCE_MISMATCH"), "device nonce mismatch") }
        let token = given?.forConnectRequest
        let v3 = ConnectRequest.devicePayload(
            deviceId: deviceId, clientId: client.id ?? "", clientMode: client.mode ?? "", role: role, scopes: params.scopes ?? [],
            signedAtMs: signedAt, token: token, nonce: nonce, platform: client.platform, deviceFamily: client.deviceFamily)
        let v2 = ConnectRequest.devicePayloadV2(
            deviceId: deviceId, clientId: client.id ?? "", clientMode: client.mode ?? "", role: role, scopes: params.scopes ?? [],
            signedAtMs: signedAt, token: token, nonce: nonce)
        let signature = device.signature ?? ""
        guard [v3, v2].contains(where: { DeviceIdentity.verify(publicKey: publicKey, payload: $0, signature: signature) }) else {
            return (.deviceAuth("DEVICE_AUTH_SIGNATURE_INVALID"), "device signature invalid")
        }
        return nil
    }
}
