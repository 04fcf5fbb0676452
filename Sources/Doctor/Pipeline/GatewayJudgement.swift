import DNSSD
import FoundationEssentials
import Host
import Probes

/// How one Gateway's probe is judged, the same wherever a probe is: in doctor, in watch, in
/// the golden scenes. Its evidence (the report, and what was known before the probe),
/// `GatewayChecks` on that evidence, then the relaxations what was asked calls for; the
/// diagnosis rules take it from there.
package struct GatewayJudgement: Sendable {
    /// What the probes were given: the evidence says "no answer within" it.
    package var budget: Duration
    /// This machine's routes (a Gateway reached through a VPN, a container's bridge...).
    package var routes: [Route]
    /// The instant certificates are judged against.
    package var now: Date
    /// This machine is set up to run a Gateway (its OpenClaw config exists): nothing on
    /// 127.0.0.1 is then a warning rather than nothing.
    package var gatewayConfigured: Bool
    /// Discovery found Gateways: nothing on the implicit 127.0.0.1 is then no news.
    package var othersFound: Bool
    /// This machine's addresses and name: a Gateway there is this machine's.
    var own = GatewayHost.Own()
    /// Whether 127.0.0.1 answered, by port (doctor's implicit target); the Gateway's unit.
    package var loopback: [Int: Bool] = [:]
    var service: GatewayService?

    /// As the machine is (`facts`) and discovery found it.
    package init(facts: MachineFacts, discovery: DiscoverySummary, budget: Duration, now: Date) {
        self.budget = budget
        self.routes = facts.routes
        self.now = now
        self.gatewayConfigured = facts.config.exists
        self.othersFound = !discovery.beacons.isEmpty
        self.own = GatewayHost.Own(facts)
        self.service = facts.gatewayService
    }

    /// The Gateway's checks from `report`. `localFallback`: the implicit 127.0.0.1 target, not
    /// a Gateway anyone named or advertised; `foundTLS`: that target, probed as ws://, answered
    /// TLS and was probed again as wss://.
    package func judge(
        _ report: ProbeReport, beacon: GatewayBeacon?, dnsProblem: DNSProblem? = nil, pin: Pin?, localFallback: Bool = false,
        foundTLS: Bool = false
    ) -> GatewayResult {
        var evidence = GatewayEvidence(report, beacon: beacon, dnsProblem: dnsProblem, pin: pin, budget: budget, routes: routes, now: now)
        let target = report.target
        if !localFallback, own.owns(host: target.host, addresses: target.addresses) {
            evidence.host = .here(loopback: loopback[target.port], service: service)
        }
        var checks = GatewayChecks.run(evidence)
        if localFallback && othersFound { checks = Self.relaxLocalFallback(checks, configured: gatewayConfigured) }
        if foundTLS { checks = Self.markFoundTLS(checks) }
        return GatewayResult(evidence: evidence, checks: checks)
    }

    /// Nothing listening on 127.0.0.1 is news only when no Gateway was found elsewhere, or
    /// when this machine is configured to run one: a node usually has no Gateway of its own.
    static func relaxLocalFallback(_ checks: [Check], configured: Bool) -> [Check] {
        checks.map { check in
            guard check.id == .gwTCP, check.status == .fail, check.reason == .nothingListensLocally else { return check }
            var relaxed = check
            (relaxed.status, relaxed.reason) = configured ? (.warn, .localGatewayDown) : (.skip, .noLocalGateway)
            return relaxed
        }
    }

    /// gw.tls of a fallback found speaking TLS: the handshake as it went, and a warning that
    /// no config says so (a node or client here told ws:// fails).
    static func markFoundTLS(_ checks: [Check]) -> [Check] {
        checks.map { check in
            guard check.id == .gwTLS, check.status == .pass else { return check }
            var marked = check
            (marked.status, marked.reason) = (.warn, .tlsNotConfigured)
            return marked
        }
    }
}
