/// One deadline for all the phases of a probe: each phase gets what is left, but never less
/// than a short floor, so that a busy machine that starts a phase late still tries it (a
/// refused connection is then reported as refused, not as "no answer in time").
struct ProbeClock: Sendable {
    static let floor = Duration.milliseconds(250)

    let start = ContinuousClock.now
    let budget: Duration

    var remaining: Duration { max(Self.floor, budget - (ContinuousClock.now - start)) }
    func elapsed(since instant: ContinuousClock.Instant) -> Duration { ContinuousClock.now - instant }
}
