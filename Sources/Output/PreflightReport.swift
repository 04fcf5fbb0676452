import DNSSD
import Doctor

/// The `clawnet.preflight.v1` document: a yes or no per requirement, and the exit code.
public struct PreflightReport: Report, Sendable {
    public let requirements: [Preflight.Result]
    public let elapsed: Duration
    /// What preflight fell back on or warns about: a config it could not read (defaults were
    /// used), a secret file others can read. Printed to stderr as well.
    public let warnings: [String]

    public init(requirements: [Preflight.Result], elapsed: Duration, warnings: [String] = []) {
        self.requirements = requirements
        self.elapsed = elapsed
        self.warnings = warnings
    }

    public var ok: Bool { requirements.allSatisfy(\.ok) }

    /// 0: all good; 3: every unmet requirement lacks a prerequisite; 1: otherwise.
    public var exitStatus: ExitStatus {
        if ok { return .success }
        return requirements.filter { !$0.ok }.allSatisfy(\.missingPrerequisite) ? .environment : .failure
    }

    public func table(_ terminal: Terminal) -> Lines {
        var lines = Lines()
        for result in requirements {
            lines.out.append(
                "\(StatusMark.mark(ok: result.ok, terminal))  \(result.name.rawValue.padding(Self.nameWidth)) \(result.message)")
            if let fix = result.fix, !result.ok { lines.out.append("      \(String().padding(Self.nameWidth)) fix: \(fix)") }
        }
        lines.err.append(terminal.paint("preflight: \(ok ? "ready" : "not ready") (exit \(exitStatus.rawValue))", .dim, stderr: true))
        return lines
    }

    /// Width of the requirement column ("wide-area" and a space).
    static let nameWidth = 10

    private enum CodingKeys: String, CodingKey { case schema, ok, exitCode, requirements, elapsedMs, warnings }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Schema.preflight, forKey: .schema)
        try container.encode(ok, forKey: .ok)
        try container.encode(exitStatus.rawValue, forKey: .exitCode)
        try container.encode(requirements, forKey: .requirements)
        try container.encode(Int(elapsed.milliseconds), forKey: .elapsedMs)
        if !warnings.isEmpty { try container.encode(warnings, forKey: .warnings) }
    }
}
