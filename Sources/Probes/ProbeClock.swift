import Synchronization

/// One deadline for all the phases of a probe: each phase gets what is left, but never less
/// than a short floor, so that a busy machine that starts a phase late still tries it (a
/// refused connection is then reported as refused, not as "no answer in time"). The floor
/// never reaches past the budget plus `margin`: that is the most a probe overruns.
struct ProbeClock: Sendable {
    static let floor = Duration.milliseconds(250)
    /// How long after its budget a probe may still finish a phase (doctor's README says so).
    static let margin = Duration.milliseconds(500)

    let start: ContinuousClock.Instant
    let budget: Duration
    /// The first local shortage any of the probe's connections met (`ProbeReport.localShortage`):
    /// every phase has the clock, so each one that opens a connection notes it here.
    let shortage = ShortageNote()

    /// `start` earlier than now: probes queued behind others share the deadline of the first.
    init(budget: Duration, start: ContinuousClock.Instant = .now) {
        self.budget = budget
        self.start = start
    }

    var remaining: Duration {
        let elapsed = ContinuousClock.now - start
        return max(.zero, min(max(Self.floor, budget - elapsed), budget + Self.margin - elapsed))
    }

    func elapsed(since instant: ContinuousClock.Instant) -> Duration { ContinuousClock.now - instant }

    /// A connection's failure, noted when it was this machine's shortage.
    func note(_ outcome: TCPAttempt.Outcome) {
        if case .localShortage(let why) = outcome { shortage.note(why) }
    }
}

/// Why a probe's connection could not be opened on this machine, noted once by whichever
/// phase met it first (phases run at once, each on its own connection).
final class ShortageNote: Sendable {
    private let first = Mutex<String?>(nil)

    func note(_ why: String) { first.withLock { $0 = $0 ?? why } }

    var value: String? { first.withLock { $0 } }
}
