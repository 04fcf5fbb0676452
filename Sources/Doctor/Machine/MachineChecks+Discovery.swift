import Avahi
import DNSSD
import Host

/// mdns.browse, dns.resolver, dns.widearea, tailscale.interface: what discovery found, and
/// the resolver and tailnet it went through.
extension MachineChecks {
    static func browse(_ facts: MachineFacts, _ discovery: DiscoverySummary) -> Check {
        guard discovery.localBrowsed else { return Check(.mdnsBrowse, .skip, .localNotBrowsed) }
        let evidence = BrowseEvidence(
            found: discovery.localBeacons, answered: discovery.hostAnswers.first { $0.name != nil },
            silent: discovery.hostAnswers.filter { $0.answer == .noAnswer })
        guard discovery.localIsEmptyThoughUsable(facts) else { return Check(.mdnsBrowse, .pass, .ok, evidence: .browse(evidence)) }
        let reason: CheckReason =
            evidence.answered != nil ? .hostAnswersWithoutBeacon : evidence.silent.isEmpty ? .nothingInLocal : .hostSilent
        return Check(.mdnsBrowse, .warn, reason, evidence: .browse(evidence))
    }

    static func resolver(_ facts: MachineFacts) -> Check {
        let conf = facts.resolvConf
        let evidence = CheckEvidence.resolver(
            ResolverEvidence(conf: conf, systemdResolved: facts.systemdResolved, resolved: facts.resolved))
        if !conf.exists { return Check(.dnsResolver, .warn, .resolvConfMissing, evidence: evidence) }
        if !conf.problems.isEmpty { return Check(.dnsResolver, .warn, .resolvConfUnreadable, evidence: evidence) }
        return Check(.dnsResolver, .pass, .ok, evidence: evidence)
    }

    /// One check per wide-area domain.
    static func wideArea(_ facts: MachineFacts, _ discovery: DiscoverySummary) -> [Check] {
        guard !discovery.domains.isEmpty else { return [Check(.dnsWideArea, .skip, .noDomain)] }
        return discovery.domains.map { domain in
            let issues = discovery.issues.filter { $0.source == .unicast && $0.domain == domain.name }
            let found = discovery.beacons.filter { beacon in beacon.domain == domain || beacon.aliases.contains { $0.domain == domain.name }
            }
            if let split = issues.first(where: { $0.kind == .splitDNS }) {
                return Check(
                    .dnsWideArea, .fail, .splitDNS, evidence: .wideArea(WideAreaEvidence(domain: domain, found: found, issue: split)))
            }
            // Instances PowerDNS will not answer for are invisible however many others are found.
            if let eightBit = issues.first(where: { $0.kind == .eightBitNames }) {
                return Check(
                    .dnsWideArea, .fail, .domainError, evidence: .wideArea(WideAreaEvidence(domain: domain, found: found, issue: eightBit)))
            }
            let evidence = CheckEvidence.wideArea(WideAreaEvidence(domain: domain, found: found, issue: issues.first))
            if !found.isEmpty { return Check(.dnsWideArea, .pass, .ok, evidence: evidence) }
            if !issues.isEmpty { return Check(.dnsWideArea, .fail, .domainError, evidence: evidence) }
            return Check(.dnsWideArea, .warn, .domainEmpty, evidence: evidence)
        }
    }

    static func tailscale(_ facts: MachineFacts, _ discovery: DiscoverySummary) -> Check {
        let addresses = facts.tailnet.addresses
        let names = facts.interfaces.filter { interface in interface.addresses.contains { addresses.contains($0) } }.map(\.name)
        var evidence = TailnetEvidence(addresses: addresses, interfaces: names, wideArea: !discovery.domains.isEmpty)
        (evidence.settings, evidence.serve) = (facts.config.tailscale, facts.tailscaleServe)
        evidence.gatewayPort = facts.config.gatewayPort ?? Endpoint.defaultGatewayPort
        // gateway.tailscale.mode serve, and Serve proxies nothing to the Gateway's port.
        if evidence.settings.proxies, let serve = evidence.serve, serve.route(toPort: evidence.gatewayPort) == nil {
            return Check(.tailscaleInterface, .warn, .serveRouteMissing, evidence: .tailnet(evidence))
        }
        return addresses.isEmpty
            ? Check(.tailscaleInterface, .skip, .notOnTailnet, evidence: .tailnet(evidence))
            : Check(.tailscaleInterface, .pass, .ok, evidence: .tailnet(evidence))
    }
}
