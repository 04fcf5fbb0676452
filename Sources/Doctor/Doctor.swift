import Avahi
import DNSSD
import Discovery
import FoundationEssentials
import Host
import Probes

/// Checks this machine and every Gateway it should reach, then names the causes. Four stages:
/// resolving the targets (`Doctor+Targets`, with the token policy in `Doctor+Credentials`),
/// probing them, judging every layer (`GatewayChecks`, `MachineChecks`, the relaxations) and
/// diagnosing (`DiagnosisRules`); the output writes the report.
public enum Doctor {
    /// `--timeout` bounds the whole run: discovery and the lookups of named hosts share the
    /// first half of it, the probes have what is left (and at most `ProbeClock.margin` more
    /// to finish a phase they started).
    public static func run(_ options: DoctorOptions, system: any SystemInspector) async -> DoctorResult {
        let started = ContinuousClock.now
        let lookupsEnd = started + options.timeout / 2
        let facts = await BlockingThreads.shared.value { () -> MachineFacts in
            var facts = MachineFacts.gather(system)
            facts.identities = system.nodeIdentities(asDevice: options.deviceFile)
            return facts
        }
        let options = nodeTargets(options, facts: facts)
        async let discovered = discover(options, facts: facts, timeout: left(until: lookupsEnd))
        async let lookedUp = lookUpNamed(options, facts: facts, until: lookupsEnd)
        var discovery = await discovered
        let (targets, unknown) = await resolve(options, discovery: discovery, lookedUp: await lookedUp, facts: facts)
        let budget = left(until: started + options.timeout)
        let (reports, answers) = await probe(targets, options: options, budget: budget, discovery: discovery, facts: facts)
        discovery.hostAnswers = answers
        let probed = await settleLocalFallback(
            Array(zip(targets, reports)), options: options, facts: facts, until: started + options.timeout)
        var result = judge(probed, unknown: unknown, facts: facts, discovery: discovery, options: options, budget: budget)
        result.elapsed = ContinuousClock.now - started
        return result
    }

    /// The time from now until `instant`, never negative.
    static func left(until instant: ContinuousClock.Instant) -> Duration {
        max(.zero, instant - ContinuousClock.now)
    }

    /// Discovery as nodes on this machine would see it: the configured domain, mDNS unless
    /// --no-local, within the timeout.
    static func discover(_ options: DoctorOptions, facts: MachineFacts, timeout: Duration) async -> DiscoverySummary {
        let request = DiscoveryRequest(options.discovery, config: facts.config, interfaces: facts.interfaces)
        let snapshot = await DiscoverySession.snapshot(request, timeout: timeout)
        var summary = DiscoverySummary(
            localBrowsed: request.local, domains: request.domains, beacons: snapshot.beacons, issues: snapshot.issues)
        summary.askedServers = request.unicast.servers
        return summary
    }

    /// Every target probed at once (only the phases the requested checks take). Meanwhile, when
    /// local. is empty, ask whether the hosts of the Gateways found another way answer mDNS:
    /// that tells "multicast blocked" from "not advertising".
    static func probe(
        _ targets: [Target], options: DoctorOptions, budget: Duration, discovery: DiscoverySummary, facts: MachineFacts
    ) async -> ([ProbeReport], [HostAnswer]) {
        let askHosts = discovery.localIsEmptyThoughUsable(facts) && (options.only.map(CheckID.closure)?.contains(.mdnsBrowse) ?? true)
        let lanHosts = askHosts ? lanAddresses(targets.map(\.probe)) : []
        async let answers = AvahiAddressLookup.names(of: lanHosts.map(\.address), timeout: min(budget, maxHostLookupTime))
        let phases = Layer.phases(for: options.only)
        let reports =
            phases.isEmpty
            ? targets.map { ProbeReport(target: $0.probe) }
            : await GatewayProbe.runAll(
                targets.map { $0.probe.opened(from: options.origin) }, budget: budget, limit: options.probeLimit, phases: phases)
        let found = await answers
        return (
            reports,
            lanHosts.compactMap { host in found[host.address].map { HostAnswer(address: host.address, gateway: host.gateway, answer: $0) } }
        )
    }

    /// From what was found and probed to the report: each Gateway's layers judged from its
    /// evidence, the machine's, the relaxations, the causes, the zone snippets.
    static func judge(
        _ probed: [(Target, ProbeReport)], unknown: [DoctorTarget], facts: MachineFacts, discovery: DiscoverySummary,
        options: DoctorOptions, budget: Duration, now: Date = Date()
    ) -> DoctorResult {
        let gateways =
            probed.map { target, report in
                let evidence = GatewayEvidence(
                    report, beacon: target.beacon, dnsProblem: target.dnsProblem, pin: target.pin, budget: budget, routes: facts.routes,
                    now: now)
                var checks = GatewayChecks.run(evidence)
                if target.isLocalFallback && !discovery.beacons.isEmpty {
                    checks = relaxLocalFallback(checks, configured: facts.config.exists)
                }
                if target.foundTLS { checks = markFoundTLS(checks) }
                return GatewayResult(evidence: evidence, checks: checks)
            } + unknown.map(unknownTarget)
        var machine = MachineChecks.run(facts, discovery: discovery, multicast: !options.noLocal)
        if !options.targets.isEmpty { machine = relaxUnneeded(machine, needed: dependencies(of: gateways)) }
        let diagnosis = DiagnosisRules.diagnose(MachineResult(checks: machine, facts: facts, discovery: discovery), gateways: gateways)
        var result = DoctorResult(machine: machine, gateways: gateways, diagnosis: diagnosis, only: options.only.map(CheckID.closure))
        result.snippets = ZoneSnippets.make(gateways, discovery: discovery, facts: facts)
        return result
    }

    /// Addresses of Gateways that could share a link with this machine (private, not
    /// loopback, not Tailscale), at most `maxHostLookups`.
    static func lanAddresses(_ targets: [ProbeTarget]) -> [(address: IPAddress, gateway: String)] {
        var seen = Set<IPAddress>()
        var result: [(address: IPAddress, gateway: String)] = []
        for target in targets {
            for address in target.addresses
            where address.isPrivate && !address.isLoopback && !address.isTailscale && seen.insert(address).inserted {
                result.append((address, target.label))
            }
        }
        return Array(result.prefix(maxHostLookups))
    }

    /// mDNS reverse lookups are one Avahi resolver each: a handful tells the story.
    static let maxHostLookups = 8
    /// A host on the link answers a reverse lookup at once or not at all.
    static let maxHostLookupTime = Duration.seconds(2)
}
