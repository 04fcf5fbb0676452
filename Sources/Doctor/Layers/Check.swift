import DNSSD

/// One layer's verdict: a status, the reason as a code to decide on, and the typed evidence it
/// was judged from. Rules match on `reason` and read `evidence`; the words a user reads (the
/// message, the fix, the JSON detail) are written from them by the output.
public struct Check: Sendable, Equatable {
    public enum Status: String, Sendable, Codable, Comparable {
        case skip, pass, warn, fail

        public static func < (lhs: Status, rhs: Status) -> Bool {
            [skip, pass, warn, fail].firstIndex(of: lhs)! < [skip, pass, warn, fail].firstIndex(of: rhs)!
        }
    }

    public let id: CheckID
    public var status: Status
    public var reason: CheckReason
    public var elapsed: Duration
    public var evidence: CheckEvidence

    public init(_ id: CheckID, _ status: Status, _ reason: CheckReason, elapsed: Duration = .zero, evidence: CheckEvidence = .none) {
        self.id = id
        self.status = status
        self.reason = reason
        self.elapsed = elapsed
        self.evidence = evidence
    }

    public var title: String { id.title }
    public var elapsedMs: Int { Int(elapsed.milliseconds) }
}
