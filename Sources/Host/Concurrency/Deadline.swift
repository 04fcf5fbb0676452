/// When a piece of work must be done, on the monotonic clock: made once from a timeout and
/// passed down whole, so that every step below asks what is left of the same span instead of
/// turning instants into durations and back. A step that takes a timeout (a lookup, a
/// discovery) is given `remaining` at the moment it starts.
package struct Deadline: Sendable, Hashable {
    /// When the span began (what `elapsed` counts from).
    package let start: ContinuousClock.Instant
    package let end: ContinuousClock.Instant

    /// `timeout` from `start`.
    package init(_ timeout: Duration, from start: ContinuousClock.Instant = .now) {
        self.start = start
        self.end = start + timeout
    }

    private init(start: ContinuousClock.Instant, end: ContinuousClock.Instant) {
        self.start = start
        self.end = end
    }

    /// The time until the end, never negative.
    package var remaining: Duration { max(.zero, end - .now) }

    /// The time since the start.
    package var elapsed: Duration { .now - start }

    /// The first `1/parts` of this span (same start): a stage that may take only a share of
    /// the whole, as doctor's discovery and look-ups take its first half.
    package func share(_ parts: Int) -> Deadline {
        Deadline(start: start, end: start + (end - start) / parts)
    }
}
