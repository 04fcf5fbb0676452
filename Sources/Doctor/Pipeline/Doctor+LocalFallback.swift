import DNSSD
import Host
import Probes

/// The implicit 127.0.0.1 target after its probe. No config said TLS, so it was probed as
/// ws://; a TLS listener there is probed again as wss://, as a node told the truth would
/// connect. And it is the same Gateway as a discovered one that answered on this machine's
/// own address and port: then it is left out, never reported twice.
extension Doctor {
    func settleLocalFallback(_ probed: [(Target, ProbeReport)]) async -> [(Target, ProbeReport)] {
        guard let index = probed.firstIndex(where: { $0.0.isLocalFallback }) else { return probed }
        let (fallback, report) = probed[index]
        if Self.answeredElsewhere(fallback, report, probed, facts: facts) {
            return probed.enumerated().filter { $0.offset != index }.map(\.element)
        }
        guard !fallback.probe.tls, report.websocket?.outcome == .wantsTLS || report.health?.outcome == .wantsTLS,
            deadline.remaining >= Self.minimumRetryTime
        else { return probed }
        var target = fallback
        target.probe.tls = true
        target.probe.label = "wss://\(fallback.probe.label)"
        target.foundTLS = true
        let again = await io.probe([target.probe.opened(from: options.origin)], deadline.remaining, 1, Layer.phases(for: options.only))
        var settled = probed
        settled[index] = (target, again.first ?? report)
        return settled
    }

    /// Less than this left of --timeout, the ws:// report (gw.websocket: "wants TLS", with the
    /// wss:// URL as the fix) says more than a second probe cut short would.
    static let minimumRetryTime = Duration.milliseconds(500)

    /// The fallback connected, and so did a discovered Gateway on the same port at one of this
    /// machine's own addresses: one listener (a Gateway bound to all addresses), seen twice.
    static func answeredElsewhere(_ fallback: Target, _ report: ProbeReport, _ probed: [(Target, ProbeReport)], facts: MachineFacts)
        -> Bool
    {
        guard report.tcp.contains(where: { $0.outcome == .connected }) else { return false }
        let own = Set(facts.interfaces.flatMap(\.addresses).map(\.withoutZone))
        return probed.contains { target, report in
            !target.isLocalFallback && target.probe.port == fallback.probe.port
                && report.tcp.contains { $0.outcome == .connected && own.contains($0.address.withoutZone) }
        }
    }
}
