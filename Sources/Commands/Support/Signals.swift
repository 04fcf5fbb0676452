import Dispatch
import Glibc
import Output

/// SIGINT and SIGTERM as an async stream, so a command can clean up instead of dying. A
/// stdout that can no longer be written (its reader went away) ends a command the same way,
/// as SIGPIPE would have without its cleanup.
enum Signals {
    static func termination() -> AsyncStream<Int32> {
        AsyncStream { continuation in
            let sources = SignalSources(signals: [SIGINT, SIGTERM]) { continuation.yield($0) }
            StandardStreams.onStdoutFailure { continuation.yield(SIGPIPE) }
            continuation.onTermination = { _ in sources.cancel() }
        }
    }

    /// SIGHUP, the daemon's "reread your configuration".
    static func hangups() -> AsyncStream<Void> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let sources = SignalSources(signals: [SIGHUP]) { _ in continuation.yield() }
            continuation.onTermination = { _ in sources.cancel() }
        }
    }
}

/// Dispatch signal sources kept alive while the stream is read.
///
/// Threading contract, hence `@unchecked Sendable`: `sources` is set once in `init` and never
/// changes; a DispatchSource may be cancelled from any thread, and its handler (which only
/// yields to a continuation, itself Sendable) runs on a global queue.
private final class SignalSources: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    func cancel() {
        sources.forEach { $0.cancel() }
    }
}
