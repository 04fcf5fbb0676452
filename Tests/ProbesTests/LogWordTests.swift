import Testing

@testable import Probes

/// `--verbose` logs outcomes for people: a case's name and a time, never a Swift dump.
@Suite("--verbose words: no Swift values in the log")
struct LogWordTests {
    @Test("a phase's timing is its outcome's name and its milliseconds")
    func phaseTiming() {
        let timing = PhaseTiming(outcome: TCPAttempt.Outcome.unreachable("no route to host"), elapsed: .milliseconds(12))
        #expect(timing.description == "no route to host in 12 ms")
        #expect(!"\(timing)".contains("PhaseTiming"))
    }

    @Test("enum cases lose their payload; optionals their wrapper", arguments: [TCPAttempt.Outcome.refused, .failed("x"), .timedOut])
    func outcomes(outcome: TCPAttempt.Outcome) {
        let word = LogWord.of(outcome)
        #expect(!word.contains("(") && !word.contains("Outcome"), "\(word)")
        #expect(LogWord.of(Optional(outcome) as Any) == word)
        #expect(LogWord.of(TCPAttempt.Outcome?.none as Any) == "none")
    }
}
