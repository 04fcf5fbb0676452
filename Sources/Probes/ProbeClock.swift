/// One deadline for all the phases of a probe: each phase gets what is left.
struct ProbeClock: Sendable {
    let start = ContinuousClock.now
    let budget: Duration

    var remaining: Duration { max(.zero, budget - (ContinuousClock.now - start)) }
    var expired: Bool { remaining == .zero }
    func elapsed(since instant: ContinuousClock.Instant) -> Duration { ContinuousClock.now - instant }
}
