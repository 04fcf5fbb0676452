import DNSSD

/// The words of wide-area DNS-SD's issues (UnicastBackend, UnicastBrowse) and the config's.
extension DiscoveryIssueText {
    /// `domain`: the issue's, with its trailing dot.
    static func unicast(_ code: DiscoveryIssue.Code, domain: String) -> DiscoveryIssueText? {
        let bare = domain.hasSuffix(".") ? String(domain.dropLast()) : domain
        switch code {
        case .resolvConf(let problem): return DiscoveryIssueText(problem)
        case .splitDNS(let tailscale, let system):
            return DiscoveryIssueText(
                "\(domain) answers at Tailscale's resolver \(tailscale) but not through this machine's resolver "
                    + "(\(system.joined(separator: ", "))): split DNS is not applied here",
                fix:
                    "let Tailscale manage DNS (`sudo tailscale set --accept-dns=true`); on Linux that needs systemd-resolved "
                    + "(/etc/resolv.conf -> /run/systemd/resolve/stub-resolv.conf) or NetworkManager, otherwise Tailscale cannot "
                    + "install the route for \(bare). Check the tailnet's DNS settings list \(bare) as a split-DNS domain.")
        case .serviceNameInvalid(let error): return DiscoveryIssueText("cannot form the service name: \(error)")
        case .ptrUnanswered(let service, let type, let explanation, let answer):
            return DiscoveryIssueText("PTR \(service): \(explanation)", fix: ptrFix(answer, type: type, domain: domain))
        case .ptrTruncated(let service, let server, let records):
            return DiscoveryIssueText(
                "the PTR answer from \(server) was truncated even over TCP (\(records) records arrived): the RRset of "
                    + "\(service) does not fit in one DNS message (64 KiB)",
                fix: "split the Gateways across several domains (at most about 1,000 per domain), e.g. with "
                    + "`clawnet zone generate` per domain"
            )
        case .tooManyInstances(let service, let count, let limit):
            return DiscoveryIssueText(
                "\(service) lists \(count) instances; only the first \(limit) are resolved",
                fix: "a fleet this large belongs in several domains (`clawnet zone generate` per domain); if it is not yours, "
                    + "the server floods"
            )
        case .ptrNotInstance(let service, let target, let type):
            return DiscoveryIssueText(
                "PTR \(service) points to \(target), which is not an instance of \(type) in \(domain); ignored",
                fix: "PTR targets must be <instance>.\(type).\(domain)")
        case .instanceLabelInvalid(let name): return DiscoveryIssueText("instance name \(name) is not a valid label")
        case .eightBitNamesRefused(let instance, let explanation):
            return DiscoveryIssueText(
                "'\(instance)' is listed by PTR, but its SRV question got \(explanation): " + PowerDNSNames.cause, fix: PowerDNSNames.fix)
        case .srvMissing(let instance, let presentation, let type, let explanation):
            return DiscoveryIssueText(
                "'\(instance)' is listed by PTR but has no SRV record: \(explanation)",
                fix: "add `\(presentation).\(type) IN SRV 0 0 <port> <host>` to the \(domain) zone, or remove its PTR")
        default: return nil
        }
    }

    static func other(_ code: DiscoveryIssue.Code) -> DiscoveryIssueText {
        switch code {
        case .config(let warning): DiscoveryIssueText(warning)
        default: DiscoveryIssueText("\(code)")
        }
    }

    private static func ptrFix(_ answer: DiscoveryIssue.PTRAnswer, type: String, domain: String) -> String {
        let bare = domain.hasSuffix(".") ? String(domain.dropLast()) : domain
        switch answer {
        case .noSuchDomain(let server, let dig):
            return "no \(type) in \(domain) on \(server), or no such domain there: check its spelling (--domain, "
                + "discovery.wideArea.domain) with `dig SOA \(bare) \(dig)`; if the zone exists, check it (`clawnet zone check`) and "
                + "that the server loaded it"
        case .noRecords:
            return
                "no \(type) is published in \(domain) on that server: check the zone (`clawnet zone check`) and that the server loaded it"
        case .refused: return "the server refuses \(domain): it does not serve or forward it (split DNS not set up for this domain?)"
        case .serverFailure: return "the server failed to answer for \(domain): check its logs (zone not loaded, upstream unreachable)"
        case .failed(let fix): return fix
        case .other: return "check that the DNS server serves \(domain)"
        }
    }
}
