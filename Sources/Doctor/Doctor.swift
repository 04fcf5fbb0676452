import DNSSD
import Discovery
import Dispatch
import Probes

public struct DoctorOptions: Sendable {
    /// URLs, HOST[:PORT] or instance names; empty: everything discovered plus the configured
    /// (or default) manual target.
    public var targets: [String] = []
    /// Wide-area domains; empty: the configured one, if any.
    public var domains: [DomainName] = []
    public var servers: [DNSServer] = []
    public var local = true
    public var pin: TLSFingerprint?
    /// Per Gateway, and for discovery.
    public var timeout: Duration = .seconds(5)
    /// Only these checks (and what they need); nil: all.
    public var only: Set<String>?
    public var probeLimit = 256

    public init() {}
}

/// The `clawnet.doctor.v1` document.
public struct DoctorReport: Sendable, Encodable {
    public struct Gateway: Sendable, Encodable {
        public let target: String
        public let beacon: GatewayBeacon?
        public let checks: [Check]
    }

    public let schema = "clawnet.doctor.v1"
    public let status: Check.Status
    public let checks: [Check]
    public let gateways: [Gateway]
    public let diagnosis: [Diagnosis]
    public let elapsedMs: Int

    private enum CodingKeys: String, CodingKey { case schema, status, checks, gateways, diagnosis, elapsedMs }
}

public enum Doctor {
    public static func run(_ options: DoctorOptions, system: any SystemInspector) async -> DoctorReport {
        let started = ContinuousClock.now
        let only = options.only.map(CheckCatalog.closure)
        func wanted(_ id: String) -> Bool { only?.contains(id) ?? true }

        let facts = await Task.detached { MachineFacts.gather(system) }.value
        let config = facts.config
        let domains = !options.domains.isEmpty ? options.domains : config.wideAreaDomain.map { [$0] } ?? []
        let defaultPort = config.gatewayPort ?? Endpoint.defaultGatewayPort

        // Discovery: what nodes on this machine would see.
        var request = DiscoveryRequest()
        request.local = options.local
        request.domains = domains
        request.unicast.servers = options.servers
        if !NetworkInterface.tailscaleAddresses(facts.interfaces).isEmpty { request.unicast.tailscaleResolver = .tailscale }
        var collection = BeaconCollection()
        for await tick in DiscoverySession.events(request).until(options.timeout) {
            guard case .element(let event) = tick else { break }
            collection.apply(event)
            if event == .allForNow { break }
        }
        var discovery = DiscoverySummary(localBrowsed: options.local, domains: domains, beacons: collection.beacons, issues: collection.errors)

        // Targets.
        var targets: [(ProbeTarget, GatewayBeacon?, String?)] = []
        var unknown: [String] = []
        var localFallback: Int?
        if options.targets.isEmpty {
            targets = discovery.beacons.map { (probeTarget($0), $0, nil) }
            let fallback = Endpoint(host: "127.0.0.1", port: defaultPort)
            if !targets.contains(where: { $0.0.port == defaultPort && $0.0.addresses.contains(IPAddress("127.0.0.1")!) }) {
                targets.append(await endpointTarget(fallback, label: fallback.description, tls: config.tlsEnabled ?? false, timeout: options.timeout))
                localFallback = targets.count - 1
            }
        } else {
            for raw in options.targets {
                if let beacon = discovery.beacons.first(where: { $0.instance.displayName.lowercased() == raw.lowercased() }) {
                    targets.append((probeTarget(beacon), beacon, nil))
                } else if let endpoint = try? Endpoint.parse(raw, defaultPort: defaultPort) {
                    let tls = endpoint.scheme.map { $0 == .wss } ?? (config.tlsEnabled ?? false)
                    targets.append(await endpointTarget(endpoint, label: raw, tls: tls, timeout: options.timeout))
                } else {
                    unknown.append(raw)
                }
            }
        }

        // Probes, all at once within the bound.
        // Meanwhile, when local. is empty, ask whether the hosts of the Gateways found another
        // way answer mDNS: that tells "multicast blocked" from "not advertising".
        let phases = probePhases(only)
        let lanHosts = discovery.localBrowsed && facts.avahiRunning && discovery.localBeacons.isEmpty && wanted("mdns.browse")
            ? lanAddresses(targets.map(\.0)) : []
        async let answers = AvahiAddressLookup.names(of: lanHosts.map(\.address), timeout: min(options.timeout, .seconds(2)))
        let reports: [ProbeReport] = phases.isEmpty
            ? targets.map { ProbeReport(target: $0.0) }
            : await GatewayProbe.runAll(targets.map(\.0), budget: options.timeout, limit: options.probeLimit, phases: phases)
        let found = await answers
        discovery.hostAnswers = lanHosts.compactMap { host in found[host.address].map { HostAnswer(address: host.address, gateway: host.gateway, answer: $0) } }
        var gateways = zip(targets, reports).map { target, report in
            GatewayResult(target: target.0, beacon: target.1,
                          checks: GatewayChecks.run(report, dnsProblem: target.2, pin: options.pin, budget: options.timeout))
        }
        if let index = localFallback, !discovery.beacons.isEmpty {
            gateways[index].checks = relaxLocalFallback(gateways[index].checks, label: gateways[index].target.label, configured: config.exists)
        }
        for raw in unknown {
            let target = ProbeTarget(label: raw, host: raw, addresses: [], port: defaultPort, tls: false)
            gateways.append(GatewayResult(target: target, beacon: nil, checks: [
                Check("gw.dns", .fail, "no Gateway named '\(raw)' was discovered, and it is not a host name or URL",
                      fix: "`clawnet browse` lists the names; give a URL (wss://host:port) or HOST[:PORT] otherwise"),
            ]))
        }

        // The machine, and what the targets depend on.
        var machine = MachineChecks.run(facts, discovery: discovery)
        if !options.targets.isEmpty {
            let needed = dependencies(of: gateways)
            machine = machine.map { check in
                guard check.status == .fail, !needed.contains(check.id) else { return check }
                var relaxed = check
                relaxed.status = .warn
                return relaxed
            }
        }
        let diagnosis = DiagnosisRules.diagnose(machine: machine, gateways: gateways, facts: facts, discovery: discovery)

        machine = machine.filter { wanted($0.id) }
        let gatewayReports = gateways.map { result in
            DoctorReport.Gateway(target: result.target.label, beacon: result.beacon, checks: result.checks.filter { wanted($0.id) })
        }
        let status = (machine + gatewayReports.flatMap(\.checks)).map(\.status).max() ?? .pass
        return DoctorReport(
            status: status == .skip ? .pass : status, checks: machine, gateways: gatewayReports,
            diagnosis: diagnosis.filter { diagnosis in only == nil || diagnosis.evidence.contains { wanted(String($0.split(separator: " ")[0])) } },
            elapsedMs: Int((ContinuousClock.now - started).milliseconds))
    }

    /// Nothing listening on 127.0.0.1 is news only when no Gateway was found elsewhere, or
    /// when this machine is configured to run one: a node usually has no Gateway of its own.
    static func relaxLocalFallback(_ checks: [Check], label: String, configured: Bool) -> [Check] {
        checks.map { check in
            guard check.id == "gw.tcp", check.status == .fail, check.message.hasPrefix("no Gateway listens on this machine") else { return check }
            var relaxed = check
            if configured {
                relaxed.status = .warn
                relaxed.message += "; this machine has an OpenClaw config, so its Gateway may be down"
            } else {
                relaxed.status = .skip
                relaxed.message = "no Gateway runs on this machine (nothing listens on \(label)); the discovered Gateways are checked"
                relaxed.fix = nil
            }
            return relaxed
        }
    }

    /// Addresses of Gateways that could share a link with this machine (private, not
    /// loopback, not Tailscale), at most eight.
    static func lanAddresses(_ targets: [ProbeTarget]) -> [(address: IPAddress, gateway: String)] {
        var seen = Set<IPAddress>()
        var result: [(address: IPAddress, gateway: String)] = []
        for target in targets {
            for address in target.addresses where address.isPrivate && !address.isLoopback && !address.isTailscale && seen.insert(address).inserted {
                result.append((address, target.label))
            }
        }
        return Array(result.prefix(8))
    }

    /// What a discovered beacon is probed as: its SRV host (for SNI and Host), addresses, port,
    /// TLS as advertised, and the advertised fingerprint as a hint.
    static func probeTarget(_ beacon: GatewayBeacon) -> ProbeTarget {
        let label = beacon.url ?? "\(beacon.instance.displayName)"
        return ProbeTarget(
            label: label, host: beacon.host ?? beacon.addresses.first?.description ?? beacon.instance.displayName,
            addresses: beacon.addresses, port: beacon.port ?? Endpoint.defaultGatewayPort,
            tls: beacon.gateway.tls, advertisedFingerprint: beacon.gateway.tlsSha256)
    }

    static func endpointTarget(_ endpoint: Endpoint, label: String, tls: Bool, timeout: Duration) async -> (ProbeTarget, GatewayBeacon?, String?) {
        var addresses: [IPAddress] = []
        var problem: String?
        if let address = endpoint.address {
            addresses = [address]
        } else {
            switch await HostLookup.addresses(of: endpoint.host, timeout: timeout) {
            case .success(let found): addresses = found
            case .failure(let failure): problem = failure.message
            }
        }
        return (ProbeTarget(label: label, host: endpoint.host, addresses: addresses, port: endpoint.port, tls: tls), nil, problem)
    }

    static func probePhases(_ only: Set<String>?) -> GatewayProbe.Phases {
        guard let only else { return .all }
        var phases: GatewayProbe.Phases = []
        if only.contains("gw.tcp") { phases.insert(.tcp) }
        if only.contains("gw.tls") || only.contains("gw.pin") || only.contains("gw.cert") { phases.insert([.tcp, .tls]) }
        if only.contains("gw.http") { phases.insert([.tcp, .tls, .health]) }
        if only.contains("gw.websocket") || only.contains("gw.protocol") { phases.insert([.tcp, .tls, .websocket]) }
        return phases
    }

    /// The machine checks the given targets need: mDNS for Gateways found by mDNS, the
    /// resolver and the domain for Gateways found by DNS-SD or given by name.
    static func dependencies(of gateways: [GatewayResult]) -> Set<String> {
        var needed = Set<String>()
        for gateway in gateways {
            if let beacon = gateway.beacon {
                if beacon.sources.contains(.mdns) { needed.formUnion(["mdns.dbus", "mdns.daemon", "mdns.interfaces", "mdns.browse"]) }
                if beacon.sources.contains(.unicast) { needed.formUnion(["dns.resolver", "dns.widearea"]) }
            } else if IPAddress(gateway.target.host) == nil {
                needed.insert("dns.resolver")
            }
        }
        return needed
    }
}
