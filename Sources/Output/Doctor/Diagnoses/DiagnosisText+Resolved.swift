import DNSSD
import Doctor
import Host

/// The words of split DNS through systemd-resolved: the link that lacks the routing domain,
/// and the two resolvectl commands that give it one.
extension DiagnosisText {
    /// Tailscale's resolver (MagicDNS and split DNS), which answers for the tailnet's domains.
    static let tailscaleResolver = "100.100.100.100"

    static func resolvedRoute(_ domain: DomainName, _ link: ResolvedStatus.Link, routedBy: [String]) -> DiagnosisText {
        let name = domain.withoutTrailingDot
        let has =
            link.servers.isEmpty
            ? "\(link.name) has no DNS server in resolved"
            : "\(link.name) asks \(link.servers.joined(separator: ", "))"
                + (link.domains.isEmpty ? " for no domain" : " for \(link.domains.joined(separator: " "))")
        let elsewhere =
            routedBy.isEmpty ? "no link routes ~\(name)" : "resolved routes \(name) to \(routedBy.joined(separator: ", ")) instead"
        return DiagnosisText(
            cause: "\(domain.name) answers at Tailscale's resolver \(tailscaleResolver), not through systemd-resolved (resolv.conf points "
                + "at its stub 127.0.0.53): \(elsewhere), and \(has); the wide-area domain needs ~\(name) as a routing domain on "
                + "\(link.name)",
            fix: "`sudo resolvectl dns \(ShellWord.quoted(link.name)) \(tailscaleResolver)` and `sudo resolvectl domain "
                + "\(ShellWord.quoted(link.name)) \(ShellWord.quoted("~" + name))` (until "
                + "Tailscale reconnects); to keep it, add \(name) as a split DNS domain in the tailnet's DNS settings and let Tailscale "
                + "manage DNS here (`sudo tailscale set --accept-dns=true`)")
    }
}
