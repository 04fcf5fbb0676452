import DNSSD
import Probes

/// One Gateway as the rules see it: its evidence and the checks judged from it.
package struct GatewayResult: Sendable {
    package let evidence: GatewayEvidence
    package var checks: [Check]

    package init(evidence: GatewayEvidence, checks: [Check]) {
        self.evidence = evidence
        self.checks = checks
    }

    package var target: ProbeTarget { evidence.target }
    package var beacon: GatewayBeacon? { evidence.beacon }

    /// The addresses that accepted a TCP connection.
    package var answered: [IPAddress] { evidence.tcp.attempts.filter { $0.outcome == .connected }.map(\.address) }

    /// The fingerprint of the certificate actually served.
    package var served: TLSFingerprint? { evidence.tls.facts?.fingerprint }

    package func check(_ id: CheckID) -> Check? { checks.first { $0.id == id } }

    /// `id` when it failed for one of `reasons` (for any reason when nil).
    func failing(_ id: CheckID, _ reasons: Set<CheckReason>? = nil) -> Check? {
        guard let check = check(id), check.status == .fail, reasons?.contains(check.reason) ?? true else { return nil }
        return check
    }
}

/// This machine as the rules see it: its checks, its facts, and what discovery found.
package struct MachineResult: Sendable {
    package let checks: [Check]
    package let facts: MachineFacts
    package let discovery: DiscoverySummary

    package init(checks: [Check], facts: MachineFacts, discovery: DiscoverySummary) {
        self.checks = checks
        self.facts = facts
        self.discovery = discovery
    }

    func check(_ id: CheckID) -> Check? { checks.first { $0.id == id } }
}
