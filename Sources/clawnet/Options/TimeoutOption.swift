import ArgumentParser

/// How a command words --timeout in its help, and what it waits without one.
protocol TimeoutWording {
    static var timeoutHelp: String { get }
    static var defaultTimeout: Duration { get }
}

/// `--timeout DURATION`: the bound of a command, in the forms `Arguments.duration` takes. Each
/// command names its wording (what the bound covers, its default) as the type parameter.
struct TimeoutOption<Wording: TimeoutWording>: ParsableArguments {
    @Option(name: .customLong("timeout"), help: ArgumentHelp(Wording.timeoutHelp, valueName: "DURATION"), transform: Arguments.duration)
    var given: Duration?

    /// --timeout, else the command's default.
    var duration: Duration { given ?? Wording.defaultTimeout }
}
