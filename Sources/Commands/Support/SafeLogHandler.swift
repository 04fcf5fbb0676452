import DNSSD
import Glibc
import Logging
import Output

/// `--verbose` logging on stderr, as terminal-safe as everything else clawnet prints: a log
/// line may carry names, answers or errors from the network, so its control characters are
/// escaped (`SafeText.line`) before it is written, which swift-log's own stream handler
/// would not do.
struct SafeLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        Terminal.write(line(event) + "\n", to: STDERR_FILENO)
    }

    func line(_ event: LogEvent) -> String {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let details = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return SafeText.line("\(event.level) \(label): \(event.message)\(details)")
    }
}
