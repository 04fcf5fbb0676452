import DNSSD
import Doctor

/// A zone snippet in doctor's JSON, with what the published records say that the Gateway does
/// not, in words.
struct SnippetJSON: Encodable {
    let domain: String
    let target: String
    let reason: ZoneSnippet.Reason
    let differences: [String]
    let records: String
    let corefile: String?
    let update: String?

    init(_ snippet: ZoneSnippet) {
        domain = snippet.domain.name
        target = snippet.target
        reason = snippet.reason
        differences = Self.words(snippet.differences)
        records = snippet.records
        corefile = snippet.corefile
        update = snippet.update
    }

    static func words(_ differences: [ZoneSnippet.Difference]) -> [String] {
        differences.map { difference in
            switch difference {
            case .port(let published, let answers): "port \(published), the Gateway answers on \(answers)"
            case .addresses(let published, let answers):
                "addresses \(published.isEmpty ? "none" : published.map(\.description).joined(separator: ", ")), the Gateway answers at "
                    + answers.map(\.description).joined(separator: ", ")
            case .fingerprint(let published, let served):
                "fingerprint \(published?.hex ?? "none"), the Gateway serves \(served?.hex ?? "no TLS")"
            }
        }
    }
}
