import DNSSD
import FoundationEssentials
import Synchronization

/// What the stand-in reads of a connect request (ConnectParamsSchema in
/// packages/gateway-protocol/src/schema/frames.ts); anything of another shape is not a connect.
extension StandInConnect {
    struct Request: Decodable {
        let type: String?
        let id: String?
        let method: String?
        let params: Params?
    }

    struct Params: Decodable {
        struct Auth: Decodable { let token: String? }
        let minProtocol: Int?
        let maxProtocol: Int?
        let client: Client?
        let role: String?
        let scopes: [String]?
        let caps: [String]?
        let auth: Auth?
        let device: Device?
    }

    struct Client: Decodable {
        let id: String?
        let mode: String?
        let version: String?
        let platform: String?
        let deviceFamily: String?
    }

    struct Device: Decodable {
        let id: String?
        let publicKey: String?
        let signature: String?
        let signedAt: Int64?
        let nonce: String?
    }
}

/// The stand-in's pending pairing requests: one per device id, as requestDevicePairing keeps
/// one while the device asks the same (src/infra/device-pairing.ts), so a node that connects
/// again sees the same requestId. Shared by every connection; bounded like a Gateway's list.
final class StandInPairings: Sendable {
    private let pending = Mutex<[String: String]>([:])
    /// More devices than this and the oldest requests are forgotten.
    static let limit = 1024

    func requestId(for deviceId: String) -> String {
        pending.withLock { pending in
            if let known = pending[deviceId] { return known }
            if pending.count >= Self.limit { pending.removeAll() }
            let made = UUID().uuidString.lowercased()
            pending[deviceId] = made
            return made
        }
    }
}

/// When a starting stand-in read its first connect request: it is starting from then on for
/// `startingFor` (GATEWAY_STARTUP_RETRY_AFTER_MS later a client asks again).
final class StandInStartup: Sendable {
    private let firstMs = Mutex<Int64?>(nil)

    func isStarting(nowMs: Int64, for duration: Duration) -> Bool {
        let first = firstMs.withLock { first in
            if first == nil { first = nowMs }
            return first ?? nowMs
        }
        return nowMs - first < duration.milliseconds
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
