import Avahi
import DNSSD
import Discovery
import FoundationEssentials
import Host
import Probes

/// Checks this machine and every Gateway it should reach, then names the causes. One run is
/// one value: the options, the machine's facts, the network it asks (`DoctorIO`) and the one
/// deadline `--timeout` sets. Four stages: resolving the targets (`Doctor+Targets`, with the
/// token policy in `Doctor+Credentials`), probing them, judging every layer
/// (`GatewayJudgement`, `MachineChecks`, the relaxations) and diagnosing (`DiagnosisRules`);
/// the output writes the report.
package struct Doctor: Sendable {
    let options: DoctorOptions
    let facts: MachineFacts
    let io: DoctorIO
    /// The whole run: discovery and the look-ups of named hosts share its first half, the
    /// probes have what is left (and at most `ProbeClock.margin` more to finish a phase they
    /// started).
    let deadline: Deadline

    init(_ options: DoctorOptions, facts: MachineFacts, io: DoctorIO, deadline: Deadline) {
        self.options = options
        self.facts = facts
        self.io = io
        self.deadline = deadline
    }

    /// `--timeout` bounds the whole run, the reading of this machine's facts included.
    package static func run(_ options: DoctorOptions, system: any SystemInspector, io: DoctorIO) async -> DoctorResult {
        let deadline = Deadline(options.timeout)
        let facts = await BlockingThreads.shared.value { () -> MachineFacts in
            var facts = MachineFacts.gather(system, deadline: deadline)
            facts.identities = system.nodeIdentities(asDevice: options.deviceFile)
            return facts
        }
        return await Doctor(nodeTargets(options, facts: facts), facts: facts, io: io, deadline: deadline).run()
    }

    func run() async -> DoctorResult {
        let lookups = deadline.share(2)
        async let discovered = discover(until: lookups)
        async let lookedUp = lookUpNamed(until: lookups)
        var discovery = await discovered
        let (targets, unknown) = await resolve(discovery: discovery, lookedUp: await lookedUp)
        discovery.unansweredLocalNames = targets.compactMap { $0.dnsProblem?.kind == .noMDNSAnswer ? $0.probe.host : nil }
        let budget = deadline.remaining
        let (reports, answers) = await probe(targets, budget: budget, discovery: discovery)
        // A host whose Gateway refused every connection answers mDNS without a beacon because
        // its Gateway is stopped.
        let stopped = Set(zip(targets, reports).filter { Self.refusedAll($0.1) }.map(\.0.probe.label))
        discovery.hostAnswers = answers.map { answer in
            var answer = answer
            answer.gatewayStopped = stopped.contains(answer.gateway)
            return answer
        }
        let probed = await settleLocalFallback(Array(zip(targets, reports)))
        var result = report(probed, unknown: unknown, discovery: discovery, budget: budget)
        result.elapsed = deadline.elapsed
        return result
    }

    /// Discovery as nodes on this machine would see it: the configured domain, mDNS unless
    /// --no-local.
    func discover(until lookups: Deadline) async -> DiscoverySummary {
        let request = DiscoveryRequest(options.discovery, config: facts.config, interfaces: facts.interfaces)
        let snapshot = await io.discovery.snapshot(request, timeout: lookups.remaining)
        var summary = DiscoverySummary(
            localBrowsed: request.local, domains: request.domains, beacons: snapshot.beacons, issues: snapshot.issues)
        summary.askedServers = request.unicast.servers
        return summary
    }

    /// Every target probed at once (only the phases the requested checks take). Meanwhile, when
    /// local. is empty, ask whether the hosts of the Gateways found another way answer mDNS:
    /// that tells "multicast blocked" from "not advertising".
    func probe(_ targets: [Target], budget: Duration, discovery: DiscoverySummary) async -> ([ProbeReport], [HostAnswer]) {
        let askHosts = discovery.localIsEmptyThoughUsable(facts) && (options.only.map(CheckID.closure)?.contains(.mdnsBrowse) ?? true)
        let lanHosts = askHosts ? Self.lanAddresses(targets.map(\.probe)) : []
        async let answers = io.mdnsNames(lanHosts.map(\.address), min(budget, Self.maxHostLookupTime))
        let phases = Layer.phases(for: options.only)
        let reports =
            phases.isEmpty
            ? targets.map { ProbeReport(target: $0.probe) }
            : await io.probe(targets.map { $0.probe.opened(from: options.origin) }, budget, options.probeLimit, phases)
        let found = await answers
        return (
            reports,
            lanHosts.compactMap { host in found[host.address].map { HostAnswer(address: host.address, gateway: host.gateway, answer: $0) } }
        )
    }

    /// From what was found and probed to the report: each Gateway judged from its evidence,
    /// the machine's checks, the relaxations, the causes, the zone snippets.
    func report(_ probed: [(Target, ProbeReport)], unknown: [DoctorTarget], discovery: DiscoverySummary, budget: Duration)
        -> DoctorResult
    {
        var judgement = GatewayJudgement(facts: facts, discovery: discovery, budget: budget, now: io.now())
        for (target, report) in probed where target.isLocalFallback {
            judgement.loopback[target.probe.port] = report.tcp.contains { $0.outcome == .connected }
        }
        let gateways =
            probed.map { target, report in
                judgement.judge(
                    report, beacon: target.beacon, dnsProblem: target.dnsProblem, pin: target.pin, localFallback: target.isLocalFallback,
                    foundTLS: target.foundTLS)
            } + unknown.map(Self.unknownTarget)
        var machine = MachineChecks.run(facts, discovery: discovery, multicast: !options.noLocal)
        if !options.targets.isEmpty {
            machine = Self.relaxUnneeded(machine, needed: Self.dependencies(of: gateways).union(options.required))
        }
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

    /// Every address tried refused the connection: nothing listens on the port.
    static func refusedAll(_ report: ProbeReport) -> Bool {
        !report.tcp.isEmpty && report.tcp.allSatisfy { $0.outcome == .refused }
    }

    /// mDNS reverse lookups are one Avahi resolver each: a handful tells the story.
    static let maxHostLookups = 8
    /// A host on the link answers a reverse lookup at once or not at all.
    static let maxHostLookupTime = Duration.seconds(2)
}
