import ArgumentParser
import FoundationEssentials
import Logging
import Output

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Flag(name: .long, help: "Log what clawnet does (DNS queries and updates, probe phases) to stderr.")
    var verbose = false

    @Flag(name: .customLong("no-color"), help: "No colours (also when NO_COLOR is set).")
    var noColor = false

    /// Set up logging and the terminal once per run.
    func makeTerminal() -> Terminal {
        let level: Logger.Level = verbose ? .debug : .warning
        LoggingSystem.bootstrap { label in
            var handler = SafeLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
        let environment = ProcessInfo.processInfo.environment
        let colorAllowed = !noColor && environment["NO_COLOR"].map(\.isEmpty) ?? true
        return Terminal(color: colorAllowed)
    }
}
