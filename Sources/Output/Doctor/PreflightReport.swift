import DNSSD
import Doctor

/// The `clawnet.preflight.v2` document: a status per requirement (pass or fail, doctor's
/// words), and the exit code.
package struct PreflightReport: Report, Sendable {
    package let requirements: [Preflight.Result]
    package let elapsed: Duration
    /// What preflight fell back on or warns about: a config it could not read (defaults were
    /// used), a secret file others can read. Printed to stderr as well.
    package let warnings: [String]
    /// The width the table's lines are wrapped to; nil: each line as it is.
    package var width: Int?

    package init(requirements: [Preflight.Result], elapsed: Duration, warnings: [String] = [], width: Int? = nil) {
        self.requirements = requirements
        self.elapsed = elapsed
        self.warnings = warnings
        self.width = width
    }

    package var ok: Bool { requirements.allSatisfy(\.ok) }

    /// 0: all good; 3: every unmet requirement lacks a prerequisite; 1: otherwise.
    package var exitStatus: ExitStatus {
        if ok { return .success }
        return requirements.filter { !$0.ok }.allSatisfy(\.missingPrerequisite) ? .environment : .failure
    }

    package func table(_ terminal: Terminal) -> Lines {
        var lines = Lines()
        for result in requirements {
            let text = PreflightText(result)
            let head = "\(StatusMark.mark(ok: result.ok, terminal))  \(result.name.rawValue.padding(Self.nameWidth)) "
            lines.out += TextWrap.hanging(head, indent: Self.messageColumn, text.message, width: width)
            if let fix = text.fix, !result.ok {
                let fixHead = String(repeating: " ", count: Self.messageColumn) + "fix: "
                lines.out += TextWrap.hanging(fixHead, indent: Self.messageColumn + 5, fix, width: width)
            }
        }
        return lines
    }

    /// `preflight: ready (exit 0)`, with the status the command ends with once its output is
    /// accounted for: never "exit 0" when the table could not be written.
    package func summary(_ terminal: Terminal, exit: Int32) -> String? {
        terminal.paint("preflight: \(ok ? "ready" : "not ready") (exit \(exit))", .dim, stderr: true)
    }

    /// Width of the requirement column ("wide-area" and a space).
    static let nameWidth = 10
    /// The columns before the message: the four-letter mark, two spaces, the name and a space.
    static let messageColumn = 6 + nameWidth + 1

    private enum CodingKeys: String, CodingKey { case schema, status, exitCode, requirements, elapsedMs, warnings }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Schema.preflight, forKey: .schema)
        try container.encode(ok ? Check.Status.pass : .fail, forKey: .status)
        try container.encode(exitStatus.rawValue, forKey: .exitCode)
        try container.encode(requirements.map(PreflightText.init), forKey: .requirements)
        try container.encode(Int(elapsed.milliseconds), forKey: .elapsedMs)
        if !warnings.isEmpty { try container.encode(warnings, forKey: .warnings) }
    }
}

/// A requirement's words, written from what decided it; in the JSON, with its name and verdict.
struct PreflightText: Encodable {
    let name: Preflight.Requirement
    /// pass or fail, as doctor's checks say it.
    let status: Check.Status
    let missingPrerequisite: Bool
    let message: String
    let fix: String?

    init(_ result: Preflight.Result) {
        name = result.name
        status = result.ok ? .pass : .fail
        missingPrerequisite = result.missingPrerequisite
        switch result.finding {
        case .check(let check):
            let text = CheckText(check)
            (message, fix) = (text.message, result.ok ? nil : text.fix)
        case .mdnsWorks: (message, fix) = ("mDNS works", nil)
        case .noDomain(let check):
            message = check.map { CheckText($0).message } ?? "no wide-area domain configured"
            fix = "set discovery.wideArea.domain in ~/.openclaw/openclaw.json, OPENCLAW_WIDE_AREA_DOMAIN, or --domain"
        case .gatewayAnswers(let target): (message, fix) = ("\(target) answers with connect.challenge", nil)
        case .gatewayFailed(let target, let check):
            let text = CheckText(check)
            (message, fix) = ("\(target): \(text.message)", text.fix)
        case .noGateway: (message, fix) = ("no Gateway found", "run `clawnet doctor` for the details")
        }
    }
}
