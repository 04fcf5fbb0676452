import NIOCore
import Synchronization

extension EventLoopFuture where Value: Sendable {
    /// The future's value, like `get()`, but a cancelled task stops waiting at once with
    /// CancellationError. The work behind the future goes on to its own end (a query has its
    /// timeout); only the wait is cut short, so a task group of queries ends when it is cancelled.
    public func valueUnlessCancelled() async throws -> Value {
        let outcome = FirstOutcome<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.arm(continuation)
                whenComplete { outcome.settle($0) }
            }
        } onCancel: {
            outcome.settle(.failure(CancellationError()))
        }
    }
}

/// The first of a future's result and a cancellation, delivered once, whichever order the
/// continuation and the outcome arrive in.
private final class FirstOutcome<Value: Sendable>: Sendable {
    private enum State {
        case waiting(Result<Value, any Error>?)
        case armed(CheckedContinuation<Value, any Error>)
        case done
    }

    private let state = Mutex<State>(.waiting(nil))

    func arm(_ continuation: CheckedContinuation<Value, any Error>) {
        let early = state.withLock { state -> Result<Value, any Error>? in
            guard case .waiting(let early) = state else { return nil }
            state = early == nil ? .armed(continuation) : .done
            return early
        }
        if let early { continuation.resume(with: early) }
    }

    func settle(_ result: Result<Value, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            switch state {
            case .waiting(nil):
                state = .waiting(result)
                return nil
            case .armed(let continuation):
                state = .done
                return continuation
            case .waiting, .done:
                return nil
            }
        }
        continuation?.resume(with: result)
    }
}
