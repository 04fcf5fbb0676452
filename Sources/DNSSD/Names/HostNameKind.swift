/// The kinds of host name that OpenClaw's clients treat apart, told without regard to case or
/// a trailing dot (`Box.LOCAL.` is a `.local` name).
package enum HostNameKind: Sendable, Hashable {
    case localhost
    /// `.local` (and `local` itself): names that mDNS resolves.
    case multicastDNS
    /// `*.ts.net`: a Tailscale MagicDNS name.
    case magicDNS
    case other

    package init(_ name: DomainName) {
        let labels = name.labels.map { $0.lowercased() }
        if labels == ["localhost"] {
            self = .localhost
        } else if labels.last == "local" {
            self = .multicastDNS
        } else if labels.count > 2, labels.suffix(2) == ["ts", "net"] {
            self = .magicDNS
        } else {
            self = .other
        }
    }

    /// Text that is no host name (an IP literal, an instance's label) is `.other`.
    package init(_ host: String) {
        self = DomainName(host: host).map(Self.init) ?? .other
    }
}
