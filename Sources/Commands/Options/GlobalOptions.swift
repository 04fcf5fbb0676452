import ArgumentParser
import Logging

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Flag(name: .long, help: "Log what clawnet does (DNS queries and updates, probe phases) to stderr.")
    var verbose = false

    @Flag(name: .customLong("no-color"), help: "No colours (also when NO_COLOR is set).")
    var noColor = false

    /// Colours unless --no-color or a non-empty NO_COLOR (no-color.org).
    func colorAllowed(environment: [String: String]) -> Bool {
        !noColor && environment["NO_COLOR"].map(\.isEmpty) ?? true
    }

    /// `--verbose` logs at debug level, else only warnings; once per process.
    func bootstrapLogging() {
        let level: Logger.Level = verbose ? .debug : .warning
        LoggingSystem.bootstrap { label in
            var handler = SafeLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
