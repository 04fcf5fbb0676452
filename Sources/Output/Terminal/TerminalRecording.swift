import Synchronization

/// What a `Terminal` made with `init(recordingTo:)` wrote, stream by stream, in order: a test
/// runs a command in-process and reads its output here, rendered exactly as it would reach the
/// standard streams, or waits for a line of it.
package final class TerminalRecording: Sendable {
    package enum Stream: Sendable, Equatable {
        case out, err
    }

    private struct State {
        var writes: [(stream: Stream, text: String)] = []
        /// Who waits for which text to be written.
        var waiters: [(id: Int, text: String, continuation: CheckedContinuation<Void, Never>)] = []
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    package init() {}

    func append(_ text: String, to stream: Stream) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.writes.append((stream, text))
            let all = state.writes.map(\.text).joined()
            let (met, waiting) = state.waiters.partitioned { all.contains($0.text) }
            state.waiters = waiting
            return met.map(\.continuation)
        }
        ready.forEach { $0.resume() }
    }

    /// Everything written to stdout.
    package var out: String { text(of: .out) }

    /// Everything written to stderr.
    package var err: String { text(of: .err) }

    /// Returns once `text` has been written to either stream (at once when it has), or when
    /// the task is cancelled.
    package func written(_ text: String) async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let met = state.withLock { state -> Bool in
                    guard !Task.isCancelled, !state.writes.map(\.text).joined().contains(text) else { return true }
                    state.waiters.append((id, text, continuation))
                    return false
                }
                if met { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0).continuation }
            }
            waiter?.resume()
        }
    }

    private func text(of stream: Stream) -> String {
        state.withLock { $0.writes.filter { $0.stream == stream }.map(\.text).joined() }
    }
}

extension Array {
    /// The elements that match, and those that do not, each in order.
    fileprivate func partitioned(_ matches: (Element) -> Bool) -> (matching: [Element], rest: [Element]) {
        (filter(matches), filter { !matches($0) })
    }
}
