/// An event of a stream read against a deadline.
enum DeadlineEvent<Element: Sendable>: Sendable {
    case element(Element)
    case deadline
}

extension AsyncStream where Element: Sendable {
    /// The elements of this stream, then `.deadline` if `deadline` passes before the stream
    /// ends. Stopping iteration (or the deadline) cancels the reading of this stream, which
    /// lets its producer clean up.
    func until(_ deadline: Duration?) -> AsyncStream<DeadlineEvent<Element>> {
        AsyncStream<DeadlineEvent<Element>>(bufferingPolicy: .unbounded) { continuation in
            let reader = Task {
                for await element in self { continuation.yield(.element(element)) }
                continuation.finish()
            }
            let timer = Task {
                guard let deadline else { return }
                try await Task.sleep(for: deadline)
                continuation.yield(.deadline)
                continuation.finish()
            }
            continuation.onTermination = { _ in
                reader.cancel()
                timer.cancel()
            }
        }
    }
}
