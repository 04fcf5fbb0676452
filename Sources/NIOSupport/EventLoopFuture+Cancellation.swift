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

extension EventLoopPromise where Value: Sendable {
    /// The promise's value, like `futureResult.get()`, but a cancelled task fails the promise
    /// with CancellationError at once. For a promise the waiter owns (a probe's answer, with its
    /// timer): it ends on the path its timeout takes, so nothing waits on after a SIGTERM or
    /// --timeout (`get()` alone ignores cancellation and waited for the whole probe budget).
    package func valueUnlessCancelled() async throws -> Value {
        try await withTaskCancellationHandler {
            try await futureResult.get()
        } onCancel: {
            fail(CancellationError())
        }
    }
}
