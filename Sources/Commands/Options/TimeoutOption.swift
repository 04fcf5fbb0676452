import ArgumentParser

/// How a command words --timeout in its help, and what it waits without one.
protocol TimeoutWording {
    static var timeoutHelp: String { get }
    static var defaultTimeout: Duration { get }
}

/// `--timeout DURATION`: the bound of a command, in the forms `Arguments.duration` takes. Each
/// command names its wording (what the bound covers, its default) as the type parameter.
struct TimeoutOption<Wording: TimeoutWording>: ParsableArguments {
    // Unconditional: `--timeout -1s` reaches the duration parser, which says a duration cannot
    // be negative, instead of ArgumentParser's "missing value".
    @Option(
        name: .customLong("timeout"), parsing: .unconditional, help: ArgumentHelp(Wording.timeoutHelp, valueName: "DURATION"),
        transform: Arguments.duration)
    var given: Duration?

    /// --timeout, else the command's default.
    var duration: Duration { given ?? Wording.defaultTimeout }
}
