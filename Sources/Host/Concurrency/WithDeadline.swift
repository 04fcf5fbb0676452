/// Runs `body` until it returns or `timeout` has passed; then `body` is cancelled, and what it
/// returns once cancelled is the value (`timedOut` true). `body` must honour cancellation
/// promptly, returning what it has (a `Latch` whose `onCancel` delivers does). A cancelled
/// caller cancels `body` too (`timedOut` false). The one timer the house needs for a wait
/// that cannot be told its time limit.
package func withDeadline<Value: Sendable>(
    _ timeout: Duration, _ body: @escaping @Sendable () async -> Value
) async -> (value: Value, timedOut: Bool) {
    await withTaskGroup(of: DeadlineEnding<Value>.self) { group in
        group.addTask { .finished(await body()) }
        group.addTask { (try? await Task.sleep(for: timeout)) == nil ? .cancelled : .deadline }
        var timedOut = false
        while let ending = await group.next() {
            switch ending {
            case .finished(let value):
                group.cancelAll()
                return (value, timedOut)
            case .deadline:
                timedOut = true
                group.cancelAll()
            case .cancelled:
                continue
            }
        }
        // The body's task always ends with .finished; a group cannot end without it.
        preconditionFailure("withDeadline's body did not finish")
    }
}

/// What ends a `withDeadline`: the body's value, the deadline, or a deadline that will never come.
private enum DeadlineEnding<Value: Sendable>: Sendable {
    case finished(Value)
    case deadline
    case cancelled
}
