import DNSSD
import Discovery
import Host
import Probes

/// Resolving the targets: the Gateways named (an instance name, a URL, a host), or everything
/// discovered plus this machine's own port; each with its pin and the credentials it may be
/// shown (`Doctor+Credentials`).
extension Doctor {
    /// A Gateway to probe, where it came from, and a lookup problem when its name did not resolve.
    struct Target {
        var probe: ProbeTarget
        var beacon: GatewayBeacon?
        var dnsProblem: DNSProblem?
        /// The fingerprint this Gateway is pinned to: --pin, or gateway.remote.tlsFingerprint.
        var pin: Pin?
        /// The default 127.0.0.1 target (no targets given).
        var isLocalFallback = false
        /// The default target, probed as ws:// (no config said TLS), answered TLS: probed again as wss://.
        var foundTLS = false

        /// What was typed, when the target was named as a URL or HOST[:PORT]: what it left out
        /// (the scheme, the port) a beacon that names the same host may say.
        var typed: EndpointSpec?

        /// A URL, host or address that is a discovered Gateway by discovery's own rule
        /// (`GatewayIdentity`, as browse and watch merge a manual target: an address in common on
        /// its port, or its host) is that Gateway: its name and TXT come along, and what the URL
        /// left out comes from the beacon as a node that trusts it connects: wss:// when it
        /// advertises TLS (`GatewayInfo.advertisesTLS`), and its port when no port was typed and it
        /// is the one Gateway there. A scheme or port typed stays. Every path's beacon counts.
        mutating func join(_ gateways: [GatewayBeacon]) {
            guard beacon == nil, let instance = try? InstanceName.truncating(probe.label) else { return }
            let sightings = gateways.flatMap(Doctor.sightings).filter { !$0.isManualOnly }
            let target = self
            func isThis(_ sighting: GatewayBeacon, on port: Int) -> Bool {
                GatewayIdentity.same(target.manual(instance, port: port), sighting)
            }
            let onPort = sightings.first { isThis($0, on: probe.port) }
            let elsewhere = sightings.filter { sighting in sighting.port.map { isThis(sighting, on: $0) } ?? false }
            let portless = typed?.port == nil && Set(elsewhere.map(\.gatewayID)).count == 1 ? elsewhere.first : nil
            guard let found = onPort ?? portless else { return }
            beacon = found
            probe.advertisedFingerprint = found.gateway.tlsSha256
            if let port = found.port { probe.port = port }
            if typed?.scheme == nil { probe.tls = found.gateway.advertisesTLS }
        }

        /// This target as a manual target on `port`, as browse's manual backend makes one.
        func manual(_ instance: InstanceName, port: Int) -> GatewayBeacon {
            GatewayBeacon(
                instance: instance, serviceType: .gateway, domain: nil, source: .manual, host: probe.host, port: port,
                addresses: probe.addresses, txt: .empty)
        }
    }

    /// A discovered Gateway's beacons, one per path (the first its main one), each under the
    /// Gateway's id.
    static func sightings(_ gateway: GatewayBeacon) -> [GatewayBeacon] {
        guard !gateway.sightings.isEmpty else { return [gateway] }
        return [gateway]
            + gateway.sightings.filter { $0.id != gateway.id }.map { sighting in
                var sighting = sighting
                sighting.assignedID = gateway.gatewayID
                return sighting
            }
    }

    /// The targets to probe, each guarded by its credential policy, and the names that match
    /// nothing; without named targets, 127.0.0.1 too unless this machine is a node.
    func resolve(discovery: DiscoverySummary, lookedUp: [Int: Target]) async -> ([Target], [DoctorTarget]) {
        var (targets, unknown) = namedOrDiscovered(discovery: discovery, resolved: lookedUp)
        if options.targets.isEmpty, !facts.isNode, let fallback = await localFallback(targets) {
            targets.append(fallback)
        }
        return (targets.map(guarded), unknown)
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
    func lookUpNamed(until deadline: Deadline) async -> [Int: Target] {
        let config = facts.config
        let defaultPort = config.gatewayPort ?? Endpoint.defaultGatewayPort
        return await withTaskGroup(of: (Int, Target)?.self) { group in
            for (index, wanted) in options.targets.enumerated() {
                guard let endpoint = wanted.endpoint?.endpoint(defaultPort: defaultPort) else { continue }
                group.addTask {
                    let tls = endpoint.scheme.map { $0 == .wss } ?? (config.tlsEnabled ?? false)
                    var target = await endpointTarget(endpoint, label: wanted.text, tls: tls, until: deadline)
                    target.typed = wanted.endpoint
                    target.probe.credentials = credentials(for: endpoint)
                    target.pin = options.pin.map { Pin($0) }
                    if options.pin == nil, Self.isRemoteURL(endpoint, config), let pin = config.node.remoteTLSFingerprint {
                        target.pin = Pin(pin, source: .remoteConfig)
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
    func namedOrDiscovered(discovery: DiscoverySummary, resolved: [Int: Target]) -> ([Target], [DoctorTarget]) {
        let pin = options.pin.map { Pin($0) }
        guard !options.targets.isEmpty else {
            // One Gateway advertised under several names (its "(2)", one name per interface) is
            // probed once; discovery.gateways names every beacon of it.
            let gateways = GatewaysEvidence(beacons: discovery.beacons).gateways.compactMap(\.beacons.first)
            return (gateways.map { Target(probe: Self.probeTarget($0), beacon: $0, pin: pin) }, [])
        }
        var targets: [Target] = []
        var unknown: [DoctorTarget] = []
        for (index, wanted) in options.targets.enumerated() {
            if let beacon = discovery.beacons.lazy.flatMap(Self.sightings).first(where: { Self.named($0, wanted.text) }) {
                var target = Target(probe: Self.probeTarget(beacon), beacon: beacon, pin: pin)
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
    func localFallback(_ targets: [Target]) async -> Target? {
        let config = facts.config
        let port = config.gatewayPort ?? Endpoint.defaultGatewayPort
        let loopback = IPAddress("127.0.0.1")!
        guard !targets.contains(where: { $0.probe.port == port && $0.probe.addresses.contains(loopback) }) else { return nil }
        let endpoint = Endpoint(host: loopback.description, port: port)
        // An address: nothing to look up.
        var target = await endpointTarget(endpoint, label: endpoint.description, tls: config.tlsEnabled ?? false, until: deadline)
        target.probe.credentials = ConnectCredentials(token: config.node.token)
        target.pin = options.pin.map { Pin($0) }
        target.isLocalFallback = true
        return target
    }

    /// A name that is neither a discovered Gateway nor a host or URL: only gw.dns, failed.
    static func unknownTarget(_ target: DoctorTarget) -> GatewayResult {
        let probe = ProbeTarget(label: target.text, host: target.text, addresses: [], port: Endpoint.defaultGatewayPort, tls: false)
        var evidence = GatewayEvidence(ProbeReport(target: probe), budget: .zero)
        evidence.dns.unknownTarget = true
        return GatewayResult(evidence: evidence, checks: [GatewayChecks.dns(evidence.dns)])
    }

    /// What a discovered beacon is probed as: its SRV host (for SNI and Host), addresses, port,
    /// TLS as advertised, and the advertised fingerprint as a hint.
    package static func probeTarget(_ beacon: GatewayBeacon) -> ProbeTarget {
        let gateway = beacon.gateway
        return ProbeTarget(
            label: beacon.url ?? "\(beacon.instance.displayName)",
            host: beacon.host?.text ?? beacon.addresses.first?.description ?? beacon.instance.displayName,
            addresses: beacon.addresses, port: beacon.port ?? Endpoint.defaultGatewayPort,
            tls: gateway.advertisesTLS, advertisedFingerprint: gateway.tlsSha256)
    }
}
