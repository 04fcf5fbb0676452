import DNSSD
import Discovery

/// One event as it happens: a line of `--format jsonl`, or a `+`/`~`/`-` row in watch mode.
package struct DiscoveryEventLine: Encodable, Sendable {
    package let event: DiscoveryEvent
    package let elapsed: Duration

    package init(_ event: DiscoveryEvent, elapsed: Duration) {
        self.event = event
        self.elapsed = elapsed
    }

    /// The jsonl line, from the stream's one encoder.
    package func json(_ lines: JSONOutput.LineEncoder) throws -> String { try lines.line(self) }

    /// What watch mode prints for it: rows on stdout (wrapped to `width` when there is one),
    /// errors and all-for-now on stderr.
    package func table(_ terminal: Terminal, collection: BeaconCollection, width: Int? = nil) -> Lines {
        switch event {
        case .added(let beacon): Lines(out: BeaconTable.eventLines(terminal.paint("+", .green), beacon, width: width))
        case .updated(let beacon): Lines(out: BeaconTable.eventLines("~", beacon, width: width))
        case .removed(let beacon): Lines(out: BeaconTable.eventLines(terminal.paint("-", .red), beacon, width: width))
        case .error(let issue): Lines(err: IssueLines.lines([issue], terminal: terminal))
        case .allForNow: Lines(err: [terminal.paint("= all for now: \(Plural.counted(collection.count, "Gateway"))", .dim, stderr: true)])
        }
    }

    private enum Key: String, CodingKey { case event, beacon, error, elapsedMs }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch event {
        case .added(let beacon):
            try container.encode("added", forKey: .event)
            try container.encode(beacon, forKey: .beacon)
        case .updated(let beacon):
            try container.encode("updated", forKey: .event)
            try container.encode(beacon, forKey: .beacon)
        case .removed(let beacon):
            try container.encode("removed", forKey: .event)
            try container.encode(beacon, forKey: .beacon)
        case .error(let issue):
            try container.encode("error", forKey: .event)
            try container.encode(DiscoveryIssueJSON(issue), forKey: .error)
        case .allForNow:
            try container.encode("allForNow", forKey: .event)
        }
        try container.encode(Int(elapsed.milliseconds), forKey: .elapsedMs)
    }
}
