/// The Origin a browser page sends with its WebSocket upgrade, in RFC 6454's form
/// (`scheme://host[:port]`): what OpenClaw's checkBrowserOrigin (src/gateway/origin-check.ts)
/// compares with gateway.controlUi.allowedOrigins. Only http and https origins of visible
/// ASCII, at most `limit` bytes: the text goes into a request header as it is.
package struct BrowserOrigin: Sendable, Hashable, CustomStringConvertible {
    package let text: String

    /// A host name and port are far shorter; past this it is not an origin.
    static let limit = 255

    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.limit, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        guard let scheme = ["https://", "http://"].first(where: text.lowercased().hasPrefix) else { return nil }
        let authority = text.dropFirst(scheme.count)
        guard !authority.isEmpty, !authority.contains(where: { "/?#@\\".contains($0) }) else { return nil }
        self.text = text
    }

    package var description: String { text }
}

extension ProbeTarget {
    /// This target, its WebSocket upgrades carrying `origin` (when one is given).
    package func opened(from origin: BrowserOrigin?) -> ProbeTarget {
        var target = self
        target.origin = origin ?? target.origin
        return target
    }
}
