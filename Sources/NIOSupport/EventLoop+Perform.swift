import NIOCore

extension EventLoop {
    /// `body` on this loop: at once when the caller already runs on its thread (a probe whose
    /// task prefers its channel's loop, `EventLoopTaskExecutor`), else submitted. A submit from
    /// the loop's own thread costs a task, a promise and a turn of the loop for nothing, and
    /// watch makes several per probe.
    package func perform<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        if inEventLoop { return try body() }
        return try await submit(body).get()
    }
}
