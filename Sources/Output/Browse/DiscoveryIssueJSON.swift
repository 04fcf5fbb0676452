import DNSSD

/// A discovery issue as browse's and watch's JSON give it (clawnet.browse.v1 `issue`): its
/// source, kind and code, the words `DiscoveryIssueText` makes of it, its domain, and doctor's
/// id for the kind.
package struct DiscoveryIssueJSON: Encodable, Sendable {
    package let issue: DiscoveryIssue

    package init(_ issue: DiscoveryIssue) {
        self.issue = issue
    }

    private enum Key: String, CodingKey { case source, kind, code, message, fix, domain, diagnosis }

    package func encode(to encoder: any Encoder) throws {
        let text = DiscoveryIssueText(issue)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(issue.source, forKey: .source)
        try container.encode(issue.kind, forKey: .kind)
        try container.encode(issue.code.name, forKey: .code)
        try container.encode(text.message, forKey: .message)
        try container.encode(text.fix, forKey: .fix)
        try container.encodeIfPresent(issue.domain, forKey: .domain)
        try container.encodeIfPresent(issue.kind.diagnosis, forKey: .diagnosis)
    }
}

extension DiscoveryIssueJSON {
    /// As `encode(to:)` writes it, for `BrowseReport.json()`.
    func write(to json: inout PrettyJSON) {
        let text = DiscoveryIssueText(issue)
        json.object { json in
            json.key("code")
            json.string(issue.code.name)
            if let diagnosis = issue.kind.diagnosis {
                json.key("diagnosis")
                json.string(diagnosis)
            }
            if let domain = issue.domain {
                json.key("domain")
                json.string(domain)
            }
            json.key("fix")
            json.string(text.fix)
            json.key("kind")
            json.string(issue.kind.rawValue)
            json.key("message")
            json.string(text.message)
            json.key("source")
            json.string(issue.source.rawValue)
        }
    }
}
