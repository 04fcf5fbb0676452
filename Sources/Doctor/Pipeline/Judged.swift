import DNSSD
import Probes

/// One Gateway as the rules see it: its evidence and the checks judged from it.
public struct GatewayResult: Sendable {
    public let evidence: GatewayEvidence
    public var checks: [Check]

    public init(evidence: GatewayEvidence, checks: [Check]) {
        self.evidence = evidence
        self.checks = checks
    }

    public var target: ProbeTarget { evidence.target }
    public var beacon: GatewayBeacon? { evidence.beacon }

    /// The addresses that accepted a TCP connection.
    public var answered: [IPAddress] { evidence.tcp.attempts.filter { $0.outcome == .connected }.map(\.address) }

    /// The fingerprint of the certificate actually served.
    public var served: TLSFingerprint? { evidence.tls.facts?.fingerprint }

    public func check(_ id: CheckID) -> Check? { checks.first { $0.id == id } }

    /// `id` when it failed for one of `reasons` (for any reason when nil).
    func failing(_ id: CheckID, _ reasons: Set<CheckReason>? = nil) -> Check? {
        guard let check = check(id), check.status == .fail, reasons?.contains(check.reason) ?? true else { return nil }
        return check
    }
}

/// This machine as the rules see it: its checks, its facts, and what discovery found.
public struct MachineResult: Sendable {
    public let checks: [Check]
    public let facts: MachineFacts
    public let discovery: DiscoverySummary

    public init(checks: [Check], facts: MachineFacts, discovery: DiscoverySummary) {
        self.checks = checks
        self.facts = facts
        self.discovery = discovery
    }

    func check(_ id: CheckID) -> Check? { checks.first { $0.id == id } }
}
