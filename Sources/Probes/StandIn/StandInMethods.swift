import DNSSD
import FoundationEssentials

/// What the stand-in answers after hello-ok: `health` (the Gateway's health summary, as
/// `openclaw gateway health` reads it), `status` and `system-presence` (what third-party SDKs
/// call to check a connection), each with a small payload; any other method the Gateway's
/// "unknown method" error (src/gateway/server-methods.ts). The stand-in runs no agent.
enum StandInMethods {
    static let answered = ["health", "status", "system-presence"]

    /// The response to one request frame; nil for a frame that is not a request.
    static func answer(_ text: String) -> String? {
        struct Request: Decodable {
            let type: String?
            let id: String?
            let method: String?
        }
        guard let request = try? JSONDecoder().decode(Request.self, from: Data(text.utf8)), request.type == "req", let id = request.id
        else { return nil }
        let nowMs = Int(Date().timeIntervalSince1970 * 1000)
        let payload: JSONText? =
            switch request.method {
            case "health": .object(["ok": .bool(true), "ts": .number(nowMs), "durationMs": .number(0), "channels": .object([:])])
            case "status": .object(["ok": .bool(true), "ts": .number(nowMs), "sessions": .array([])])
            case "system-presence": .array([])
            default: nil
            }
        var frame: [String: JSONText] = ["type": .text("res"), "id": .text(String(id.prefix(256)))]
        if let payload {
            frame["ok"] = .bool(true)
            frame["payload"] = payload
        } else {
            let method = String((request.method ?? "").prefix(80))
            frame["ok"] = .bool(false)
            frame["error"] = .object(["code": .text("INVALID_REQUEST"), "message": .text("unknown method: \(method)")])
        }
        return JSONText.object(frame).encoded
    }
}
