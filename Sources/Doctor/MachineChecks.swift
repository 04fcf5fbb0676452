import Avahi
import DNSSD
import Host

/// The checks of the machine: configuration, D-Bus and Avahi, interfaces, UDP 5353,
/// nss-mdns, the resolver and each wide-area domain, Tailscale.
public enum MachineChecks {
    public static func run(_ facts: MachineFacts, discovery: DiscoverySummary, multicast: Bool = true) -> [Check] {
        let mdns =
            multicast
            ? [dbus(facts), daemon(facts), interfaces(facts), port5353(facts), nss(facts)]
            : [CheckID.mdnsDBus, .mdnsDaemon, .mdnsInterfaces, .mdnsPort5353, .mdnsNSS].map {
                Check($0, .skip, .localNotBrowsed, "mDNS is not checked (--no-local)")
            }
        return [config(facts.config), advertising(facts)] + mdns + [browse(facts, discovery), resolver(facts)]
            + wideArea(facts, discovery) + [tailscale(facts, discovery)]
    }

    static func config(_ config: OpenClawConfig) -> Check {
        if config.exists && config.warnings.isEmpty && config.node.isRemote { return nodeConfig(config) }
        return gatewayHostConfig(config)
    }

    /// A node: what it connects to (gateway.bind is the Gateway host's business, not checked).
    static func nodeConfig(_ config: OpenClawConfig) -> Check {
        let node = config.node
        var detail = ["path": config.path, "mode": "remote"]
        guard let url = node.remoteURL else {
            return Check(
                .openclawConfig, .warn, .remoteURLMissing,
                "gateway.mode is \"remote\" but gateway.remote.url is not set: this node has no Gateway to connect to",
                fix: "set gateway.remote.url to the Gateway's URL (wss://host:18789) in \(config.path)", detail: detail)
        }
        detail["url"] = url.text
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
        return Check(.openclawConfig, .pass, .ok, "\(config.path): " + parts.joined(separator: ", "), detail: detail)
    }

    static func gatewayHostConfig(_ config: OpenClawConfig) -> Check {
        // A config that is there but cannot be read is not a missing one: say why, defaults apply.
        if !config.exists, !config.warnings.isEmpty {
            return Check(
                .openclawConfig, .warn, .configUnreadable, config.warnings.joined(separator: "; "),
                fix: "make \(config.path) a regular file this user can read (`ls -l \(config.path)`), or give --config PATH",
                detail: ["path": config.path])
        }
        guard config.exists else {
            return Check(
                .openclawConfig, .skip, .configMissing, "no OpenClaw config at \(config.path): defaults apply (local., port 18789)",
                detail: ["path": config.path])
        }
        if !config.warnings.isEmpty {
            return Check(
                .openclawConfig, .warn, .configInvalid, config.warnings.joined(separator: "; "),
                fix: "correct \(config.path) (JSON5); until then its broken settings are ignored", detail: ["path": config.path])
        }
        let bind = config.bind ?? .loopback
        if bind == .loopback {
            return Check(
                .openclawConfig, .warn, .bindLoopback,
                "gateway.bind is \(config.bind == nil ? "not set (loopback by default)" : "loopback"): a Gateway here accepts connections "
                    + "from this machine only, though discovery may still advertise it",
                fix: "for nodes on other machines set gateway.bind to \"lan\" (or \"tailnet\") in \(config.path) and restart the Gateway",
                detail: ["path": config.path, "bind": bind.word])
        }
        return Check(
            .openclawConfig, .pass, .ok,
            "\(config.path): gateway.bind \(bind), port "
                + "\(config.gatewayPort ?? Endpoint.defaultGatewayPort)\(config.tlsEnabled == true ? ", TLS on" : "")",
            detail: ["path": config.path, "bind": bind.word])
    }

    /// On a Gateway host: the switches that decide whether its Gateway advertises by mDNS.
    static func advertising(_ facts: MachineFacts) -> Check {
        guard facts.isGatewayHost else {
            return Check(
                .openclawAdvertising, .skip, .notGatewayHost,
                facts.isNode ? "a node (gateway.mode remote): no Gateway here to advertise" : "no OpenClaw config: no Gateway here")
        }
        let config = facts.config
        let mode = config.advertising.mdnsMode ?? .minimal
        var detail = ["discovery.mdns.mode": mode.word]
        if let value = config.advertising.disableBonjour { detail["OPENCLAW_DISABLE_BONJOUR"] = value }
        if let container = facts.platform.container { detail["container"] = container }
        if let off = facts.advertisingOff {
            return Check(
                .openclawAdvertising, .warn, .advertisingOff, "this Gateway does not advertise _openclaw-gw._tcp: \(off.setting)",
                fix: off.fix(configPath: config.path), detail: detail)
        }
        let hostname = config.advertising.mdnsHostname.map { "\($0) (OPENCLAW_MDNS_HOSTNAME)" } ?? "this host's name"
        let message =
            "bonjour plugin on, discovery.mdns.mode \(mode)\(config.advertising.mdnsMode == nil ? " (default)" : ""): this Gateway "
            + "advertises _openclaw-gw._tcp as \(hostname)"
        if facts.platform.wsl2 {
            return Check(
                .openclawAdvertising, .warn, .advertisingInWSL, message + ", but from inside WSL2, whose NAT network keeps mDNS in",
                fix:
                    "set networkingMode=mirrored in %UserProfile%\\.wslconfig (then `wsl --shutdown`), or use wide-area discovery "
                    + "(`clawnet zone generate --this-host`)", detail: detail)
        }
        return Check(.openclawAdvertising, .pass, .ok, message, detail: detail)
    }

    static func dbus(_ facts: MachineFacts) -> Check {
        switch facts.busSocketExists {
        case false?:
            return Check(
                .mdnsDBus, .fail, .busMissing, "the D-Bus system bus is not running (no socket for \(facts.busAddress))",
                fix:
                    "start it: `sudo systemctl start dbus` (containers without systemd: `mkdir -p /run/dbus && dbus-daemon --system "
                    + "--fork`)",
                detail: ["address": facts.busAddress])
        default:
            return Check(.mdnsDBus, .pass, .ok, "system bus at \(facts.busAddress)", detail: ["address": facts.busAddress])
        }
    }

    static func daemon(_ facts: MachineFacts) -> Check {
        if facts.busSocketExists == false {
            return Check(.mdnsDaemon, .skip, .needsBus, "needs the D-Bus system bus")
        }
        switch facts.avahi {
        case .running(let version, let host):
            return Check(
                .mdnsDaemon, .pass, .ok, "\(version) is running (this host is \(host))", detail: ["version": version, "host": host])
        case .unavailable(let issue):
            return Check(.mdnsDaemon, .fail, .daemonUnavailable, issue.message, fix: issue.fix)
        }
    }

    static func interfaces(_ facts: MachineFacts) -> Check {
        let usable = facts.multicastInterfaces
        guard !usable.isEmpty else {
            let up = facts.interfaces.filter { $0.isUp && !$0.isLoopback }.map(\.name)
            return Check(
                .mdnsInterfaces, .fail, .noMulticastInterface,
                up.isEmpty
                    ? "no network interface is up besides loopback: mDNS cannot leave this machine"
                    : "no interface that is up supports multicast (\(up.joined(separator: ", "))): mDNS cannot leave this machine",
                fix:
                    "bring a LAN interface up (`ip link set <if> up`); in a container use the host's network (`docker run --network "
                    + "host`); tunnels such as Tailscale carry no multicast: use wide-area discovery there"
            )
        }
        let described = usable.map { "\($0.name) (\($0.addresses.map(\.description).joined(separator: ", ")))" }
        return Check(
            .mdnsInterfaces, .pass, .ok, described.joined(separator: "; "),
            detail: ["interfaces": usable.map(\.name).joined(separator: ",")])
    }

    static func port5353(_ facts: MachineFacts) -> Check {
        let others = facts.port5353.holders.filter { $0.name != "avahi-daemon" }
        if !others.isEmpty {
            let names = others.map { "\($0.name) (pid \($0.pid))" }.joined(separator: ", ")
            return Check(
                .mdnsPort5353, .warn, .otherResponders,
                "besides avahi-daemon, \(names) \(others.count == 1 ? "holds" : "hold") UDP 5353: two mDNS stacks answer and query side by "
                    + "side, and each may miss what the other takes",
                fix:
                    "keep one responder: stop the other (OpenClaw's own Bonjour advertiser can be turned off when Avahi advertises), or "
                    + "set MulticastDNS=no in /etc/systemd/resolved.conf if it is systemd-resolved",
                detail: ["holders": names])
        }
        if facts.port5353.sockets == 0 {
            return Check(.mdnsPort5353, .pass, .ok, "nothing holds UDP 5353 in this network namespace")
        }
        let seen = facts.port5353.holders.map { "\($0.name) (pid \($0.pid))" }.joined(separator: ", ")
        return Check(
            .mdnsPort5353, .pass, .ok,
            seen.isEmpty ? "\(facts.port5353.sockets) socket(s) on UDP 5353 (run as root to see whose)" : "only \(seen)")
    }

    static func nss(_ facts: MachineFacts) -> Check {
        guard let hosts = facts.nsswitchHosts else {
            return Check(.mdnsNSS, .warn, .nsswitchMissing, "no hosts: line in /etc/nsswitch.conf", fix: "`sudo apt install libnss-mdns`")
        }
        guard hosts.asksMulticastDNS else {
            return Check(
                .mdnsNSS, .warn, .nssMdnsMissing,
                "\(hosts.line): `.local` host names do not resolve through the system resolver (getaddrinfo), only through Avahi",
                fix: "`sudo apt install libnss-mdns` (it adds mdns4_minimal to the hosts: line)")
        }
        let missing = facts.missingMDNSLibraries
        guard missing.isEmpty else {
            return Check(
                .mdnsNSS, .warn, .nssModuleMissing,
                "\(hosts.line): asks \(hosts.multicastDNSSources.joined(separator: ", ")), but \(missing.joined(separator: ", ")) is not "
                    + "installed: `.local` host names do not resolve through the system resolver (getaddrinfo)",
                fix: "`sudo apt install libnss-mdns` (it installs \(missing.joined(separator: ", ")))")
        }
        return Check(.mdnsNSS, .pass, .ok, hosts.line)
    }

    static func browse(_ facts: MachineFacts, _ discovery: DiscoverySummary) -> Check {
        guard discovery.localBrowsed else { return Check(.mdnsBrowse, .skip, .localNotBrowsed, "local. was not browsed (--no-local)") }
        guard facts.avahiRunning else { return Check(.mdnsBrowse, .skip, .needsDaemon, "needs avahi-daemon") }
        let found = discovery.localBeacons
        if found.isEmpty {
            let answered = discovery.hostAnswers.filter { $0.name != nil }
            let silent = discovery.hostAnswers.filter { $0.answer == .noAnswer }
            if let host = answered.first {
                return Check(
                    .mdnsBrowse, .warn, .hostAnswersWithoutBeacon,
                    "no Gateway answers in local., though its host answers mDNS: \(host.address) is \(host.name!) (Gateway "
                        + "\(host.gateway)); multicast reaches it, the Gateway does not advertise",
                    fix:
                        "on the Gateway host check that the Gateway advertises (its log shows bonjour/mDNS errors); `clawnet advertise "
                        + "--name test` there tests that host's mDNS"
                )
            }
            if !silent.isEmpty {
                let addresses = silent.map(\.address.description)
                return Check(
                    .mdnsBrowse, .warn, .hostSilent,
                    "no Gateway answers in local., and \(addresses.joined(separator: ", ")) (Gateway \(silent[0].gateway)) "
                        + "\(addresses.count == 1 ? "does" : "do") not answer mDNS from here either",
                    fix:
                        "allow UDP 5353 (224.0.0.251, ff02::fb) between the two hosts; `clawnet advertise --name test` on the Gateway host "
                        + "and `clawnet browse` here show when it crosses"
                )
            }
            return Check(
                .mdnsBrowse, .warn, .nothingInLocal, "no Gateway answers in local.",
                fix:
                    "on the Gateway host run `clawnet advertise --name test`; if `clawnet browse` here still shows nothing, multicast does "
                    + "not cross the network (see the diagnosis)"
            )
        }
        let names = found.map(\.instance.displayName).joined(separator: ", ")
        return Check(.mdnsBrowse, .pass, .ok, "\(found.count) Gateway\(found.count == 1 ? "" : "s") in local.: \(names)")
    }

    static func resolver(_ facts: MachineFacts) -> Check {
        let conf = facts.resolvConf
        let servers = conf.servers.map(\.description).joined(separator: ", ")
        if !conf.exists {
            return Check(
                .dnsResolver, .warn, .resolvConfMissing, "no \(conf.path): the C library asks \(servers)",
                fix: "create \(conf.path) (or let systemd-resolved or NetworkManager manage it)")
        }
        if !conf.problems.isEmpty {
            return Check(
                .dnsResolver, .warn, .resolvConfUnreadable, conf.problems.joined(separator: "; "),
                fix: "correct the nameserver lines in \(conf.path)")
        }
        return Check(
            .dnsResolver, .pass, .ok, "\(conf.path): \(servers)\(facts.systemdResolved ? " (systemd-resolved)" : "")",
            detail: ["servers": servers])
    }

    static func wideArea(_ facts: MachineFacts, _ discovery: DiscoverySummary) -> [Check] {
        guard !discovery.domains.isEmpty else {
            return [
                Check(
                    .dnsWideArea, .skip, .noDomain,
                    "no wide-area domain configured (--domain, discovery.wideArea.domain or OPENCLAW_WIDE_AREA_DOMAIN)")
            ]
        }
        return discovery.domains.map { domain in
            let detail = ["domain": domain.name]
            let issues = discovery.issues.filter { $0.source == .unicast && $0.domain == domain.name }
            if let split = issues.first(where: { $0.kind == .splitDNS }) {
                return Check(.dnsWideArea, .fail, .splitDNS, split.message, fix: split.fix, detail: detail)
            }
            let found = discovery.beacons.filter { beacon in
                beacon.domain == domain || beacon.aliases.contains { $0.domain == domain.name }
            }
            if !found.isEmpty {
                let via = Set(found.flatMap(\.resolvers)).sorted().joined(separator: ", ")
                return Check(
                    .dnsWideArea, .pass, .ok,
                    "\(found.count) Gateway\(found.count == 1 ? "" : "s") in \(domain.name)\(via.isEmpty ? "" : " via \(via)")",
                    detail: detail)
            }
            if let issue = issues.first {
                return Check(.dnsWideArea, .fail, .domainError, issue.message, fix: issue.fix, detail: detail)
            }
            return Check(
                .dnsWideArea, .warn, .domainEmpty, "no Gateway is published in \(domain.name)",
                fix: "publish one with `clawnet zone generate --domain \(domain.withoutTrailingDot) ...` on the DNS server", detail: detail)
        }
    }

    static func tailscale(_ facts: MachineFacts, _ discovery: DiscoverySummary) -> Check {
        let tailnet = facts.tailnet
        let addresses = tailnet.addresses
        guard !addresses.isEmpty else {
            let note = discovery.domains.isEmpty ? "" : "; wide-area domains must then be served by a resolver this machine uses"
            return Check(
                .tailscaleInterface, .skip, .notOnTailnet,
                "not on a tailnet (no tailscale0 interface up, no 100.64.0.0/10 or fd7a:115c:a1e0::/48 address)\(note)")
        }
        let names = facts.interfaces.filter { interface in interface.addresses.contains { addresses.contains($0) } }.map(\.name)
        return Check(
            .tailscaleInterface, .pass, .ok, "\(names.joined(separator: ", ")): \(addresses.map(\.description).joined(separator: ", "))",
            detail: ["addresses": addresses.map(\.description).joined(separator: ",")])
    }
}
