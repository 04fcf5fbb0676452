import Host
import Testing

/// One deadline passed down: what is left of it, its share for a first stage, its age.
@Suite("Deadline")
struct DeadlineTests {
    @Test("the first half of a span ends halfway and starts with it; what is left is never negative")
    func share() {
        let start = ContinuousClock.now - .seconds(10)
        let whole = Deadline(.seconds(8), from: start)
        let half = whole.share(2)
        #expect(half.start == whole.start && half.end == start + .seconds(4))
        #expect(whole.remaining == .zero && half.remaining == .zero)
        #expect(whole.elapsed >= .seconds(10), "\(whole.elapsed)")
    }

    @Test("a deadline ahead: what is left is at most its span, and its half's at most half of it")
    func ahead() {
        let deadline = Deadline(.seconds(60))
        #expect(deadline.remaining <= .seconds(60) && deadline.remaining > .seconds(30), "\(deadline.remaining)")
        #expect(deadline.share(2).remaining <= .seconds(30) && deadline.share(2).remaining > .seconds(15), "\(deadline.share(2).remaining)")
    }
}
