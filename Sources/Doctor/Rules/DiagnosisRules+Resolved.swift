import DNSSD
import Host

/// Split DNS through systemd-resolved. When resolv.conf is resolved's stub (127.0.0.53), a query
/// goes to the links whose routing domains match its name, else to the default-route links: a
/// wide-area domain that only Tailscale's resolver knows needs `~domain` on the tailnet link,
/// with 100.100.100.100 as that link's server (systemd-resolved.service(8), "Protocols and
/// Routing"; Tailscale sets both when it manages DNS, `tailscale up --accept-dns`).
extension DiagnosisRules {
    /// The link Tailscale's interface is, as resolved lists it.
    static let tailscaleLink = "tailscale0"

    static let resolvedRoutingDomain = DiagnosisRule.machine(.resolvedRoutingDomain, explains: [.dnsWideArea: [.splitDNS]]) { machine in
        guard let status = machine.facts.resolved else { return [] }
        let name = machine.facts.tailnet.interfaces.first ?? tailscaleLink
        let link = status.links.first { $0.name == name } ?? ResolvedStatus.Link(name: name)
        return machine.failing(.dnsWideArea, .splitDNS).compactMap { check in
            guard case .wideArea(let evidence) = check.evidence else { return nil }
            return Diagnosis(
                .resolvedRoutingDomain,
                .resolvedRoute(domain: evidence.domain, link: link, routedBy: status.routing(evidence.domain).map(\.name)),
                evidence: [.init(.dnsWideArea), .init(.dnsResolver), .init(.tailscaleInterface)])
        }
    }
}
