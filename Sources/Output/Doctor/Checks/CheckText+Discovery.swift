import DNSSD
import Doctor
import Host

/// The words of mdns.browse, dns.resolver, dns.widearea and tailscale.interface.
extension CheckText {
    static func browse(_ reason: CheckReason, _ evidence: BrowseEvidence) -> CheckText {
        switch reason {
        case .hostAnswersWithoutBeacon:
            guard let host = evidence.answered else { break }
            return CheckText(
                "no Gateway answers in local., though its host answers mDNS: \(host.address) is \(host.name ?? "?") (Gateway "
                    + "\(host.gateway)); multicast reaches it, the Gateway does not advertise",
                fix:
                    "on the Gateway host check that the Gateway advertises (its log shows bonjour/mDNS errors); `clawnet advertise --name "
                    + "test` there tests that host's mDNS")
        case .hostSilent:
            guard let first = evidence.silent.first else { break }
            let addresses = evidence.silent.map(\.address.description)
            return CheckText(
                "no Gateway answers in local., and \(addresses.joined(separator: ", ")) (Gateway \(first.gateway)) "
                    + "\(addresses.count == 1 ? "does" : "do") not answer mDNS from here either",
                fix:
                    "allow UDP 5353 (224.0.0.251, ff02::fb) between the two hosts; `clawnet advertise --name test` on the Gateway host and "
                    + "`clawnet browse` here show when it crosses")
        case .nothingInLocal:
            return CheckText(
                "no Gateway answers in local.",
                fix:
                    "on the Gateway host run `clawnet advertise --name test`; if `clawnet browse` here still shows nothing, multicast does "
                    + "not cross the network (see the diagnosis)")
        default: break
        }
        let names = evidence.found.map(\.instance.displayName).joined(separator: ", ")
        return CheckText("\(Plural.counted(evidence.found.count, "Gateway")) in local.: \(names)")
    }

    static func resolver(_ reason: CheckReason, _ evidence: ResolverEvidence) -> CheckText {
        let conf = evidence.conf
        let servers = conf.servers.map(\.description).joined(separator: ", ")
        switch reason {
        case .resolvConfMissing:
            return CheckText(
                "no \(conf.path): the C library asks \(servers)",
                fix: "create \(conf.path) (or let systemd-resolved or NetworkManager manage it)")
        case .resolvConfUnreadable:
            return CheckText(conf.problems.joined(separator: "; "), fix: "correct the nameserver lines in \(conf.path)")
        default:
            let links = evidence.resolved.map { status in
                "; its links: "
                    + status.links.map { "\($0.name) \(($0.servers + $0.domains).joined(separator: " "))" }.joined(separator: ", ")
            }
            return CheckText("\(conf.path): \(servers)\(evidence.systemdResolved ? " (systemd-resolved)" : "")\(links ?? "")")
        }
    }

    static func wideArea(_ reason: CheckReason, _ evidence: WideAreaEvidence) -> CheckText {
        let domain = evidence.domain
        switch reason {
        case .splitDNS, .domainError:
            let words = evidence.issue.map(DiscoveryIssueText.init)
            return CheckText(words?.message ?? domain.name, fix: words?.fix)
        case .domainEmpty:
            return CheckText(
                "no Gateway is published in \(domain.name)",
                fix:
                    "check the domain's spelling (`dig SOA \(ShellWord.quoted(domain.withoutTrailingDot))` shows whether the zone "
                    + "exists); publish a Gateway with `clawnet zone generate --domain \(ShellWord.quoted(domain.withoutTrailingDot)) ...` "
                    + "on the DNS server")
        default:
            let via = Set(evidence.found.flatMap(\.resolvers)).sorted().joined(separator: ", ")
            return CheckText("\(Plural.counted(evidence.found.count, "Gateway")) in \(domain.name)\(via.isEmpty ? "" : " via \(via)")")
        }
    }

    static func tailnet(_ reason: CheckReason, _ evidence: TailnetEvidence) -> CheckText {
        if reason == .serveRouteMissing { return serveRouteMissing(evidence) }
        guard reason == .ok else {
            let note = evidence.wideArea ? "; wide-area domains must then be served by a resolver this machine uses" : ""
            return CheckText("not on a tailnet (no tailscale0 interface up, no 100.64.0.0/10 or fd7a:115c:a1e0::/48 address)\(note)")
        }
        return CheckText(
            "\(evidence.interfaces.joined(separator: ", ")): \(evidence.addresses.map(\.description).joined(separator: ", "))")
    }
}
