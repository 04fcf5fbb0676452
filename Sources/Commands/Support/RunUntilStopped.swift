/// How a command that runs until it is stopped ends: its body returns by itself, or one of
/// the stops cancels it (a signal, `--timeout`, stdout gone) and it returns what it has.
/// The one lifecycle of watch, browse and advertise, in the shape of swift-service-lifecycle's
/// cancelOnGracefulShutdown: every task is a child of one group, none outlives the command.
extension CommandContext {
    /// Runs `body` until it returns; a signal on `signals`, the end of `timeout` or stdout gone
    /// (`onOutputGone`) cancels it first. `body` must honour cancellation, returning promptly.
    func runUntilStopped<Value: Sendable>(
        signals: AsyncStream<Int32>? = nil, timeout: Duration? = nil, _ body: @escaping @Sendable () async -> Value
    ) async -> Value {
        let (outputGone, gone) = AsyncStream<Void>.makeStream()
        onOutputGone { gone.yield() }
        return await withTaskGroup(of: StopEnding<Value>.self) { group in
            group.addTask { .finished(await body()) }
            if let signals {
                group.addTask {
                    for await _ in signals { return .stop }
                    return .none
                }
            }
            if let timeout { group.addTask { (try? await Task.sleep(for: timeout)) == nil ? .none : .stop } }
            group.addTask {
                for await _ in outputGone { return .stop }
                return .none
            }
            while let ending = await group.next() {
                switch ending {
                case .finished(let value):
                    group.cancelAll()
                    gone.finish()
                    return value
                case .stop: group.cancelAll()
                case .none: continue
                }
            }
            // The body's task always ends with .finished; a group cannot end without it.
            preconditionFailure("runUntilStopped's body did not finish")
        }
    }
}

/// What ends a `runUntilStopped`: the body's value, a stop, or a stop that will never come (its
/// stream ended, or it was cancelled).
private enum StopEnding<Value: Sendable>: Sendable {
    case finished(Value)
    case stop
    case none
}
