import DNSSD

/// One layer's verdict: a status, the reason as a code to decide on, and the typed evidence it
/// was judged from. Rules match on `reason` and read `evidence`; the words a user reads (the
/// message, the fix, the JSON detail) are written from them by the output.
package struct Check: Sendable, Equatable {
    package enum Status: String, Sendable, Codable, Comparable {
        case skip, pass, warn, fail

        package static func < (lhs: Status, rhs: Status) -> Bool {
            [skip, pass, warn, fail].firstIndex(of: lhs)! < [skip, pass, warn, fail].firstIndex(of: rhs)!
        }
    }

    package let id: CheckID
    package var status: Status
    package var reason: CheckReason
    package var elapsed: Duration
    package var evidence: CheckEvidence

    package init(_ id: CheckID, _ status: Status, _ reason: CheckReason, elapsed: Duration = .zero, evidence: CheckEvidence = .none) {
        self.id = id
        self.status = status
        self.reason = reason
        self.elapsed = elapsed
        self.evidence = evidence
    }

    package var title: String { id.title }
    package var elapsedMs: Int { Int(elapsed.milliseconds) }
}
