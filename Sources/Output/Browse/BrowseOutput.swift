import DNSSD
import Discovery

/// How browse prints its result: jsonl streams events as they happen.
package enum BrowseFormat: String, CaseIterable, Sendable {
    case table, json, jsonl
}

/// What browse prints: while events arrive, jsonl lines, watch-mode rows or a progress line;
/// at the end, the document or the table, and a note when the time ran out first.
package struct BrowseOutput: Sendable {
    package let format: BrowseFormat
    package let watch: Bool
    package let terminal: Terminal
    package let started: ContinuousClock.Instant
    /// The width tables wrap to (`TextWrap.terminalWidth`); nil: rows stay whole.
    package let width: Int?
    /// Every jsonl line is encoded by this one encoder.
    private let jsonLines = JSONOutput.LineEncoder()

    package init(format: BrowseFormat, watch: Bool, terminal: Terminal, started: ContinuousClock.Instant, width: Int? = nil) {
        self.format = format
        self.watch = watch
        self.terminal = terminal
        self.started = started
        self.width = width
    }

    package func show(_ event: DiscoveryEvent, collection: BeaconCollection) {
        let line = DiscoveryEventLine(event, elapsed: ContinuousClock.now - started)
        switch format {
        case .jsonl:
            if let json = try? line.json(jsonLines) { terminal.out(json) }
        case .table where watch:
            let lines = line.table(terminal, collection: collection, width: width)
            terminal.out(lines: lines.out)
            terminal.err(lines: lines.err)
        default:
            terminal.progress("browsing … \(collection.count) found")
        }
    }

    /// The result once browsing ended (`deadline`: the time it had, if any).
    package func finish(_ report: BrowseReport, timedOut: Bool, deadline: Duration?) throws {
        terminal.clearProgress()
        switch format {
        case .json: try report.print(.json, to: terminal)
        case .table where !watch:
            var report = report
            report.width = width
            try report.print(.table, to: terminal)
        default: break
        }
        if timedOut && !watch && format != .jsonl {
            terminal.err(
                "note: stopped at the \((deadline ?? .zero).argumentText) timeout before every path reported everything; results may be "
                    + "incomplete"
            )
        }
    }
}
