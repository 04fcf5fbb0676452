/// The kinds of host name that OpenClaw's clients treat apart, told without regard to case or
/// a trailing dot (`Box.LOCAL.` is a `.local` name).
public enum HostNameKind: Sendable, Hashable {
    case localhost
    /// `.local` (and `local` itself): names that mDNS resolves.
    case multicastDNS
    /// `*.ts.net`: a Tailscale MagicDNS name.
    case magicDNS
    case other

    public init(_ host: String) {
        let name = ConnectURL.withoutTrailingDot(host).lowercased()
        if name == "localhost" {
            self = .localhost
        } else if name == "local" || name.hasSuffix(".local") {
            self = .multicastDNS
        } else if name.hasSuffix(".ts.net") {
            self = .magicDNS
        } else {
            self = .other
        }
    }
}
