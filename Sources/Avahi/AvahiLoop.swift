import CAvahi
import Host
import Synchronization

/// One Avahi threaded poll and what a session creates on it (a client, its browsers,
/// resolvers and entry groups), with a lifecycle in which setup and teardown cannot overlap:
///
/// 1. `start` runs on a BlockingThreads thread, never on the cooperative pool (creating a
///    client and its objects are blocking D-Bus round trips). It starts the poll thread, then
///    runs the session's setup with the poll locked, so no Avahi callback runs before the setup
///    has finished.
/// 2. From then on the session's objects are used only in Avahi callbacks and poll timeouts,
///    on the poll thread.
/// 3. `stop` may be asked from any thread, the poll thread included, any number of times. The
///    teardown (stop and join the poll thread, the session's `release`, free the poll) runs
///    once, after the setup has finished, on a thread that is neither the poll thread (which
///    cannot join itself) nor the cooperative pool.
///
/// Threading contract, hence `@unchecked Sendable`: `poll` and `api` never change and are used
/// only as steps 1 to 3 allow; everything else is behind `phase`'s mutex.
final class AvahiLoop: @unchecked Sendable {
    let api: UnsafePointer<AvahiPoll>
    private let poll: OpaquePointer
    private let phase = Mutex(Phase())

    private struct Phase {
        var setUp = false
        var threadRunning = false
        /// The session's release, once stopping was asked; nil again once the teardown began.
        var release: (@Sendable () -> Void)?
        var stopping = false
    }

    /// nil when Avahi cannot make an event loop (out of memory).
    init?() {
        guard let poll = avahi_threaded_poll_new(), let api = avahi_threaded_poll_get(poll) else { return nil }
        self.poll = poll
        self.api = api
    }

    /// Step 1: `setup` runs on a blocking thread with the poll locked; its argument is false
    /// when no poll thread could be started (then nothing it creates would ever be served).
    func start(_ setup: @escaping @Sendable (_ running: Bool) -> Void) {
        BlockingThreads.shared.run { [self] in
            // Ended before it began (a stream dropped at once): nothing to set up.
            let wanted = !phase.withLock { $0.stopping }
            let running = wanted && avahi_threaded_poll_start(poll) == 0
            if running { avahi_threaded_poll_lock(poll) }
            if wanted { setup(running) }
            if running { avahi_threaded_poll_unlock(poll) }
            let release = phase.withLock { phase in
                phase.setUp = true
                phase.threadRunning = running
                return phase.stopping ? phase.release.take() : nil
            }
            if let release { tearDown(release) }
        }
    }

    /// Step 3: `release` frees the session's objects (its client first); it runs after the poll
    /// thread has stopped. Only the first call's `release` is used.
    func stop(release: @escaping @Sendable () -> Void) {
        let now = phase.withLock { phase -> (@Sendable () -> Void)? in
            guard !phase.stopping else { return nil }
            phase.stopping = true
            guard phase.setUp else {
                phase.release = release
                return nil
            }
            return release
        }
        // Never on the poll thread, which may be the caller (a callback that ends the session).
        if let now { BlockingThreads.shared.run { [self] in tearDown(now) } }
    }

    private func tearDown(_ release: @Sendable () -> Void) {
        if phase.withLock({ $0.threadRunning }) { avahi_threaded_poll_stop(poll) }
        release()
        avahi_threaded_poll_free(poll)
    }
}
