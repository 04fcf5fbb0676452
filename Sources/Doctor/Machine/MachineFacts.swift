import Avahi
import DNSSD
import Discovery
import Host

/// Facts about this machine, read once.
package struct MachineFacts: Sendable {
    package var busAddress: String
    package var busSocketExists: Bool?
    package var avahi: AvahiStatus
    /// avahi-daemon's program is installed (when it does not run: start it, or install it).
    package var avahiInstalled: Bool
    package var interfaces: [NetworkInterface]
    package var port5353: PortHolders
    package var nsswitchHosts: NSSwitchHosts?
    /// The nss-mdns services whose library is installed; nil when not known.
    package var nssMDNSModules: Set<String>?
    package var resolvConf: ResolvConf
    package var systemdResolved: Bool
    package var config: OpenClawConfig
    package var routes: [Route] = []
    package var platform = PlatformFacts()
    /// systemd-resolved's links, when resolv.conf is its and it could be asked.
    package var resolved: ResolvedStatus?
    /// Tailscale Serve's routes, asked only when this Gateway's config puts it behind Serve.
    package var tailscaleServe: TailscaleServeStatus?
    /// The Gateway's systemd unit, asked only on a Gateway host.
    package var gatewayService: GatewayService?
    /// The device identity files a node here would read (none looked at for preflight).
    package var identities: [IdentityFile] = []
    /// On a Gateway host whose gateway.bind is tailnet or custom: whether 127.0.0.1:PORT answers,
    /// as a 2026.9 Gateway there listens on it too; nil when not asked or not known.
    package var loopbackListener: Bool?

    /// The longest the loopback connect may take: 127.0.0.1 answers at once or not at all.
    static let loopbackWait = Duration.seconds(1)

    /// `deadline` bounds what takes time here beyond reading files (the loopback connect).
    package static func gather(_ system: any SystemInspector, deadline: Deadline? = nil) -> MachineFacts {
        let hosts = system.nsswitchHosts().flatMap(NSSwitchHosts.init(line:))
        // The libraries matter only when the hosts line asks mDNS: no file system walk otherwise.
        var facts = MachineFacts(
            busAddress: system.busAddress, busSocketExists: system.busSocketExists(), avahi: system.avahi(),
            avahiInstalled: system.avahiInstalled(),
            interfaces: system.interfaces(), port5353: system.udp5353Holders(), nsswitchHosts: hosts,
            nssMDNSModules: hosts?.asksMulticastDNS == true ? system.nssMDNSModules() : nil,
            resolvConf: system.resolvConf(), systemdResolved: system.usesSystemdResolved(), config: system.config(),
            routes: system.routes(), platform: system.platform())
        // resolved is asked only when resolv.conf is its.
        if facts.systemdResolved { facts.resolved = system.resolvedStatus() }
        if facts.config.tailscale.proxies { facts.tailscaleServe = system.tailscaleServe() }
        if facts.isGatewayHost { facts.gatewayService = system.gatewayService() }
        if facts.isGatewayHost, facts.config.bind == .tailnet || facts.config.bind == .custom {
            let port = facts.config.gatewayPort ?? Endpoint.defaultGatewayPort
            facts.loopbackListener = system.loopbackAnswers(port: port, within: min(loopbackWait, deadline?.remaining ?? loopbackWait))
        }
        return facts
    }

    /// The tailnet as this machine sees it (its interface, its ranges).
    package var tailnet: Tailnet { Tailnet(interfaces: interfaces, routes: routes) }

    /// A node: its config points at a remote Gateway (gateway.mode = "remote").
    package var isNode: Bool { config.node.isRemote }

    /// A Gateway host: it has an OpenClaw config that does not make it a node.
    package var isGatewayHost: Bool { config.exists && !isNode }

    /// The switch that keeps this machine's Gateway from advertising, when one does.
    package var advertisingOff: AdvertisingSwitch? {
        guard isGatewayHost else { return nil }
        return AdvertisingSwitch.off(config.advertising, container: platform.container)
            ?? gatewayService?.advertiserStop.map(AdvertisingSwitch.advertiserStopped)
    }

    /// The libraries of the nss-mdns services the hosts line asks that are not installed.
    var missingMDNSLibraries: [String] {
        guard let hosts = nsswitchHosts, let installed = nssMDNSModules else { return [] }
        return hosts.multicastDNSSources.filter { !installed.contains($0) }.map(NSSwitchHosts.library(of:))
    }

    /// nsswitch asks mDNS for `.local` names (libnss-mdns), and a module it asks is installed.
    var nssMdns: Bool {
        guard let hosts = nsswitchHosts, hosts.asksMulticastDNS else { return false }
        return missingMDNSLibraries.count < hosts.multicastDNSSources.count
    }

    /// What the machine's layers hand to the ones that need them: a system bus, a running
    /// avahi-daemon.
    func delivered(_ id: CheckID) -> Bool {
        switch id {
        case .mdnsDBus: busSocketExists != false
        case .mdnsDaemon: avahiRunning
        default: true
        }
    }

    var avahiRunning: Bool {
        if case .running = avahi { return true }
        return false
    }

    /// Up, not loopback, multicast-capable, with an address: where mDNS can go.
    var multicastInterfaces: [NetworkInterface] {
        interfaces.filter {
            $0.isUp && !$0.isLoopback && $0.supportsMulticast && !$0.addresses.isEmpty && !$0.isTailscale
                && !$0.addresses.allSatisfy(\.isTailscale)
        }
    }
}
