/// clawnet's exit codes (the README's table), the same for every command; each report says which one
/// it means (`Report.exitStatus`), so the policy lives here and nowhere else.
package enum ExitStatus: Int32, Sendable {
    /// Success; for doctor and preflight: nothing failed.
    case success = 0
    /// A check failed or a required thing was not found.
    case failure = 1
    /// The command line was wrong.
    case usage = 2
    /// An environment prerequisite is missing and nothing could be done.
    case environment = 3

    /// The "Exit status:" paragraph of a command's help, one code a line: what this command
    /// means by each code it can end with. A long meaning goes on under itself (ArgumentParser
    /// would start its next line at the margin). scripts/manpages makes it the man page's EXIT
    /// STATUS, joining those lines again.
    package static func status(_ meanings: (ExitStatus, String)...) -> String {
        // A command whose usage errors include more says so in its own line, which replaces this one.
        let usageLine = meanings.contains { $0.0 == usage } ? [] : [(usage, "usage error: a bad flag or value")]
        let lines = (meanings + usageLine)
            .sorted { $0.0.rawValue < $1.0.rawValue }
            .flatMap { TextWrap.hanging("  \($0.0.rawValue)  ", indent: codeIndent, $0.1, width: helpWidth) }
        return (["Exit status:"] + lines).joined(separator: "\n")
    }

    /// "  3  ": where a meaning starts.
    static let codeIndent = 5
    /// ArgumentParser wraps help to 80 columns and may break a line of 80: these lines stay under.
    static let helpWidth = 79

    /// The contract every command keeps (each command's help says which codes it uses).
    package static let contract = status(
        (success, "success (doctor, preflight, zone check: nothing failed; warnings allowed)"),
        (failure, "a check failed or a required thing was not found"),
        (environment, "a prerequisite is missing, nothing could be done (no D-Bus or avahi-daemon)"))
}
