import DNSSD
import FoundationEssentials

/// An opening the Gateway refused with a transient 503, and how long doctor waited before it.
package struct UpgradeTry: Sendable, Hashable {
    package let rejection: UpgradeRejection
    /// The wait before this opening (zero for the first).
    package let waited: Duration
}

/// What OpenClaw's clients do after a 503 to the upgrade: the connect error is UNAVAILABLE and
/// retryable, and the client opens a new WebSocket after its reconnect backoff (1 s, doubling,
/// at most 30 s: packages/gateway-client/src/client.ts; client.handshake.test.ts sees the
/// second request). doctor does the same within its budget, and waits what a Retry-After asks
/// when the 503 carries one. A 429 is never asked again (waiting out its Retry-After is the
/// fix), and neither is any other refusal, nor a 503 for too many unauthenticated connections
/// (another one would only add to them).
enum UpgradeRetry {
    static let firstDelay = Duration.seconds(1)
    static let longestDelay = Duration.seconds(30)
    /// A Gateway restarting for longer than the budget is asked at most this often.
    static let maxTries = 8

    /// The wait before the next opening, after `refused` (every opening refused so far, the last
    /// one just now), or nil when there is none.
    static func delay(after refused: [UpgradeTry], remaining: Duration) -> Duration? {
        guard let last = refused.last, refused.count < maxTries, case .unavailable(let reason) = last.rejection.kind,
            reason.isTransient
        else { return nil }
        let backoff = min(firstDelay * (1 << min(refused.count - 1, 5)), longestDelay)
        let delay = last.rejection.retryAfter.map { $0.wait(from: .now) } ?? backoff
        return remaining >= delay + ConnectRetry.minimumTryTime ? delay : nil
    }
}

extension GatewayProbe {
    /// The opening (on `opened` first), asked again on a new connection while the Gateway answers
    /// with a transient 503 and the budget allows; the refused openings before the last one.
    static func openUntilAdmitted(
        _ target: ProbeTarget, _ address: IPAddress, _ clock: ProbeClock, plan: ConnectRetry.Plan?, opened: ProbeConnection?
    ) async -> (Opened, [UpgradeTry]) {
        var latest = await openAndConnect(target, address, clock, plan: plan, opened: opened)
        var refusals: [UpgradeTry] = []
        var waited = Duration.zero
        while let rejection = latest.opening.outcome.rejection {
            let refused = refusals + [UpgradeTry(rejection: rejection, waited: waited)]
            guard let delay = UpgradeRetry.delay(after: refused, remaining: clock.remaining) else { break }
            refusals = refused
            try? await Task.sleep(for: delay)
            waited = delay
            latest = await openAndConnect(target, address, clock, plan: plan)
        }
        return (latest, refusals)
    }
}

extension WebSocketOutcome {
    /// The rejection, when the server answered the upgrade with another status.
    package var rejection: UpgradeRejection? {
        if case .upgradeRefused(let rejection) = self { return rejection }
        return nil
    }
}

extension WebSocketOutcome {
    /// A refusal known by its status only (recorded answers, tests).
    package static func upgradeRefused(status: Int) -> WebSocketOutcome { .upgradeRefused(UpgradeRejection(status: status)) }
}
