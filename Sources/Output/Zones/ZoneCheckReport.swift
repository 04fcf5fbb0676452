import DNSSD
import DNSWire
import Zones

/// The `clawnet.zonecheck.v3` document; as a table, one line per finding with its line number.
package struct ZoneCheckReport: Report, Sendable {
    package let result: ZoneCheck.Result
    /// The width the table's lines are wrapped to; nil: each line as it is.
    package var width: Int?

    package init(_ result: ZoneCheck.Result, width: Int? = nil) {
        self.result = result
        self.width = width
    }

    package var exitStatus: ExitStatus { result.status == .fail ? .failure : .success }

    package func table(_ terminal: Terminal) -> Lines {
        var lines = Lines()
        for finding in result.findings {
            let line = finding.line.map { "line \($0)" } ?? ""
            let head = "\(StatusMark.mark(finding.severity, terminal))  \(line.padding(Self.lineWidth))  "
            let words = FindingText(finding)
            lines.out += TextWrap.hanging(head, indent: Self.messageColumn, words.message, width: width)
            if let fix = words.fix, finding.severity != .pass {
                lines.out += TextWrap.hanging(
                    String(repeating: " ", count: Self.messageColumn) + "fix: ", indent: Self.messageColumn + 5, fix, width: width)
            }
        }
        let failures = result.findings.filter { $0.severity == .fail }.count
        let warnings = result.findings.filter { $0.severity == .warn }.count
        let zone = result.apex?.description ?? "unknown zone"
        let source = result.file.map { $0 == "-" ? "standard input" : $0 } ?? result.servers.joined(separator: ", ")
        let summary =
            "\(source) (\(zone)): \(Plural.counted(failures, "failure")), \(Plural.counted(warnings, "warning"))"
        lines.err.append(terminal.paint(summary, .dim, stderr: true))
        return lines
    }

    /// Width of the "line N" column.
    static let lineWidth = 9
    /// The columns before the message: the four-letter mark, two spaces, the line column, two spaces.
    static let messageColumn = 6 + lineWidth + 2

    private enum CodingKeys: String, CodingKey { case schema, file, domain, status, findings }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Schema.zoneCheck, forKey: .schema)
        try container.encodeIfPresent(result.file, forKey: .file)
        try container.encodeIfPresent(result.apex?.description, forKey: .domain)
        try container.encode(result.status, forKey: .status)
        try container.encode(result.findings.map(FindingJSON.init), forKey: .findings)
    }
}

/// One finding in `clawnet.zonecheck.v3`: `status` (as doctor's checks and preflight's
/// requirements say it; v2 said `severity`), its code and line, and its words.
private struct FindingJSON: Encodable {
    let finding: Finding

    private enum CodingKeys: String, CodingKey { case status, code, line, message, fix }

    func encode(to encoder: any Encoder) throws {
        let words = FindingText(finding)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(finding.severity, forKey: .status)
        try container.encode(finding.code, forKey: .code)
        try container.encode(finding.line, forKey: .line)
        try container.encode(words.message, forKey: .message)
        try container.encode(words.fix, forKey: .fix)
    }
}
