import Avahi
import DNSSD
import Doctor
import Host

/// The words of the machine's checks: the OpenClaw config, this Gateway's advertising, D-Bus
/// and Avahi, interfaces, UDP 5353, nss-mdns.
extension CheckText {
    static func config(_ reason: CheckReason, _ evidence: ConfigEvidence) -> CheckText {
        let config = evidence.config
        let path = config.path
        if evidence.asNode { return nodeConfig(config) }
        if reason == .restartLoop, let service = evidence.service { return restartLoop(service) }
        let bind = config.bind ?? .loopback
        switch reason {
        case .configUnreadable:
            return CheckText(
                config.warnings.joined(separator: "; "),
                fix: "make \(path) a regular file this user can read (`ls -l \(ShellWord.quoted(path))`), or give --config PATH")
        case .configMissing:
            return CheckText("no OpenClaw config at \(path): defaults apply (local., port 18789)")
        case .configInvalid:
            return CheckText(
                config.warnings.joined(separator: "; "), fix: "correct \(path) (JSON5); until then its broken settings are ignored")
        case .bindHostAlias: return bindHostAlias(config)
        case .loopbackListenerMissing: return loopbackListenerMissing(config)
        case .bindLoopback:
            return CheckText(
                "gateway.bind is \(config.bind == nil ? "not set (loopback by default)" : "loopback"): a Gateway here accepts connections "
                    + "from this machine only, though discovery may still advertise it",
                fix: "for nodes on other machines set gateway.bind to \"lan\" (or \"tailnet\") in \(path) and restart the Gateway")
        default:
            let port = config.gatewayPort ?? Endpoint.defaultGatewayPort
            return CheckText(
                "\(path): gateway.bind \(bind), port \(port)\(config.tlsEnabled == true ? ", TLS on" : "")" + loopbackListener(bind, port))
        }
    }

    /// A node: what it connects to (gateway.bind is the Gateway host's business, not checked).
    static func nodeConfig(_ config: OpenClawConfig) -> CheckText {
        let node = config.node
        guard let url = node.remoteURL else {
            return CheckText(
                "gateway.mode is \"remote\" but gateway.remote.url is not set: this node has no Gateway to connect to",
                fix: "set gateway.remote.url to the Gateway's URL (wss://host:18789) in \(config.path)")
        }
        var parts = ["node of \(url.text) (gateway.mode remote)"]
        if node.remoteTransport == .ssh {
            parts.append("through an SSH tunnel\(node.sshTarget.map { " to \($0)" } ?? "") (gateway.remote.transport ssh)")
        }
        if let pin = node.remoteTLSFingerprint { parts.append("pinned sha256 \(pin.short)…") }
        if let token = node.token {
            parts.append("token from \(token.source)")
        } else if let note = node.unresolvedToken {
            parts.append(note)
        } else {
            parts.append("no token")
        }
        return CheckText("\(config.path): " + parts.joined(separator: ", "))
    }

    static func advertising(_ reason: CheckReason, _ evidence: AdvertisingEvidence) -> CheckText {
        let settings = evidence.settings
        switch reason {
        case .notGatewayHost:
            return CheckText(
                evidence.isNode ? "a node (gateway.mode remote): no Gateway here to advertise" : "no OpenClaw config: no Gateway here")
        case .advertisingOff:
            guard let off = evidence.off else { break }
            return CheckText(
                "this Gateway does not advertise _openclaw-gw._tcp: \(off.setting)", fix: off.fix(configPath: evidence.configPath))
        default: break
        }
        let hostname = settings.mdnsHostname.map { "\($0) (OPENCLAW_MDNS_HOSTNAME)" } ?? "this host's name"
        let message =
            "bonjour plugin on, discovery.mdns.mode \(settings.mdnsMode ?? .minimal)\(settings.mdnsMode == nil ? " (default)" : ""): "
            + "this Gateway advertises _openclaw-gw._tcp as \(hostname)"
        guard reason == .advertisingInWSL else { return CheckText(message) }
        return CheckText(
            message + ", but from inside WSL2, whose NAT network keeps mDNS in",
            fix:
                "set networkingMode=mirrored in %UserProfile%\\.wslconfig (then `wsl --shutdown`), or use wide-area discovery "
                + "(`clawnet zone generate --this-host`)")
    }

    static func bus(_ reason: CheckReason, _ address: String, daemonInstalled: Bool) -> CheckText {
        guard reason == .busMissing else { return CheckText("system bus at \(address)") }
        let withoutSystemd = "`mkdir -p /run/dbus && dbus-daemon --system --fork`"
        guard daemonInstalled else {
            // Starting the bus alone leaves no mDNS daemon; avahi-daemon's package brings D-Bus, so it goes first.
            return CheckText(
                "the D-Bus system bus is not running (no socket for \(address)), and avahi-daemon, which needs it, is not installed",
                fix:
                    "install avahi-daemon first, which brings D-Bus: `sudo apt install avahi-daemon` (Fedora, Arch: the avahi package); "
                    + "then start the bus and the daemon: `sudo systemctl start dbus`, `sudo systemctl enable --now avahi-daemon` "
                    + "(containers without systemd: \(withoutSystemd), then `avahi-daemon -D`)")
        }
        return CheckText(
            "the D-Bus system bus is not running (no socket for \(address))",
            fix: "start it: `sudo systemctl start dbus` (containers without systemd: \(withoutSystemd))")
    }

    static func daemon(_ reason: CheckReason, _ status: AvahiStatus) -> CheckText {
        switch status {
        case .running(let version, let host): CheckText("\(version) is running (this host is \(host))")
        case .unavailable where reason == .daemonNotInstalled:
            CheckText("avahi-daemon is not installed, so nothing on this machine answers or browses mDNS", fix: AvahiDaemonFix.install)
        case .unavailable(let issue):
            CheckText(DiscoveryIssueText(issue).message, fix: DiscoveryIssueText(issue).fix ?? AvahiDaemonFix.start)
        }
    }

    static func interfaces(_ reason: CheckReason, _ evidence: InterfaceEvidence) -> CheckText {
        guard reason == .noMulticastInterface else {
            return CheckText(
                evidence.usable.map { "\($0.name) (\($0.addresses.map(\.description).joined(separator: ", ")))" }.joined(separator: "; "))
        }
        let up = evidence.up
        return CheckText(
            up.isEmpty
                ? "no network interface is up besides loopback: mDNS cannot leave this machine"
                : "no interface that is up supports multicast (\(up.joined(separator: ", "))): mDNS cannot leave this machine",
            fix:
                "bring a LAN interface up (`ip link set <if> up`); in a container use the host's network (`docker run --network host`); "
                + "tunnels such as Tailscale carry no multicast: use wide-area discovery there")
    }

    static func holders(_ holders: [PortHolders.Holder]) -> String {
        holders.map { "\($0.name) (pid \($0.pid))" }.joined(separator: ", ")
    }

    static func port5353(_ evidence: PortEvidence) -> CheckText {
        let others = evidence.others
        if let advertiser = others.first(where: \.isOpenClaw) { return openClawAdvertiser(advertiser, others) }
        if !others.isEmpty {
            return CheckText(
                "besides avahi-daemon, \(holders(others)) \(others.count == 1 ? "holds" : "hold") UDP 5353: two mDNS stacks answer and "
                    + "query side by side, and each may miss what the other takes",
                fix:
                    "keep one responder: stop the other (OpenClaw's own Bonjour advertiser can be turned off when Avahi advertises), or "
                    + "set MulticastDNS=no in /etc/systemd/resolved.conf if it is systemd-resolved")
        }
        if evidence.holders.sockets == 0 { return CheckText("nothing holds UDP 5353 in this network namespace") }
        let seen = holders(evidence.holders.holders)
        return CheckText(
            seen.isEmpty ? "\(Plural.counted(evidence.holders.sockets, "socket")) on UDP 5353 (run as root to see whose)" : "only \(seen)")
    }

    static func nss(_ reason: CheckReason, _ evidence: NSSEvidence) -> CheckText {
        guard let hosts = evidence.hosts else {
            return CheckText("no hosts: line in /etc/nsswitch.conf", fix: "`sudo apt install libnss-mdns`")
        }
        let missing = evidence.missing.joined(separator: ", ")
        switch reason {
        case .nssMdnsMissing:
            return CheckText(
                "\(hosts.line): `.local` host names do not resolve through the system resolver (getaddrinfo), only through Avahi",
                fix: "`sudo apt install libnss-mdns` (it adds mdns4_minimal to the hosts: line)")
        case .nssModuleMissing:
            return CheckText(
                "\(hosts.line): asks \(hosts.multicastDNSSources.joined(separator: ", ")), but \(missing) is not installed: `.local` host "
                    + "names do not resolve through the system resolver (getaddrinfo)",
                fix: "`sudo apt install libnss-mdns` (it installs \(missing))")
        default:
            return CheckText(hosts.line)
        }
    }
}
