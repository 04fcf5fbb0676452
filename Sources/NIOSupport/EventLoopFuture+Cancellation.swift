import Host
import NIOCore

extension EventLoopFuture where Value: Sendable {
    /// The future's value, like `get()`, but a cancelled task stops waiting at once with
    /// CancellationError. The work behind the future goes on to its own end (a query has its
    /// timeout); only the wait is cut short, so a task group of queries ends when it is cancelled.
    package func valueUnlessCancelled() async throws -> Value {
        let outcome = Latch<Result<Value, any Error>>()
        whenComplete { outcome.deliver($0) }
        return try await outcome.value(onCancel: { outcome.deliver(.failure(CancellationError())) }).get()
    }
}
