import DNSSD
import DNSUpdate
import Zones

/// An error that tells the operator what went wrong and how to fix it, printed as
/// `error: MESSAGE` and `  fix: FIX`.
package protocol ExplainedError: Error {
    var message: String { get }
    var fix: String? { get }
    /// The command line lacks something only the user can give (exit 2, as a usage error).
    var isUsage: Bool { get }
}

extension ExplainedError {
    package var isUsage: Bool { false }
}

extension ZoneError: ExplainedError {}
extension UpdateFailure: ExplainedError {}

/// What stopped a command that is neither a zone's nor a DNS server's error: a file it cannot
/// read or write, a name another host holds, a port that is taken.
package struct CommandError: ExplainedError, Sendable, CustomStringConvertible {
    package let message: String
    package let fix: String?

    package init(_ message: String, fix: String? = nil) {
        self.message = message
        self.fix = fix
    }

    package var description: String { message }
}

extension ExitStatus {
    /// The one mapping from what stopped a command to its exit status. A command that ends
    /// with a result returns the status the result means (`Report.exitStatus`); one that cannot
    /// go on throws, and this says what that means: no D-Bus or no avahi-daemon is a missing
    /// prerequisite (3); something only the command line can give and did not is a usage error
    /// (2, as ArgumentParser's at the entry point); everything else is a failure (1).
    package static func of(_ error: any Error) -> ExitStatus {
        switch error {
        case let explained as any ExplainedError where explained.isUsage: .usage
        case let issue as DiscoveryIssue where issue.kind == .busMissing || issue.kind == .daemonMissing: .environment
        default: .failure
        }
    }
}

/// What a command's error prints on stderr.
package enum ErrorLines {
    package static func lines(_ error: any Error, terminal: Terminal) -> [String] {
        switch error {
        case let issue as DiscoveryIssue:
            return IssueLines.lines([issue], terminal: terminal)
        case let explained as any ExplainedError:
            return terminal.errorLines(explained.message, fix: explained.fix)
        default:
            return terminal.errorLines("\(error)", fix: nil)
        }
    }
}
