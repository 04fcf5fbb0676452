import DNSSD
import Doctor

/// The `clawnet.doctor.v1` document; as a table: the machine, each Gateway, the diagnosis.
package struct DoctorReport: Report, Sendable {
    package let result: DoctorResult
    /// The short form (`DoctorBrief`) wrapped to this width; nil: every check (`--all`).
    package var briefWidth: Int?
    /// The width every check's lines are wrapped to (`--all`); nil: each line as it is.
    package var width: Int?

    package init(_ result: DoctorResult, briefWidth: Int? = nil, width: Int? = nil) {
        self.result = result
        self.briefWidth = briefWidth
        self.width = width
    }

    package var exitStatus: ExitStatus { result.status == .fail ? .failure : .success }

    package func table(_ terminal: Terminal) -> Lines {
        guard let briefWidth else { return full(terminal) }
        let brief = DoctorBrief(result: result, terminal: terminal, width: briefWidth).lines()
        return Lines(out: brief + snippetLines(terminal))
    }

    /// Every check of the machine and of each Gateway, the diagnosis and the snippets.
    func full(_ terminal: Terminal) -> Lines {
        var out: [String] = []
        // `--check` of Gateway checks only: nothing of this machine was checked.
        if !result.checks.isEmpty || result.gateways.isEmpty {
            out = [terminal.paint("This machine", .bold)]
            out += result.checks.flatMap { CheckLine.lines(CheckLine.CollapsedCheck($0), terminal, width: width) }
        }
        for gateway in result.gateways {
            var heading = "Gateway \(gateway.target)"
            if let beacon = gateway.beacon {
                heading += " (\(beacon.instance.displayName), \(beacon.sources.sorted().map(\.rawValue).joined(separator: "+")))"
            }
            out += (out.isEmpty ? [] : [""]) + [terminal.paint(heading, .bold)]
            out += CheckLine.collapsed(gateway.checks).flatMap { CheckLine.lines($0, terminal, width: width) }
        }
        if !result.diagnosis.isEmpty {
            out += ["", terminal.paint("Diagnosis", .bold)]
            for (index, diagnosis) in result.diagnosis.map(DiagnosisText.init).enumerated() {
                out += TextWrap.hanging("  \(index + 1). ", indent: 5, diagnosis.cause, width: width)
                if !diagnosis.fix.isEmpty { out += TextWrap.hanging("     fix: ", indent: 10, diagnosis.fix, width: width) }
            }
        }
        out += snippetLines(terminal)
        return Lines(out: out)
    }

    /// "doctor: 1 failure, 0 warnings, 2 Gateways checked (0.23 s)", coloured by the worst: on
    /// stderr after the table, as every command's summary line.
    package func summary(_ terminal: Terminal, exit: Int32) -> String? {
        let all = result.checks + result.gateways.flatMap(\.checks)
        let failures = all.filter { $0.status == .fail }.count
        let warnings = all.filter { $0.status == .warn }.count
        let gateways = result.gatewaysChecked
        let summary =
            "doctor: \(Plural.counted(failures, "failure")), \(Plural.counted(warnings, "warning")), "
            + "\(Plural.counted(gateways, "Gateway")) checked (\(result.elapsed.secondsText(fractionDigits: 2)) s)"
        return terminal.paint(summary, failures > 0 ? .red : warnings > 0 ? .yellow : .green, stderr: true)
    }

    /// Each zone snippet: why, the records to add (or to replace, with nsupdate's form), and the CoreDNS stanza.
    func snippetLines(_ terminal: Terminal) -> [String] {
        guard !result.snippets.isEmpty else { return [] }
        var out = ["", terminal.paint("Zone snippets", .bold)]
        for snippet in result.snippets {
            let differences = SnippetJSON.words(snippet.differences).joined(separator: "; ")
            let why =
                snippet.reason == .missing
                ? "is verified but missing from \(snippet.domain.name)"
                : "is published in \(snippet.domain.name) with stale data (\(differences))"
            let what =
                snippet.reason == .missing
                ? "add these records to the zone" : "replace its records in the zone with these (the old ones out, these in)"
            out.append("  \(snippet.target) \(why); \(what) (or `clawnet doctor --emit-zone FILE`):")
            out += snippet.records.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { "    \($0)" }
            if let update = snippet.update {
                out.append("  or by dynamic update (nsupdate):")
                out += update.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { "    \($0)" }
            }
            if let corefile = snippet.corefile {
                out.append("  served by CoreDNS with (Corefile):")
                out += corefile.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { "    \($0)" }
            }
        }
        return out
    }

    private struct Gateway: Encodable {
        let target: String
        let status: Check.Status
        let beacon: GatewayBeacon?
        let checks: [CheckJSON]

        init(_ gateway: DoctorResult.Gateway) {
            target = gateway.target
            status = gateway.status
            beacon = gateway.beacon
            checks = gateway.checks.map(CheckJSON.init)
        }
    }

    private enum CodingKeys: String, CodingKey { case schema, status, checks, gateways, diagnosis, snippets, elapsedMs }

    /// An error when a check it explains failed, else a warning.
    func severity(of diagnosis: Diagnosis) -> FindingSeverity {
        let failed = diagnosis.evidence.contains { evidence in
            let checks = evidence.target.map { target in result.gateways.filter { $0.target == target }.flatMap(\.checks) } ?? result.checks
            return checks.contains { $0.id == evidence.check && $0.status == .fail }
        }
        return failed ? .error : .warning
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Schema.doctor, forKey: .schema)
        try container.encode(result.status, forKey: .status)
        try container.encode(result.checks.map(CheckJSON.init), forKey: .checks)
        try container.encode(result.gateways.map(Gateway.init), forKey: .gateways)
        try container.encode(result.diagnosis.map { DiagnosisJSON($0, severity: severity(of: $0)) }, forKey: .diagnosis)
        try container.encode(result.snippets.map(SnippetJSON.init), forKey: .snippets)
        try container.encode(Int(result.elapsed.milliseconds), forKey: .elapsedMs)
    }
}

/// A check in doctor's JSON: its id, title and status, its words and its detail; and the same
/// as a finding of OpenClaw's own doctor (`FindingSeverity`).
struct CheckJSON: Encodable {
    let id: CheckID
    let title: String
    let status: Check.Status
    let message: String
    let fix: String?
    let elapsedMs: Int
    let detail: [String: String]
    let checkId: String
    let severity: FindingSeverity
    let fixHint: String?

    init(_ check: Check) {
        let text = CheckText(check)
        id = check.id
        title = check.title
        status = check.status
        message = text.message
        fix = text.fix
        elapsedMs = check.elapsedMs
        detail = CheckDetail.of(check)
        checkId = "clawnet/doctor/\(check.id)"
        severity = FindingSeverity(check.status)
        fixHint = text.fix
    }
}

/// A cause in doctor's JSON: its id, its words, and the checks that show it; and the same as a
/// finding of OpenClaw's own doctor (`FindingSeverity`).
struct DiagnosisJSON: Encodable {
    let id: DiagnosisID
    let cause: String
    let fix: String
    let evidence: [Diagnosis.Evidence]
    let checkId: String
    let severity: FindingSeverity
    let message: String
    let fixHint: String

    init(_ diagnosis: Diagnosis, severity: FindingSeverity) {
        let text = DiagnosisText(diagnosis)
        id = diagnosis.id
        cause = text.cause
        fix = text.fix
        evidence = diagnosis.evidence
        checkId = "clawnet/diagnosis/\(diagnosis.id)"
        self.severity = severity
        message = text.cause
        fixHint = text.fix
    }
}

/// A finding's severity as OpenClaw's doctor writes it (`openclaw doctor --lint --json`:
/// findings[{checkId, severity, message, path, fixHint}], `--severity-min info|warning|error`;
/// openclaw/openclaw docs/cli/doctor.md): a failure is an error, a warning a warning, the rest info.
enum FindingSeverity: String, Encodable {
    case error, warning, info

    init(_ status: Check.Status) {
        switch status {
        case .fail: self = .error
        case .warn: self = .warning
        case .pass, .skip: self = .info
        }
    }
}

/// One check as doctor's table shows it: the mark, the id, the message, and the fix of a
/// warning or failure under it.
enum CheckLine {
    /// Width of the id column.
    static let idWidth = 20

    /// The columns before the message: two spaces, the four-letter mark, two spaces, the id and a space.
    static let messageColumn = 8 + idWidth + 1

    static func lines(id: String, _ status: Check.Status, _ message: String, fix: String?, _ terminal: Terminal, width: Int?) -> [String] {
        let head = "  \(StatusMark.mark(status, terminal))  \(id.padding(idWidth)) "
        var lines = TextWrap.hanging(head, indent: messageColumn, message, width: width)
        if let fix, !fix.isEmpty, status == .warn || status == .fail {
            lines += TextWrap.hanging(String(repeating: " ", count: messageColumn) + "fix: ", indent: messageColumn + 5, fix, width: width)
        }
        return lines
    }

    /// A run of more than two skipped checks with the same reason (`needsTCP`) as one line,
    /// `gw.tls..gw.protocol`: the table shows what ran, the JSON keeps every check.
    static func collapsed(_ checks: [Check]) -> [CollapsedCheck] {
        var result: [CollapsedCheck] = []
        var run: [Check] = []
        func flush() {
            if run.count > 2, let first = run.first, let last = run.last {
                result.append(CollapsedCheck(id: "\(first.id)..\(last.id)", status: .skip, message: CheckText(first).message, fix: nil))
            } else {
                result += run.map(CollapsedCheck.init)
            }
            run = []
        }
        for check in checks {
            if check.status == .skip, let first = run.first, first.reason != check.reason { flush() }
            if check.status == .skip {
                run.append(check)
            } else {
                flush()
                result.append(CollapsedCheck(check))
            }
        }
        flush()
        return result
    }

    static func lines(_ check: CollapsedCheck, _ terminal: Terminal, width: Int? = nil) -> [String] {
        lines(id: check.id, check.status, check.message, fix: check.fix, terminal, width: width)
    }

    struct CollapsedCheck {
        let id: String
        let status: Check.Status
        let message: String
        let fix: String?

        init(id: String, status: Check.Status, message: String, fix: String?) {
            self.id = id
            self.status = status
            self.message = message
            self.fix = fix
        }

        init(_ check: Check) {
            let text = CheckText(check)
            self.init(id: check.id.rawValue, status: check.status, message: text.message, fix: text.fix)
        }
    }
}
