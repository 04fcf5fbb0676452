/// clawnet's exit codes (DESIGN.md), the same for every command; each report says which one
/// it means (`Report.exitStatus`), so the policy lives here and nowhere else.
public enum ExitStatus: Int32, Sendable {
    /// Success; for doctor and preflight: nothing failed.
    case success = 0
    /// A check failed or a required thing was not found.
    case failure = 1
    /// The command line was wrong.
    case usage = 2
    /// An environment prerequisite is missing and nothing could be done.
    case environment = 3

    public static let helpText = """
        Exit codes: 0 success, 1 a check failed or a required thing was not found, \
        2 usage error, 3 an environment prerequisite is missing and nothing could be done \
        (for example no D-Bus and no other backend asked for).
        """
}
