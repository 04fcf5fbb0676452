import DNSSD
import FoundationEssentials

/// A discovery path's error while `clawnet watch` runs (no D-Bus, a DNS server that does not
/// answer): a text line (time, `error`, the source, the message and its fix), or a line of
/// `--format jsonl`: `{"event":"error","time":...,"error":{...}}`, the error as browse's JSON
/// gives it. The message may name what the network said: the text line shows it through
/// SafeText.
package struct WatchIssueLine: Encodable, Sendable {
    package let issue: DiscoveryIssue
    package let date: Date

    package init(_ issue: DiscoveryIssue, date: Date) {
        self.issue = issue
        self.date = date
    }

    package func json(_ lines: JSONOutput.LineEncoder) throws -> String { try lines.line(self) }

    package func text(_ terminal: Terminal) -> String {
        let words = DiscoveryIssueText(issue)
        let fix = words.fix.map { " (fix: \($0))" } ?? ""
        return [WatchEventLine.time(date), terminal.paint("error", .red), issue.source.rawValue, SafeText.line(words.message + fix)]
            .joined(separator: "  ")
    }

    private enum Key: String, CodingKey { case event, time, error }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode("error", forKey: .event)
        try container.encode(WatchEventLine.time(date), forKey: .time)
        try container.encode(DiscoveryIssueJSON(issue), forKey: .error)
    }
}
