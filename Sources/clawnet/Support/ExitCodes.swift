import ArgumentParser

/// clawnet's exit codes (DESIGN.md), shared by every command.
enum Exit {
    /// Success; for doctor and preflight: nothing failed.
    static let success = ExitCode(0)
    /// A check failed or a required thing was not found.
    static let failure = ExitCode(1)
    /// The command line was wrong.
    static let usage = ExitCode(2)
    /// An environment prerequisite is missing and nothing could be done.
    static let environment = ExitCode(3)

    static let helpText = """
        Exit codes: 0 success, 1 a check failed or a required thing was not found, \
        2 usage error, 3 an environment prerequisite is missing and nothing could be done \
        (for example no D-Bus and no other backend asked for).
        """
}
