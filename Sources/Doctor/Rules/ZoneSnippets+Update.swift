import DNSSD
import DNSWire
import Zones

extension ZoneSnippets {
    /// nsupdate input that replaces a stale record set of `published` with `content`'s: each
    /// RRset that differs is deleted, then added as `zone generate` writes it, sent to the server
    /// that answered with the stale one (RFC 2136; `clawnet zone push` does the same with a key).
    static func update(_ content: ZoneContent, replacing published: GatewayBeacon, differences: [ZoneSnippet.Difference]) -> String? {
        guard let records = try? ZoneWriter.serviceRecords(content).records else { return nil }
        var types: [RRType] = []
        for difference in differences {
            switch difference {
            case .fingerprint: types.append(.txt)
            case .port: types.append(.srv)
            case .addresses: types += [.a, .aaaa]
            }
        }
        let replaced = records.filter { types.contains($0.type) }
        guard !replaced.isEmpty else { return nil }
        var lines = ["; replaces \(content.domain.name)'s stale records; apply with: nsupdate [-k KEYFILE] < this file"]
        if let server = published.resolvers.first.flatMap(Self.server) { lines.append("server \(server)") }
        lines.append("zone \(content.domain.name)")
        var deleted = Set<String>()
        for record in replaced where deleted.insert("\(record.name) \(record.type)").inserted {
            lines.append("update delete \(record.name) IN \(record.type)")
        }
        lines += replaced.map { "update add \($0.name) \($0.ttl) IN \($0.type) \($0.data.presentation ?? "")" }
        lines.append("send")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `address#port` (how a beacon names the server that answered) as nsupdate's `address port`.
    static func server(_ resolver: String) -> String? {
        let parts = resolver.split(separator: "#")
        guard parts.count == 2, IPAddress(String(parts[0])) != nil, Int(parts[1]) != nil else { return nil }
        return "\(parts[0]) \(parts[1])"
    }
}
