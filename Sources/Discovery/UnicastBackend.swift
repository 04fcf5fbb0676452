import DNSClient
import DNSSD
import DNSWire
import Host

/// Wide-area discovery: unicast DNS-SD of service types in one or more domains, against the
/// system's resolvers or named servers.
package struct UnicastBackend: Sendable {
    package struct Configuration: Sendable {
        /// Servers to ask; empty means the system's (resolv.conf).
        package var servers: [DNSServer] = []
        package var resolvConfPath = ResolvConf.defaultPath
        /// Asked as well when the system resolvers find nothing and this machine is on a
        /// tailnet: an answer only there means split DNS is not applied. nil: never.
        package var tailscaleResolver: DNSServer?
        package var client = DNSClient.Options()
        /// How often a watch asks again (bounded by the PTR TTL).
        package var pollInterval: ClosedRange<Duration> = .seconds(5) ... .seconds(60)

        package init() {}
    }

    package let configuration: Configuration

    package init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Browses every (type, domain) and emits what it finds: the first round as beacons
    /// resolve, later rounds (`watch`) as what changed. Returns after the first round, or with
    /// `watch` when its task is cancelled.
    package func run(types: [ServiceType], domains: [DomainName], watch: Bool, emit: @escaping @Sendable (DiscoveryEvent) async -> Void)
        async
    {
        let configuration = self.configuration
        let client = DNSClient(options: configuration.client)
        var published: [GatewayBeacon.ID: GatewayBeacon] = [:]
        var reported = Set<DiscoveryIssue>()
        var first = true
        while !Task.isCancelled {
            // The first round reports beacons as they resolve; later ones as a diff.
            let streaming = first
            let round = await Self.round(types: types, domains: domains, configuration: configuration, client: client) { beacon in
                if streaming { await emit(.added(beacon)) }
            }
            var current: [GatewayBeacon.ID: GatewayBeacon] = [:]
            for beacon in round.beacons { current[beacon.id] = beacon }
            // A domain whose server did not answer this round still has what it had.
            for (id, beacon) in published where current[id] == nil && round.unreachable.contains(Round.key(beacon)) {
                current[id] = beacon
            }
            if !first {
                for (id, beacon) in current where published[id] != beacon {
                    await emit(published[id] == nil ? .added(beacon) : .updated(beacon))
                }
                for (id, beacon) in published where current[id] == nil { await emit(.removed(beacon)) }
            }
            for issue in round.issues where !reported.contains(issue) { await emit(.error(issue)) }
            reported = Set(round.issues)
            published = current
            if first { await emit(.allForNow) }
            first = false
            guard watch else { break }
            // A server that did not answer is asked again soon; otherwise as the PTR TTL runs out.
            let ttl = round.unreachable.isEmpty ? Duration.seconds(Int(round.ttl ?? 60)) : .zero
            try? await Task.sleep(for: min(max(ttl, configuration.pollInterval.lowerBound), configuration.pollInterval.upperBound))
        }
        await client.shutdown()
    }

    private struct Round {
        var beacons: [GatewayBeacon] = []
        var issues: [DiscoveryIssue] = []
        var ttl: UInt32?
        /// The (type, domain) pairs whose PTR question got no answer at all.
        var unreachable: Set<String> = []

        static func key(_ type: ServiceType, _ domain: DomainName) -> String { "\(type.name) \(domain.name)" }
        static func key(_ beacon: GatewayBeacon) -> String { "\(beacon.serviceType.name) \(beacon.domain?.name ?? "")" }
    }

    /// Every (type, domain) once, concurrently.
    private static func round(
        types: [ServiceType], domains: [DomainName], configuration: Configuration, client: DNSClient,
        onBeacon: @escaping @Sendable (GatewayBeacon) async -> Void
    ) async -> Round {
        let explicit = !configuration.servers.isEmpty
        let resolvConf = explicit ? nil : ResolvConf(path: configuration.resolvConfPath)
        let servers = explicit ? configuration.servers : resolvConf!.servers
        let resolver = StubResolver(client: client, servers: servers)
        var round = Round()
        round.issues += (resolvConf?.problems ?? []).map { DiscoveryIssue(source: .unicast, kind: .dnsError, .resolvConf(problem: $0)) }
        await withTaskGroup(of: (String, UnicastBrowse.Result).self) { group in
            for domain in domains {
                for type in types {
                    group.addTask {
                        let result = await UnicastBrowse(resolver: resolver, type: type, domain: domain).run(onBeacon: onBeacon)
                        guard result.beacons.isEmpty, !explicit, let tailscale = configuration.tailscaleResolver else {
                            return (Round.key(type, domain), result)
                        }
                        let fallback = await tailscaleFallback(
                            type: type, domain: domain, system: result, systemServers: servers,
                            tailscale: tailscale, client: client, onBeacon: onBeacon)
                        return (Round.key(type, domain), fallback)
                    }
                }
            }
            for await (key, result) in group {
                round.beacons += result.beacons
                round.issues += result.issues
                if result.unreachable { round.unreachable.insert(key) }
                if let ttl = result.ttl { round.ttl = min(round.ttl ?? ttl, ttl) }
            }
        }
        return round
    }

    /// The system resolvers found nothing: ask Tailscale's resolver. Answers there and not
    /// through the system mean split DNS is not applied on this machine.
    private static func tailscaleFallback(
        type: ServiceType, domain: DomainName, system: UnicastBrowse.Result, systemServers: [DNSServer],
        tailscale: DNSServer, client: DNSClient, onBeacon: @escaping @Sendable (GatewayBeacon) async -> Void
    ) async -> UnicastBrowse.Result {
        let systemNames = systemServers.map(\.description).joined(separator: ", ")
        var browse = UnicastBrowse(resolver: StubResolver(client: client, servers: [tailscale]), type: type, domain: domain)
        browse.beaconNote =
            "found only via Tailscale's resolver \(tailscale.address); this machine's resolver (\(systemNames)) does not answer "
            + "\(domain.name)"
        var result = await browse.run(onBeacon: onBeacon)
        guard !result.beacons.isEmpty else {
            // Nothing there either: the system's answer is the one to report.
            result.issues = system.issues
            return result
        }
        result.issues.append(
            DiscoveryIssue(
                source: .unicast, kind: .splitDNS, .splitDNS(tailscale: "\(tailscale.address)", system: systemServers.map(\.description)),
                domain: domain.name))
        return result
    }
}
