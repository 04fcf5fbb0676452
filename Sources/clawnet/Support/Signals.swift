import Dispatch
import Glibc

/// SIGINT and SIGTERM as an async stream, so a command can clean up instead of dying.
enum Signals {
    static func termination() -> AsyncStream<Int32> {
        AsyncStream { continuation in
            let sources = SignalSources(signals: [SIGINT, SIGTERM]) { continuation.yield($0) }
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
