import DNSSD
import NIOCore
import NIOSupport

/// A WebSocket held idle behind a proxy. OpenClaw's Gateway sends a tick every 30 s
/// (TICK_INTERVAL_MS, src/gateway/server-constants.ts): a proxy whose idle timeout is shorter
/// (nginx proxy_read_timeout, Caddy's stream timeouts, a load balancer's idle timeout) cuts the
/// WebSocket between ticks, though the opening works. doctor cannot read a proxy's timeout; it
/// can hold one WebSocket idle for a few seconds after the challenge and see whether it is cut.
/// Timeouts between that and 30 s stay out of its sight, and the report says so.
extension GatewayProbe {
    /// OpenClaw's tick: a proxy must keep an idle WebSocket open at least this long.
    package static let tickInterval = Duration.seconds(30)
    /// The longest doctor holds a WebSocket idle: enough to catch the short timeouts set by hand
    /// (1-3 s), short enough to stay inside doctor's default budget of 5 s.
    package static let idleWatch = Duration.seconds(3)

    /// A WebSocket of its own, opened, then held idle after the challenge until it is closed or
    /// the watch (or the budget) ends.
    static func idlePhase(_ target: ProbeTarget, _ address: IPAddress, _ clock: ProbeClock) async -> PhaseTiming<IdleOutcome> {
        var held = IdleOutcome.notWatched("no connect.challenge to wait after")
        let opening = await phase(target, address, clock, failed: WebSocketOutcome.failed) { connection, timeout in
            let (outcome, _) = await WebSocketProbe.open(host: hostHeader(target), on: connection, timeout: timeout) { _ in
                held = await holdIdle(connection.channel, for: min(idleWatch, clock.remaining))
                return nil
            }
            return outcome
        }
        if case .notWatched = held { held = .notWatched("\(opening.outcome)") }
        return PhaseTiming(outcome: held, elapsed: opening.elapsed)
    }

    /// Waits for the channel to close, at most `watch`.
    static func holdIdle(_ channel: any Channel, for watch: Duration) async -> IdleOutcome {
        let started = ContinuousClock.now
        let promise = channel.eventLoop.makePromise(of: Bool.self)
        channel.closeFuture.whenComplete { _ in promise.succeed(true) }
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(watch)) { promise.succeed(false) }
        defer { timer.cancel() }
        let closed = (try? await promise.valueUnlessCancelled()) ?? false
        return closed ? .closed(after: ContinuousClock.now - started) : .heldOpen(watch)
    }
}
