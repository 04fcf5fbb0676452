import Synchronization

/// A first-in, first-out buffer of at most `capacity` elements between concurrent producers and
/// one consumer. A producer that finds it full waits until the consumer takes one: a slow
/// consumer slows the producers down, and the buffer never grows past its bound.
///
/// `close` ends it: waiting and later sends are refused (they return false), and the consumer
/// gets what is queued, then nil. A consumer whose task is cancelled closes it and gets nil at
/// once; a producer whose task is cancelled stops waiting and its element is dropped.
final class BoundedBuffer<Element: Sendable>: Sendable {
    let capacity: Int
    private let state = Mutex(State())

    private struct State {
        var queued: [Element] = []
        var closed = false
        /// The consumer, waiting for an element (only while nothing is queued).
        var consumer: CheckedContinuation<Element?, Never>?
        /// Producers waiting for room, in the order they came.
        var producers: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// Producers cancelled before they began to wait.
        var cancelled: Set<Int> = []
        var nextProducer = 0
    }

    private enum Step {
        case refused, queued
        case full(Int)
        case handed(CheckedContinuation<Element?, Never>)
    }

    init(capacity: Int) {
        precondition(capacity > 0, "a bounded buffer holds at least one element")
        self.capacity = capacity
    }

    /// Queues `element`, waiting while the buffer is full. False when it was dropped: the buffer
    /// is closed, or this task was cancelled while it waited.
    @discardableResult
    func send(_ element: Element) async -> Bool {
        while true {
            let step = state.withLock { state -> Step in
                if state.closed { return .refused }
                if let consumer = state.consumer.take() { return .handed(consumer) }
                guard state.queued.count >= capacity else {
                    state.queued.append(element)
                    return .queued
                }
                state.nextProducer += 1
                return .full(state.nextProducer)
            }
            switch step {
            case .refused: return false
            case .queued: return true
            case .handed(let consumer):
                consumer.resume(returning: element)
                return true
            case .full(let id):
                await waitForRoom(id)
                if Task.isCancelled { return false }
            }
        }
    }

    private func waitForRoom(_ id: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if state.closed || state.queued.count < capacity || state.cancelled.remove(id) != nil { return true }
                    state.producers.append((id, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if let index = state.producers.firstIndex(where: { $0.id == id }) { return state.producers.remove(at: index).continuation }
                state.cancelled.insert(id)
                return nil
            }
            waiting?.resume()
        }
        // Cancelled after it was let through: nothing is left to remember.
        state.withLock { _ = $0.cancelled.remove(id) }
    }

    /// The oldest element, waiting while none is queued; nil once the buffer is closed and
    /// drained, or when this task is cancelled.
    func next() async -> Element? {
        guard !Task.isCancelled else {
            close()
            return nil
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let (element, producer) = state.withLock { state -> (Element??, CheckedContinuation<Void, Never>?) in
                    guard state.queued.isEmpty else {
                        let element = state.queued.removeFirst()
                        return (element, state.producers.isEmpty ? nil : state.producers.removeFirst().continuation)
                    }
                    if state.closed { return (.some(nil), nil) }
                    state.consumer = continuation
                    return (nil, nil)
                }
                producer?.resume()
                if let element { continuation.resume(returning: element) }
            }
        } onCancel: {
            close()
        }
    }

    /// How many elements are queued and how many producers wait for room (for tests).
    var occupancy: (queued: Int, waiting: Int) { state.withLock { ($0.queued.count, $0.producers.count) } }

    /// Refuses further elements and lets every waiting producer go; the consumer gets what is
    /// queued, then nil.
    func close() {
        let (consumer, producers) = state.withLock { state in
            state.closed = true
            defer { state.producers.removeAll() }
            return (state.consumer.take(), state.producers.map(\.continuation))
        }
        consumer?.resume(returning: nil)
        for producer in producers { producer.resume() }
    }
}
