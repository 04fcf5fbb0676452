import Synchronization

/// One value, delivered once to one waiter, whichever comes first: the value (a late one is
/// dropped) or the wait. The bridge from callbacks (a blocking thread, an event loop, Avahi's
/// poll thread) to a task: the waiter returns when the value comes, or when its task is
/// cancelled and `onCancel` delivers one, never later.
package final class Latch<Value: Sendable>: Sendable {
    private enum State {
        case empty
        case delivered(Value)
        case waiting(CheckedContinuation<Value, Never>)
        case done
    }

    private let state = Mutex<State>(.empty)

    package init() {}

    /// Delivers `value` unless one was delivered before; true when this one counts.
    @discardableResult
    package func deliver(_ value: Value) -> Bool {
        let (counts, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Value, Never>?) in
            switch state {
            case .empty:
                state = .delivered(value)
                return (true, nil)
            case .waiting(let continuation):
                state = .done
                return (true, continuation)
            case .delivered, .done:
                return (false, nil)
            }
        }
        waiter?.resume(returning: value)
        return counts
    }

    /// The value, once delivered. When the waiting task is cancelled, `onCancel` runs (once) and
    /// must deliver one: the wait ends with whatever is delivered first. One waiter only.
    package func value(onCancel: @escaping @Sendable () -> Void) async -> Value {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let early = state.withLock { state -> Value? in
                    switch state {
                    case .empty:
                        state = .waiting(continuation)
                        return nil
                    case .delivered(let value):
                        state = .done
                        return value
                    case .waiting, .done:
                        // A second waiter is a mistake of the caller's; it is never left hanging.
                        preconditionFailure("a Latch has one waiter")
                    }
                }
                if let early { continuation.resume(returning: early) }
            }
        } onCancel: {
            onCancel()
        }
    }
}
