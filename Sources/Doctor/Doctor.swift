import Avahi
import DNSClient
import DNSSD
import DNSWire
import Discovery
import Host
import Probes

/// A Gateway named on doctor's command line: a URL or HOST[:PORT], or an instance name that
/// `clawnet browse` shows.
public struct DoctorTarget: Sendable, Hashable {
    /// As typed; a URL without its user info, path, query and fragment (`EndpointSpec.text`).
    public let text: String
    /// nil when the text is neither a URL nor a host (then only an instance name can match).
    public let endpoint: EndpointSpec?

    /// Throws when the text is meant as a URL or HOST:PORT (a scheme, or a port after a host)
    /// and is a bad one: a port out of range is a mistake to name, not an instance to look for.
    public init(_ text: String) throws(DNSSDError) {
        do {
            self.endpoint = try EndpointSpec(parsing: text)
        } catch {
            if Self.meantAsEndpoint(text) { throw error }
            self.endpoint = nil
        }
        self.text = endpoint?.text ?? text
    }

    static func meantAsEndpoint(_ text: String) -> Bool {
        if text.contains("://") { return true }
        guard let colon = text.lastIndex(of: ":") else { return false }
        let port = text[text.index(after: colon)...]
        return !port.isEmpty && port.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-" || $0 == "+") })
            && (try? EndpointSpec(parsing: String(text[..<colon]))) != nil
    }
}

public struct DoctorOptions: Sendable {
    /// Empty: everything discovered plus the configured (or default) manual target.
    public var targets: [DoctorTarget] = []
    /// Domains, servers and whether to browse local. (types and manual targets are doctor's own).
    public var discovery = DiscoveryOptions()
    /// --no-local: mDNS is neither browsed nor checked (no D-Bus or Avahi finding can fail).
    public var noLocal = false
    public var pin: TLSFingerprint?
    /// A token for the Gateways doctor is told about (--token-file): the named targets, or
    /// gateway.remote.url on a node. Never sent to Gateways discovery finds.
    public var token: GatewayToken?
    /// The node's device identity (--as-device), shown to the same Gateways as the token.
    public var device: DeviceIdentity?
    /// Where a CA-issued certificate is checked (SSL_CERT_FILE, else the system's store).
    public var trustRoots = TrustRoots.system
    /// OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1: credentials over plain ws:// to any private address.
    public var allowPrivatePlainText = false
    /// The whole run (see `Doctor.run`).
    public var timeout: Duration = .seconds(5)
    /// Only these checks (and what they need); nil: all.
    public var only: Set<CheckID>?
    public var probeLimit = 256

    public init() {}

    /// What the environment says about sending credentials: SSL_CERT_FILE and OpenClaw's
    /// OPENCLAW_ALLOW_INSECURE_PRIVATE_WS.
    public mutating func read(environment: [String: String]) {
        trustRoots = TrustRoots(environment: environment)
        allowPrivatePlainText = environment["OPENCLAW_ALLOW_INSECURE_PRIVATE_WS"] == "1"
    }
}

/// What doctor found: the machine's checks, each Gateway's, and the causes they add up to.
public struct DoctorResult: Sendable {
    public struct Gateway: Sendable {
        /// How the report names it: its URL, or what the user typed.
        public let target: String
        public let beacon: GatewayBeacon?
        public let checks: [Check]
    }

    public let status: Check.Status
    public let checks: [Check]
    public let gateways: [Gateway]
    public let diagnosis: [Diagnosis]
    /// Records to add to a wide-area zone for verified Gateways it lacks or has stale.
    public var snippets: [ZoneSnippet] = []
    public let elapsed: Duration
}

/// Checks this machine and every Gateway it should reach, then names the causes.
public enum Doctor {
    /// A Gateway to probe, where it came from, and a lookup problem when its name did not resolve.
    struct Target {
        var probe: ProbeTarget
        var beacon: GatewayBeacon?
        var dnsProblem: DNSProblem?
        /// The fingerprint this Gateway is pinned to: --pin, or gateway.remote.tlsFingerprint.
        var pin: TLSFingerprint?
        var pinSource = "--pin"
        /// The default 127.0.0.1 target (no targets given).
        var isLocalFallback = false

        /// A URL or host that a discovered beacon also names (its port and one of its
        /// addresses, as browse merges a manual target) is that Gateway: its name and TXT come along.
        mutating func join(_ beacons: [GatewayBeacon]) {
            let addresses = Set(probe.addresses.map(\.withoutZone))
            guard beacon == nil,
                let found = beacons.first(where: { beacon in
                    !beacon.isManualOnly && beacon.port == probe.port && beacon.addresses.contains { addresses.contains($0.withoutZone) }
                })
            else { return }
            beacon = found
            probe.advertisedFingerprint = found.gateway.tlsSha256
        }
    }

    /// `--timeout` bounds the whole run: discovery and the lookups of named hosts share the
    /// first half of it, the probes have what is left (and at most `ProbeClock.margin` more
    /// to finish a phase they started).
    public static func run(_ options: DoctorOptions, system: any SystemInspector) async -> DoctorResult {
        let started = ContinuousClock.now
        let lookupsEnd = started + options.timeout / 2
        let end = started + options.timeout
        let only = options.only.map(CheckID.closure)
        let facts = await BlockingThreads.shared.value { MachineFacts.gather(system) }
        let options = nodeTargets(options, facts: facts)
        async let discovered = discover(options, facts: facts, timeout: left(until: lookupsEnd))
        async let lookedUp = lookUpNamed(options, facts: facts, until: lookupsEnd)
        var discovery = await discovered
        var (targets, unknown) = targets(options, discovery: discovery, resolved: await lookedUp)
        if options.targets.isEmpty, !facts.isNode,
            let fallback = await localFallback(targets, options: options, facts: facts)
        {
            targets.append(fallback)
        }
        targets = targets.map { guarded($0, options) }

        // Probes, all at once within the bound. Meanwhile, when local. is empty, ask whether
        // the hosts of the Gateways found another way answer mDNS: that tells "multicast
        // blocked" from "not advertising".
        let askHosts =
            discovery.localBrowsed && facts.avahiRunning && discovery.localBeacons.isEmpty && (only?.contains(.mdnsBrowse) ?? true)
        let lanHosts = askHosts ? lanAddresses(targets.map(\.probe)) : []
        let probeBudget = left(until: end)
        async let answers = AvahiAddressLookup.names(of: lanHosts.map(\.address), timeout: min(probeBudget, .seconds(2)))
        let gateways =
            await probe(targets, options: options, budget: probeBudget, only: only, anyDiscovered: !discovery.beacons.isEmpty, facts: facts)
            + unknown.map(unknownTarget)
        let found = await answers
        discovery.hostAnswers = lanHosts.compactMap { host in
            found[host.address].map { HostAnswer(address: host.address, gateway: host.gateway, answer: $0) }
        }

        var machine = MachineChecks.run(facts, discovery: discovery, multicast: !options.noLocal)
        if !options.targets.isEmpty { machine = relaxUnneeded(machine, needed: dependencies(of: gateways)) }
        let diagnosis = DiagnosisRules.diagnose(MachineEvidence(checks: machine, facts: facts, discovery: discovery), gateways: gateways)
        var result = result(machine: machine, gateways: gateways, diagnosis: diagnosis, only: only, elapsed: ContinuousClock.now - started)
        result.snippets = ZoneSnippets.make(gateways, discovery: discovery, facts: facts)
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
        return DiscoverySummary(localBrowsed: request.local, domains: request.domains, beacons: snapshot.beacons, issues: snapshot.issues)
    }

    /// A node checks the Gateway its config names, as if it had been named here.
    static func nodeTargets(_ options: DoctorOptions, facts: MachineFacts) -> DoctorOptions {
        guard options.targets.isEmpty, facts.isNode, let url = facts.config.node.remoteURL,
            let target = try? DoctorTarget(url.text)
        else { return options }
        var options = options
        options.targets = [target]
        return options
    }

    /// Every named target that is a URL or HOST[:PORT], resolved at once (while discovery
    /// runs; an instance name it finds takes precedence), by its index among the targets.
    static func lookUpNamed(_ options: DoctorOptions, facts: MachineFacts, until deadline: ContinuousClock.Instant) async -> [Int: Target] {
        let config = facts.config
        let defaultPort = config.gatewayPort ?? Endpoint.defaultGatewayPort
        return await withTaskGroup(of: (Int, Target)?.self) { group in
            for (index, wanted) in options.targets.enumerated() {
                guard let endpoint = wanted.endpoint?.endpoint(defaultPort: defaultPort) else { continue }
                group.addTask {
                    let tls = endpoint.scheme.map { $0 == .wss } ?? (config.tlsEnabled ?? false)
                    var target = await endpointTarget(endpoint, label: wanted.text, tls: tls, until: deadline, facts: facts)
                    target.probe.credentials = credentials(for: endpoint, options: options, config: config)
                    target.pin = options.pin
                    if options.pin == nil, isRemoteURL(endpoint, config), let pin = config.node.remoteTLSFingerprint {
                        (target.pin, target.pinSource) = (pin, "gateway.remote.tlsFingerprint")
                    }
                    return (index, target)
                }
            }
            var resolved: [Int: Target] = [:]
            for await case (let index, let target)? in group { resolved[index] = target }
            return resolved
        }
    }

    /// The targets named (a discovered instance name first, then the URL or host it is), or
    /// every discovered Gateway when none are named; and the names that match nothing.
    static func targets(_ options: DoctorOptions, discovery: DiscoverySummary, resolved: [Int: Target]) -> ([Target], [DoctorTarget]) {
        guard !options.targets.isEmpty else {
            return (discovery.beacons.map { Target(probe: probeTarget($0), beacon: $0, pin: options.pin) }, [])
        }
        var targets: [Target] = []
        var unknown: [DoctorTarget] = []
        for (index, wanted) in options.targets.enumerated() {
            if let beacon = discovery.beacons.first(where: { Self.named($0, wanted.text) }) {
                var target = Target(probe: probeTarget(beacon), beacon: beacon, pin: options.pin)
                target.probe.credentials = ConnectCredentials(token: options.token, device: options.device)
                targets.append(target)
            } else if var target = resolved[index] {
                target.join(discovery.beacons)
                targets.append(target)
            } else {
                unknown.append(wanted)
            }
        }
        return (targets, unknown)
    }

    /// A discovered Gateway's instance name equals `text` (as DNS compares names: ASCII case
    /// ignored, every other byte exact).
    static func named(_ beacon: GatewayBeacon, _ text: String) -> Bool {
        (try? InstanceName(decoded: text)).map { $0 == beacon.instance } ?? false
    }

    /// 127.0.0.1 on the configured port, unless a discovered Gateway is already there; on a
    /// Gateway host it is shown the host's own token.
    static func localFallback(_ targets: [Target], options: DoctorOptions, facts: MachineFacts) async -> Target? {
        let config = facts.config
        let port = config.gatewayPort ?? Endpoint.defaultGatewayPort
        let loopback = IPAddress("127.0.0.1")!
        guard !targets.contains(where: { $0.probe.port == port && $0.probe.addresses.contains(loopback) }) else { return nil }
        let endpoint = Endpoint(host: loopback.description, port: port)
        var target = await endpointTarget(
            endpoint, label: endpoint.description, tls: config.tlsEnabled ?? false, until: .now + options.timeout, facts: facts)
        target.probe.credentials = ConnectCredentials(token: config.node.token)
        target.pin = options.pin
        target.isLocalFallback = true
        return target
    }

    /// Every target probed at once (only the phases the requested checks need), and its checks.
    static func probe(
        _ targets: [Target], options: DoctorOptions, budget: Duration, only: Set<CheckID>?, anyDiscovered: Bool, facts: MachineFacts
    ) async -> [GatewayResult] {
        let phases = probePhases(only)
        let reports =
            phases.isEmpty
            ? targets.map { ProbeReport(target: $0.probe) }
            : await GatewayProbe.runAll(targets.map(\.probe), budget: budget, limit: options.probeLimit, phases: phases)
        return zip(targets, reports).map { target, report in
            var checks = GatewayChecks.run(
                report, dnsProblem: target.dnsProblem, pin: target.pin, pinSource: target.pinSource, budget: budget, routes: facts.routes)
            if target.isLocalFallback && anyDiscovered {
                checks = relaxLocalFallback(checks, label: target.probe.label, configured: facts.config.exists)
            }
            return GatewayResult(
                target: target.probe, beacon: target.beacon, checks: checks,
                tcp: report.tcp, served: report.tlsFacts?.fingerprint)
        }
    }

    static func unknownTarget(_ target: DoctorTarget) -> GatewayResult {
        let probe = ProbeTarget(label: target.text, host: target.text, addresses: [], port: Endpoint.defaultGatewayPort, tls: false)
        return GatewayResult(
            target: probe, beacon: nil,
            checks: [
                Check(
                    .gwDNS, .fail, .unknownTarget, "no Gateway named '\(target.text)' was discovered, and it is not a host name or URL",
                    fix: "`clawnet browse` lists the names; give a URL (wss://host:port) or HOST[:PORT] otherwise")
            ])
    }

    /// The report, keeping only the requested checks (and the causes they show).
    static func result(machine: [Check], gateways: [GatewayResult], diagnosis: [Diagnosis], only: Set<CheckID>?, elapsed: Duration)
        -> DoctorResult
    {
        func wanted(_ id: CheckID) -> Bool { only?.contains(id) ?? true }
        let checks = machine.filter { wanted($0.id) }
        let reports = gateways.map { result in
            DoctorResult.Gateway(target: result.target.label, beacon: result.beacon, checks: result.checks.filter { wanted($0.id) })
        }
        let status = (checks + reports.flatMap(\.checks)).map(\.status).max() ?? .pass
        return DoctorResult(
            status: status == .skip ? .pass : status, checks: checks, gateways: reports,
            diagnosis: diagnosis.filter { $0.evidence.contains { wanted($0.check) } }, elapsed: elapsed)
    }

    /// Nothing listening on 127.0.0.1 is news only when no Gateway was found elsewhere, or
    /// when this machine is configured to run one: a node usually has no Gateway of its own.
    static func relaxLocalFallback(_ checks: [Check], label: String, configured: Bool) -> [Check] {
        checks.map { check in
            guard check.id == .gwTCP, check.status == .fail, check.reason == .nothingListensLocally else { return check }
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

    /// With explicit targets, a machine check that fails but that no target depends on is a
    /// warning (the targets decide the exit code).
    static func relaxUnneeded(_ checks: [Check], needed: Set<CheckID>) -> [Check] {
        checks.map { check in
            guard check.status == .fail, !needed.contains(check.id) else { return check }
            var relaxed = check
            relaxed.status = .warn
            return relaxed
        }
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

    /// What a discovered beacon is probed as: its SRV host (for SNI and Host), addresses, port,
    /// TLS as advertised, and the advertised fingerprint as a hint.
    static func probeTarget(_ beacon: GatewayBeacon) -> ProbeTarget {
        let gateway = beacon.gateway
        return ProbeTarget(
            label: beacon.url ?? "\(beacon.instance.displayName)",
            host: beacon.host.map(ConnectURL.withoutTrailingDot) ?? beacon.addresses.first?.description ?? beacon.instance.displayName,
            addresses: beacon.addresses, port: beacon.port ?? Endpoint.defaultGatewayPort,
            tls: gateway.tls, advertisedFingerprint: gateway.tlsSha256)
    }

    /// `deadline` bounds the lookup and the explanation of a failed one together.
    static func endpointTarget(
        _ endpoint: Endpoint, label: String, tls: Bool, until deadline: ContinuousClock.Instant, facts: MachineFacts
    ) async -> Target {
        var addresses: [IPAddress] = []
        var problem: DNSProblem?
        if let address = endpoint.address {
            addresses = [address]
        } else {
            switch await HostLookup.addresses(of: endpoint.host, timeout: left(until: deadline)) {
            case .success(let found): addresses = found
            case .failure(let failure):
                problem = await explain(failure, host: endpoint.host, facts: facts, timeout: left(until: deadline))
            }
        }
        return Target(
            probe: ProbeTarget(label: label, host: endpoint.host, addresses: addresses, port: endpoint.port, tls: tls), dnsProblem: problem)
    }

    /// Why a name gave no address: it does not exist, a `.local` name without nss-mdns, or a
    /// MagicDNS name that only Tailscale's resolver knows (asked directly to tell).
    static func explain(_ failure: HostLookup.Failure, host: String, facts: MachineFacts, timeout: Duration) async -> DNSProblem {
        let kind = HostNameKind(host)
        if kind == .multicastDNS && !facts.nssMdns {
            return DNSProblem(failure.message, kind: .localWithoutNSS)
        }
        if kind == .magicDNS, let name = try? DNSName(presentation: ConnectURL.withoutTrailingDot(host) + ".") {
            let client = DNSClient(options: magicDNSOptions(timeout))
            async let v4 = client.query(name, .a, server: .tailscale)
            async let v6 = client.query(name, .aaaa, server: .tailscale)
            let answers = [try? await v4, try? await v6].compactMap { $0 }
            await client.shutdown()
            let found = answers.flatMap { response in
                response.message.answers.compactMap { record -> IPAddress? in
                    switch record.data {
                    case .a(let address), .aaaa(let address): address
                    default: nil
                    }
                }
            }
            if !found.isEmpty { return DNSProblem(failure.message, kind: .magicDNSOnly(Array(Set(found)).sorted())) }
        }
        switch failure.kind {
        case .notFound: return DNSProblem(failure.message, kind: .notFound)
        case .noAnswer: return DNSProblem(failure.message, kind: .noAnswer)
        case .other: return DNSProblem(failure.message, kind: .other)
        }
    }

    /// One quick question to Tailscale's resolver: it answers at once or not at all.
    static func magicDNSOptions(_ timeout: Duration) -> DNSClient.Options {
        var options = DNSClient.Options()
        options.attemptTimeout = min(timeout, .milliseconds(800))
        options.attempts = 1
        return options
    }

    static func probePhases(_ only: Set<CheckID>?) -> GatewayProbe.Phases {
        guard let only else { return .all }
        var phases: GatewayProbe.Phases = []
        if only.contains(.gwTCP) { phases.insert(.tcp) }
        if !only.isDisjoint(with: [.gwTLS, .gwPin, .gwCert]) { phases.insert([.tcp, .tls]) }
        if only.contains(.gwHTTP) { phases.insert([.tcp, .tls, .health]) }
        if !only.isDisjoint(with: [.gwWebSocket, .gwProtocol]) { phases.insert([.tcp, .tls, .websocket]) }
        if only.contains(.gwConnect) { phases.insert([.tcp, .tls, .websocket, .connect]) }
        return phases
    }

    /// The machine checks the given targets need: mDNS for Gateways found by mDNS, the
    /// resolver and the domain for Gateways found by DNS-SD or given by name.
    static func dependencies(of gateways: [GatewayResult]) -> Set<CheckID> {
        var needed = Set<CheckID>()
        for gateway in gateways {
            if let beacon = gateway.beacon {
                if beacon.sources.contains(.mdns) { needed.formUnion([.mdnsDBus, .mdnsDaemon, .mdnsInterfaces, .mdnsBrowse]) }
                if beacon.sources.contains(.unicast) { needed.formUnion([.dnsResolver, .dnsWideArea]) }
            } else if IPAddress(gateway.target.host) == nil {
                needed.insert(.dnsResolver)
            }
        }
        return needed
    }
}
