import DNSSD
import FoundationEssentials

/// What doctor may show the Gateway in its connect request: a token, and a node's device
/// identity (`--as-device`). Both are per Gateway: a token is only sent to the Gateway it
/// belongs to, never to every Gateway discovery finds.
package struct ConnectCredentials: Sendable, Hashable {
    package var token: GatewayToken?
    package var device: DeviceIdentity?

    package init(token: GatewayToken? = nil, device: DeviceIdentity? = nil) {
        self.token = token
        self.device = device
    }

    package static let none = ConnectCredentials()
}

/// The `connect` request that follows `connect.challenge`.
///
/// Without a device it is what OpenClaw's own reachability probe sends (src/gateway/probe.ts
/// with packages/gateway-client/src/client.ts): client `cli`, mode `probe`, role `operator`,
/// scopes `operator.read`, no device identity. On the Gateway (src/gateway/server/ws-connection/
/// connect-auth.ts, connect-device-pairing.ts) that leaves nothing behind: no device means no
/// pairing request and no device token, and the `cli` client is kept out of presence. With a
/// valid token the Gateway answers hello-ok; without one, NOT_PAIRED "device identity required".
///
/// With a device (`--as-device`) it is what a headless node host sends
/// (src/node-host/runner.ts): client `node-host`, mode `node`, role `node`, no scopes, the
/// device signed over OpenClaw's v3 payload (packages/gateway-client: buildDeviceAuthPayloadV3).
/// That is the node's own pairing: an unknown device becomes a pairing request on the Gateway.
///
/// The protocol range is the one OpenClaw's client sends for the role (`ProtocolRange`): a
/// probe offers 3...4; the node host 4 first, then 3 in the released v3 envelope (no
/// deviceFamily) when a v3 Gateway refuses 4, so its pairing there is not asked to change.
package struct ConnectRequest: Sendable {
    /// What OpenClaw's probe reports as its client version.
    static let clientVersion = "dev"
    /// `process.platform` on Linux, and the node host's device family there.
    static let platform = "linux"
    static let deviceFamily = "Linux"

    package let id: String
    package let credentials: ConnectCredentials
    package var range: ProtocolRange
    /// The released v3 node host's envelope: no deviceFamily in the client or the signature.
    package var legacyNodeEnvelope = false

    package init(id: String = UUID().uuidString.lowercased(), credentials: ConnectCredentials) {
        self.id = id
        self.credentials = credentials
        self.range = credentials.device == nil ? .probe : .node
    }

    package var asDevice: Bool { credentials.device != nil }

    /// The same request on a new connection (a new id), with another range or envelope.
    package func again(range: ProtocolRange? = nil, legacyNodeEnvelope: Bool? = nil) -> ConnectRequest {
        var next = ConnectRequest(credentials: credentials)
        next.range = range ?? self.range
        next.legacyNodeEnvelope = legacyNodeEnvelope ?? self.legacyNodeEnvelope
        return next
    }

    /// The request frame for the challenge's nonce, signed at `signedAtMs` when a device is shown.
    package func frame(nonce: String, signedAtMs: Int64 = Int64(Date().timeIntervalSince1970 * 1000)) -> [UInt8] {
        probeFrame() ?? encodedFrame(nonce: nonce, signedAtMs: signedAtMs)
    }

    /// The request frame as JSONEncoder writes it (sorted keys, unescaped slashes).
    func encodedFrame(nonce: String, signedAtMs: Int64) -> [UInt8] {
        let family = legacyNodeEnvelope ? nil : Self.deviceFamily
        let client =
            asDevice
            ? Client(id: "node-host", version: Self.clientVersion, platform: Self.platform, deviceFamily: family, mode: "node")
            : Client(id: "cli", version: Self.clientVersion, platform: Self.platform, deviceFamily: nil, mode: "probe")
        let role = asDevice ? "node" : "operator"
        let scopes = asDevice ? [] : ["operator.read"]
        let token = credentials.token?.forConnectRequest
        let device = credentials.device.map { identity in
            let payload = Self.devicePayload(
                deviceId: identity.deviceId, clientId: client.id, clientMode: client.mode, role: role, scopes: scopes,
                signedAtMs: signedAtMs, token: token, nonce: nonce, platform: client.platform, deviceFamily: client.deviceFamily)
            return Device(
                id: identity.deviceId, publicKey: identity.publicKey, signature: identity.sign(payload), signedAt: signedAtMs, nonce: nonce)
        }
        let params = Params(
            minProtocol: range.min, maxProtocol: range.max, client: client, caps: [], role: role, scopes: scopes,
            auth: token.map { Auth(token: $0) }, device: device)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(Frame(id: id, params: params))) ?? Data())
    }

    /// OpenClaw's v3 device-auth payload: `v3|deviceId|clientId|clientMode|role|scopes|signedAtMs|
    /// token|nonce|platform|deviceFamily`, platform and family trimmed and ASCII lower-cased.
    package static func devicePayload(
        deviceId: String, clientId: String, clientMode: String, role: String, scopes: [String], signedAtMs: Int64, token: String?,
        nonce: String, platform: String?, deviceFamily: String?
    ) -> String {
        func metadata(_ value: String?) -> String {
            String(
                (value ?? "").trimmingSpaces().unicodeScalars.map {
                    ("A"..."Z").contains($0) ? Character(String($0).lowercased()) : Character($0)
                })
        }
        return [
            "v3", deviceId, clientId, clientMode, role, scopes.joined(separator: ","), String(signedAtMs), token ?? "", nonce,
            metadata(platform), metadata(deviceFamily),
        ].joined(separator: "|")
    }

    /// The v2 payload (buildDeviceAuthPayload in src/gateway/device-auth.ts), without platform and
    /// family: `v2|deviceId|clientId|clientMode|role|scopes|signedAtMs|token|nonce`. Gateways still
    /// accept it; third-party clients sign it.
    package static func devicePayloadV2(
        deviceId: String, clientId: String, clientMode: String, role: String, scopes: [String], signedAtMs: Int64, token: String?,
        nonce: String
    ) -> String {
        ["v2", deviceId, clientId, clientMode, role, scopes.joined(separator: ","), String(signedAtMs), token ?? "", nonce]
            .joined(separator: "|")
    }

    // The frame as packages/gateway-protocol/src/schema/frames.ts shapes it (ConnectParamsSchema).
    struct Client: Encodable {
        let id: String
        let version: String
        let platform: String
        let deviceFamily: String?
        let mode: String
    }

    struct Auth: Encodable {
        let token: String
    }

    struct Device: Encodable {
        let id: String
        let publicKey: String
        let signature: String
        let signedAt: Int64
        let nonce: String
    }

    struct Params: Encodable {
        let minProtocol: Int
        let maxProtocol: Int
        let client: Client
        let caps: [String]
        let role: String
        let scopes: [String]
        let auth: Auth?
        let device: Device?
    }

    struct Frame: Encodable {
        let type = "req"
        let id: String
        let method = "connect"
        let params: Params
    }
}
