import Glibc
import Synchronization

/// Threads for calls that block (getaddrinfo, D-Bus): never one of the few threads Swift
/// concurrency and Dispatch share (as many as cores), because a resolver that never answers
/// would hold those and stall every timer in the process. At most `limit` threads at once,
/// each taking the next waiting job when it is done; more jobs wait their turn.
package final class BlockingThreads: Sendable {
    package static let shared = BlockingThreads(limit: 32)
    /// getaddrinfo alone: a resolver that never answers holds each lookup's thread for its own
    /// timeout (30 s and more), long after the command's deadline dropped the answer. Those
    /// threads are never the ones D-Bus, Avahi and the machine's facts wait for.
    package static let lookups = BlockingThreads(limit: 32)

    private let limit: Int
    private let state = Mutex<(running: Int, waiting: [@Sendable () -> Void])>((0, []))

    init(limit: Int) {
        self.limit = limit
    }

    /// `body`'s result, computed on one of these threads.
    package func value<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            run { continuation.resume(returning: body()) }
        }
    }

    package func run(_ job: @escaping @Sendable () -> Void) {
        let start = state.withLock { state in
            guard state.running < limit else {
                state.waiting.append(job)
                return false
            }
            state.running += 1
            return true
        }
        guard start else { return }
        let worker = Worker { [self] in
            var next: (@Sendable () -> Void)? = job
            while let current = next {
                current()
                next = state.withLock { state in
                    guard !state.waiting.isEmpty else {
                        state.running -= 1
                        return nil
                    }
                    return state.waiting.removeFirst()
                }
            }
        }
        if !worker.start() {
            // No thread to be had (a process limit): run here rather than lose the lookup.
            state.withLock { $0.running -= 1 }
            job()
        }
    }
}

/// A detached POSIX thread running one closure.
private final class Worker: Sendable {
    private let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    func start() -> Bool {
        let retained = Unmanaged.passRetained(self).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        defer { pthread_attr_destroy(&attributes) }
        var thread = pthread_t()
        let started = pthread_create(
            &thread, &attributes,
            { raw in
                Unmanaged<Worker>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, retained)
        if started != 0 { Unmanaged<Worker>.fromOpaque(retained).release() }
        return started == 0
    }
}
