import DNSSD
import Discovery

/// discovery.gateways: the beacons discovery found, told apart by discovery's own identity rule
/// (GatewayIdentity: one listener, one host, one certificate is one Gateway). The same Gateway
/// seen through several paths is already one beacon (the merger); two instance names in one
/// domain with one identity are one Gateway advertised twice (a name conflict renamed it
/// "… (2)", or several interfaces each announced it). Two Gateways on one host (profiles,
/// ports) are two. `openclaw gateway probe` warns `multiple_gateways` only for distinct
/// Gateways (docs/cli/gateway.md), and so does this.
package struct GatewaysEvidence: Sendable, Equatable {
    /// One Gateway and the beacons that advertise it.
    package struct Sighting: Sendable, Equatable {
        package let identity: String
        package let beacons: [GatewayBeacon]
        package var names: [String] { beacons.map(\.instance.displayName) }
    }

    /// A beacon whose TXT says another port or host than its SRV (what a phone or a node that
    /// reads the TXT dials is not what DNS-SD resolves).
    package struct Disagreement: Sendable, Equatable {
        package let name: String
        package let field: String
        package let txt: String
        package let srv: String
    }

    /// One SRV host name, claimed by Gateways at different addresses (two machines, one name).
    package struct HostCollision: Sendable, Equatable {
        package let host: String
        package let addresses: [[IPAddress]]
    }

    package let gateways: [Sighting]
    package let disagreements: [Disagreement]
    package let collisions: [HostCollision]

    package init(beacons: [GatewayBeacon]) {
        gateways = GatewayIdentity.group(beacons).map { Sighting(identity: $0[0].gatewayID, beacons: $0) }
        disagreements = beacons.flatMap(Self.disagreements)
        collisions = Self.collisions(gateways)
    }

    /// gatewayPort against the SRV port, lanHost against the SRV host (mDNS only: a wide-area
    /// SRV names the tailnet or DNS host, and lanHost is for the LAN).
    static func disagreements(_ beacon: GatewayBeacon) -> [Disagreement] {
        let info = beacon.reading.info
        let name = beacon.instance.displayName
        var found: [Disagreement] = []
        if let advertised = info.gatewayPort, let port = beacon.port, advertised != port {
            found.append(Disagreement(name: name, field: "gatewayPort", txt: String(advertised), srv: String(port)))
        }
        if beacon.sources.contains(.mdns), let lanHost = info.lanHost, let host = beacon.host, BeaconHost(lanHost).key != host.key {
            found.append(Disagreement(name: name, field: "lanHost", txt: lanHost, srv: host.text))
        }
        return found
    }

    /// Distinct Gateways whose SRV hosts are one name with no address in common.
    static func collisions(_ gateways: [Sighting]) -> [HostCollision] {
        var byHost: [String: [[IPAddress]]] = [:]
        for gateway in gateways {
            guard let beacon = gateway.beacons.first, let host = beacon.host, !beacon.addresses.isEmpty else { continue }
            byHost[host.key, default: []].append(beacon.addresses)
        }
        return byHost.keys.sorted().compactMap { host in
            let sets = byHost[host] ?? []
            let distinct = Array(Set(sets.map { Set($0) })).map { Array($0).sorted() }
            guard distinct.count > 1, Set(distinct.flatMap { $0 }).count == distinct.map(\.count).reduce(0, +) else { return nil }
            return HostCollision(host: host, addresses: distinct.sorted { $0.description < $1.description })
        }
    }

    /// Gateways advertised under more than one instance name.
    package var advertisedTwice: [Sighting] { gateways.filter { $0.beacons.count > 1 } }
}

extension MachineChecks {
    /// The worst finding first: a TXT that contradicts its SRV, a host name two machines claim,
    /// one Gateway under several names, then several distinct Gateways (only a warning: some
    /// run isolated profiles on purpose).
    static func gatewaysSeen(_ discovery: DiscoverySummary) -> Check {
        // Discovered beacons only: Gateways named on the command line are the user's choice.
        let evidence = GatewaysEvidence(beacons: discovery.beacons.filter { $0.sources != [.manual] })
        let wrapped = CheckEvidence.gateways(evidence)
        guard !evidence.gateways.isEmpty else { return Check(.discoveryGateways, .skip, .noGatewaysSeen, evidence: wrapped) }
        if !evidence.disagreements.isEmpty { return Check(.discoveryGateways, .warn, .txtDisagreesWithSRV, evidence: wrapped) }
        if !evidence.collisions.isEmpty { return Check(.discoveryGateways, .warn, .hostNameCollision, evidence: wrapped) }
        if !evidence.advertisedTwice.isEmpty { return Check(.discoveryGateways, .warn, .advertisedTwice, evidence: wrapped) }
        if evidence.gateways.count > 1 { return Check(.discoveryGateways, .warn, .multipleGateways, evidence: wrapped) }
        return Check(.discoveryGateways, .pass, .ok, evidence: wrapped)
    }
}
