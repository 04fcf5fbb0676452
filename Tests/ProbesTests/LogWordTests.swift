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

/// Issue 21: a failed phase says why, in words ("upgrade failed: ..."), not just its case name.
@Suite("--verbose words: a failure with its reason")
struct LogWordReasonTests {
    @Test(
        "a case's name in words, its reason and its numbers; a peer's body left out",
        arguments: [
            (
                LogWord.of(WebSocketOutcome.upgradeFailed("Sec-WebSocket-Accept does not match")),
                "upgrade failed: Sec-WebSocket-Accept does not match"
            ),
            (LogWord.of(HTTPOutcome.failed("connection reset by peer")), "failed: connection reset by peer"),
            (LogWord.of(HTTPOutcome.response(status: 503, body: "\u{1b}[2Jpeer text", server: "nginx")), "response: status 503"),
            (LogWord.of(WebSocketOutcome.timedOut(upgraded: true, bytesReceived: 0)), "timed out: upgraded true, bytes received 0"),
            (LogWord.of(WebSocketOutcome.upgradeRefused(status: 200)), "upgrade refused: status 200"),
            (LogWord.of(WebSocketOutcome.wantsTLS), "wants TLS"),
        ])
    func reasons(word: String, expected: String) {
        #expect(word == expected)
    }
}
