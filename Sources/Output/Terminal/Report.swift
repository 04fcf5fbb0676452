/// How a command prints its one result.
package enum ReportFormat: String, CaseIterable, Sendable {
    case table, json
}

/// Lines for people, split by stream: results on stdout, errors and summaries on stderr.
package struct Lines: Sendable {
    package var out: [String] = []
    package var err: [String] = []

    package init(out: [String] = [], err: [String] = []) {
        self.out = out
        self.err = err
    }
}

/// Something a command prints when it is done: as one JSON document (its schema in
/// `Schema`), or as a table for people; and the exit code it means.
package protocol Report: Encodable {
    func table(_ terminal: Terminal) -> Lines
    var exitStatus: ExitStatus { get }
    /// A last line for stderr after the table, given the exit status the command will really
    /// end with (a lost stdout turns 0 into 1); nil: none.
    func summary(_ terminal: Terminal, exit: Int32) -> String?
    /// The JSON document (`JSONOutput.pretty` of the report, unless a report writes it faster).
    func json() throws -> String
}

extension Report {
    package func print(_ format: ReportFormat, to terminal: Terminal) throws {
        switch format {
        case .json:
            terminal.out(linesOf: try json())
        case .table:
            let lines = table(terminal)
            terminal.out(lines: lines.out)
            terminal.err(lines: lines.err)
            if let summary = summary(terminal, exit: StandardStreams.settled(exitStatus.rawValue)) { terminal.err(lines: [summary]) }
        }
    }

    package func summary(_ terminal: Terminal, exit: Int32) -> String? { nil }

    package func json() throws -> String { try JSONOutput.pretty(self) }
}
