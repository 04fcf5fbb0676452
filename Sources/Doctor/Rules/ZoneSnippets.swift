import DNSSD
import Host
import Probes
import Zones

/// The records a wide-area zone needs for a Gateway doctor verified end to end (TCP, TLS,
/// connect.challenge, no failing check) that the zone lacks or publishes with other facts.
/// Written by the same writer as `zone generate`, from what the probe saw: the addresses that
/// answered, the port, the certificate actually served.
package struct ZoneSnippet: Sendable {
    package enum Reason: String, Sendable, Encodable {
        /// The domain does not publish this Gateway.
        case missing
        /// The domain publishes it with another port, other addresses or another fingerprint.
        case stale
    }

    /// What the published records say that the Gateway does not.
    package enum Difference: Sendable, Equatable {
        case port(published: Int, answers: Int)
        /// The routable addresses published (sorted), and those the Gateway answered at.
        case addresses(published: [IPAddress], answers: [IPAddress])
        case fingerprint(published: TLSFingerprint?, served: TLSFingerprint?)
    }

    package let domain: DomainName
    /// The Gateway, as doctor's report names it.
    package let target: String
    package let reason: Reason
    /// What the published records say that the Gateway does not (for `stale`).
    package let differences: [Difference]
    /// The zone fragment: `$ORIGIN`, `$TTL`, and the Gateway's A/AAAA, PTR, SRV and TXT.
    package let records: String
    /// The CoreDNS server block that would serve the zone, when no server answers for it yet and
    /// doctor knows where one would run.
    package let corefile: String?
    /// The Gateway as written, for a fragment that holds several.
    package let gateway: ZoneGateway
    /// For a stale record: nsupdate input that replaces it (the old records out, the new in).
    package var update: String?
}

package enum ZoneSnippets {
    /// Where `zone generate --corefile` users usually keep the zone; the stanza names it.
    static func zonePath(_ domain: DomainName) -> String { "/etc/coredns/\(domain.withoutTrailingDot).db" }

    package static func make(_ gateways: [GatewayResult], discovery: DiscoverySummary, facts: MachineFacts) -> [ZoneSnippet] {
        discovery.domains.flatMap { domain in
            gateways.compactMap { snippet(for: $0, domain: domain, discovery: discovery, facts: facts) }
        }
    }

    /// A Gateway passed every layer doctor ran up to its first frame, and failed nothing.
    static func verified(_ result: GatewayResult) -> Bool {
        guard !result.checks.contains(where: { $0.status == .fail }),
            result.check(.gwProtocol)?.status == .pass, !result.answered.isEmpty
        else { return false }
        return !result.target.tls || result.served != nil
    }

    static func snippet(for result: GatewayResult, domain: DomainName, discovery: DiscoverySummary, facts: MachineFacts) -> ZoneSnippet? {
        guard verified(result), var gateway = zoneGateway(result) else { return nil }
        let inDomain = discovery.beacons.filter { $0.domain == domain || $0.aliases.contains { $0.domain == domain.name } }
        // The Gateway's own record in the domain (a path of it, by discovery's identity) is
        // stale only in its certificate: a renewal the zone missed.
        let own = result.beacon.map(Doctor.sightings)?.first { $0.domain == domain }
        if let own {
            guard let advertised = own.gateway.tlsSha256, let served = result.served, advertised != served else { return nil }
        } else if let beacon = result.beacon, inDomain.contains(beacon) {
            return nil
        }
        let published = own ?? inDomain.first { $0.instance == gateway.instance }
        if let published {
            gateway = ZoneGateway(
                instance: published.instance, hostLabel: gateway.hostLabel, addresses: gateway.addresses, port: gateway.port,
                txt: gateway.txt)
        }
        let differences = published.map { differencesOf($0, gateway: gateway, served: result.served) } ?? []
        if published != nil && differences.isEmpty { return nil }
        let content = ZoneContent(domain: domain, gateways: [gateway], nameServerAddresses: [])
        guard let records = try? ZoneWriter.fragment(content).text else { return nil }
        // A server that already answers for the domain serves it: it needs no new server block.
        let served = !inDomain.isEmpty
        var snippet = ZoneSnippet(
            domain: domain, target: result.target.label, reason: published == nil ? .missing : .stale, differences: differences,
            records: records,
            corefile: served ? nil : corefile(domain, inDomain: inDomain, asked: discovery.askedServers, facts: facts), gateway: gateway)
        snippet.update = published.flatMap { update(content, replacing: $0, differences: differences) }
        return snippet
    }

    /// The Gateway from verified facts only; its name and hints from its beacon when it has one
    /// (OpenClaw's `<host>-gateway` rule otherwise).
    static func zoneGateway(_ result: GatewayResult) -> ZoneGateway? {
        let addresses = ZoneGateway.routable(result.answered)
        guard !addresses.isEmpty else { return nil }
        let name = result.beacon?.host?.name ?? result.target.hostName
        let hostSource = name?.labels.first ?? result.beacon?.gateway.lanHost ?? ""
        let hostLabel = ZoneGateway.label(hostSource, fallback: "openclaw")
        let beacon = result.beacon.flatMap { $0.isManualOnly ? nil : $0 }
        guard
            let instance = beacon?.instance
                ?? (try? InstanceName(decoded: ZoneGateway.label("\(hostLabel)-gateway", fallback: "openclaw-gw")))
        else { return nil }
        let info = beacon?.gateway
        var txt = GatewayTXT(
            displayName: info?.displayName ?? (beacon != nil ? GatewayTXT.displayName(ofInstance: instance.displayName) : hostLabel),
            gatewayPort: result.target.port)
        txt.tls = result.served != nil
        txt.fingerprint = result.served
        txt.directReachable = info?.directReachable ?? false
        txt.tailnetDns = info?.tailnetDns
        txt.sshPort = info?.sshPort
        txt.cliPath = info?.cliPath
        guard let record = try? txt.record(.wideAreaZone) else { return nil }
        return ZoneGateway(instance: instance, hostLabel: hostLabel, addresses: addresses, port: result.target.port, txt: record)
    }

    /// How a published beacon differs from what the probe verified.
    static func differencesOf(_ published: GatewayBeacon, gateway: ZoneGateway, served: TLSFingerprint?) -> [ZoneSnippet.Difference] {
        var differences: [ZoneSnippet.Difference] = []
        if let port = published.port, port != gateway.port { differences.append(.port(published: port, answers: gateway.port)) }
        let addresses = Set(ZoneGateway.routable(published.addresses))
        if addresses != Set(gateway.addresses) { differences.append(.addresses(published: addresses.sorted(), answers: gateway.addresses)) }
        if published.gateway.tlsSha256 != served {
            differences.append(.fingerprint(published: published.gateway.tlsSha256, served: served))
        }
        return differences
    }

    /// The stanza for the DNS server that answers the domain: the one that gave its beacons,
    /// else the one asked (--server), else this machine's tailnet addresses, else the system's
    /// resolvers that could be a CoreDNS (not systemd-resolved's stub, not Tailscale's); nil
    /// when none is known.
    static func corefile(_ domain: DomainName, inDomain: [GatewayBeacon], asked: [DNSServer], facts: MachineFacts) -> String? {
        let answered = inDomain.flatMap(\.resolvers).compactMap { IPAddress(String($0.split(separator: "#").first ?? "")) }
        let resolvers = facts.resolvConf.servers.map(\.address).filter { !notCoreDNS.contains($0) }
        let candidates = [answered, asked.map(\.address), facts.tailnet.addresses.map(\.withoutZone), resolvers]
        guard let bind = candidates.first(where: { !$0.isEmpty }) else { return nil }
        return try? CorefileWriter.stanza(domain: domain, bind: Array(Set(bind)).sorted(), zonePath: zonePath(domain))
    }

    /// Resolvers that are never the zone's CoreDNS: systemd-resolved's stubs and Tailscale's.
    static let notCoreDNS = ["127.0.0.53", "127.0.0.54"].compactMap { IPAddress($0) } + [DNSServer.tailscale.address]

    /// One fragment with every snippet of `domain`, as `doctor --emit-zone` writes it.
    package static func fragment(_ snippets: [ZoneSnippet], domain: DomainName) throws(ZoneError) -> String {
        let gateways = snippets.filter { $0.domain == domain }.map(\.gateway)
        return try ZoneWriter.fragment(ZoneContent(domain: domain, gateways: gateways, nameServerAddresses: [])).text
    }
}
