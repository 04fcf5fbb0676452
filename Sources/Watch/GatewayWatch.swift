import DNSSD
import Doctor
import FoundationEssentials

/// The state of one watched Gateway and the events each probe makes of it. Pure: times are
/// durations since the watch began, handed in, so that a table of probes and times is a test.
package struct GatewayWatch: Sendable, Equatable {
    package enum Health: String, Sendable, Equatable {
        case unknown, up, down
    }

    package private(set) var health = Health.unknown
    /// Consecutive failed probes (the backoff and the hysteresis count them).
    package private(set) var failures = 0
    package private(set) var flapping = false
    /// When health last changed (since the watch began); nil before the first verdict.
    package private(set) var lastChange: Duration?
    /// The last probe's verdict.
    package private(set) var last: ProbeVerdict?
    /// Up/down changes within the flap window, oldest first (at most `policy.flapChanges`).
    private var changes: [Duration] = []
    /// The certificate an expiry was reported for, so that it is reported once.
    private var expiryReported: TLSFingerprint?
    /// The failing check and diagnosis the last `down` named: while down, another one is news.
    private var reportedCause: Cause?

    private struct Cause: Sendable, Equatable {
        let check: CheckID
        let diagnosis: DiagnosisID
    }

    package init() {}

    /// Takes one probe's verdict at `now` (`date` on the wall clock) and returns what changed.
    package mutating func observe(_ verdict: ProbeVerdict, at now: Duration, date: Date, policy: WatchPolicy) -> [WatchEvent.Change] {
        // A probe this machine could not run says nothing of the Gateway.
        guard verdict.isJudged else { return [] }
        var events = facts(verdict, date: date, policy: policy)
        if verdict.isUp {
            failures = 0
            if health != .up { events += transition(to: .up, .up, at: now, policy: policy) }
        } else if let failure = verdict.failure {
            failures += 1
            // A Gateway that was up is down only after `failuresBeforeDown` failures in a row.
            let confirmed = health != .up || failures >= policy.failuresBeforeDown
            let cause = Cause(check: failure.check, diagnosis: failure.diagnosis)
            let down = WatchEvent.Change.down(check: failure.check, diagnosis: failure.diagnosis, finding: failure.finding)
            if health != .down && confirmed {
                events += transition(to: .down, down, at: now, policy: policy)
                reportedCause = cause
            } else if health == .down && reportedCause != cause {
                // Still down for another reason (not-listening, then pin-changed): a new `down`
                // with the new cause and fix, which is no up/down change for flapping.
                events.append(down)
                reportedCause = cause
            }
        }
        events += steadiness(at: now, policy: policy)
        last = verdict
        return events
    }

    /// Health changes to `health`; a change after a known state counts towards flapping.
    private mutating func transition(
        to health: Health, _ event: WatchEvent.Change, at now: Duration, policy: WatchPolicy
    ) -> [WatchEvent.Change] {
        let counted = self.health != .unknown
        self.health = health
        lastChange = now
        guard counted else { return [event] }
        changes = Array((changes + [now]).filter { now - $0 < policy.flapWindow }.suffix(policy.flapChanges))
        if !flapping && changes.count >= policy.flapChanges {
            flapping = true
            return [event, .flapping(changes: changes.count, window: policy.flapWindow)]
        }
        return [event]
    }

    /// A flapping Gateway is steady again after a whole window without a change.
    private mutating func steadiness(at now: Duration, policy: WatchPolicy) -> [WatchEvent.Change] {
        guard flapping, let lastChange, now - lastChange >= policy.flapWindow else { return [] }
        flapping = false
        changes = []
        return [.steady]
    }

    /// Changes of the facts a probe shows (certificate, pin, versions), against the last
    /// probe that showed them; a probe that did not get as far shows nothing new.
    private mutating func facts(_ verdict: ProbeVerdict, date: Date, policy: WatchPolicy) -> [WatchEvent.Change] {
        var events: [WatchEvent.Change] = []
        if let last, last.pin != verdict.pin {
            events.append(.pinChanged(from: last.pin, to: verdict.pin))
        }
        if let now = verdict.fingerprint, let before = previous(\.fingerprint), before != now {
            events.append(.certificateChanged(from: before, to: now, pinned: verdict.pin != nil, beaconAgrees: verdict.beaconAgrees))
        }
        if let now = verdict.protocolVersion, let before = previous(\.protocolVersion), before != now {
            events.append(.protocolChanged(from: before, to: now))
        }
        if let now = verdict.serverVersion, let before = previous(\.serverVersion), before != now {
            events.append(.serverVersionChanged(from: before, to: now))
        }
        if let notAfter = verdict.notAfter, let fingerprint = verdict.fingerprint, expiryReported != fingerprint,
            notAfter.timeIntervalSince(date) < Double(policy.expiryWarning.components.seconds)
        {
            expiryReported = fingerprint
            events.append(.certificateExpiring(notAfter: notAfter))
        }
        remember(verdict)
        return events
    }

    /// The last value each fact had, kept across probes that did not reach it.
    private var known = KnownFacts()

    private struct KnownFacts: Sendable, Equatable {
        var fingerprint: TLSFingerprint?
        var protocolVersion: Int?
        var serverVersion: String?
    }

    private func previous<Value>(_ fact: KeyPath<KnownFacts, Value?>) -> Value? { known[keyPath: fact] }

    private mutating func remember(_ verdict: ProbeVerdict) {
        known.fingerprint = verdict.fingerprint ?? known.fingerprint
        known.protocolVersion = verdict.protocolVersion ?? known.protocolVersion
        known.serverVersion = verdict.serverVersion ?? known.serverVersion
    }
}
