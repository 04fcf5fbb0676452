import Avahi
import DNSSD
import Discovery
import Host

/// Facts about this machine, read once.
public struct MachineFacts: Sendable {
    public var busAddress: String
    public var busSocketExists: Bool?
    public var avahi: AvahiStatus
    public var interfaces: [NetworkInterface]
    public var port5353: PortHolders
    public var nsswitchHosts: String?
    public var resolvConf: ResolvConf
    public var systemdResolved: Bool
    public var config: OpenClawConfig
    public var routes: [Route] = []
    public var platform = PlatformFacts()

    public static func gather(_ system: any SystemInspector) -> MachineFacts {
        MachineFacts(
            busAddress: system.busAddress, busSocketExists: system.busSocketExists(), avahi: system.avahi(),
            interfaces: system.interfaces(), port5353: system.udp5353Holders(), nsswitchHosts: system.nsswitchHosts(),
            resolvConf: system.resolvConf(), systemdResolved: system.usesSystemdResolved(), config: system.config(),
            routes: system.routes(), platform: system.platform())
    }

    /// The tailnet as this machine sees it (its interface, its ranges).
    public var tailnet: Tailnet { Tailnet(interfaces: interfaces, routes: routes) }

    /// A node: its config points at a remote Gateway (gateway.mode = "remote").
    public var isNode: Bool { config.node.isRemote }

    /// A Gateway host: it has an OpenClaw config that does not make it a node.
    public var isGatewayHost: Bool { config.exists && !isNode }

    /// The switch that keeps this machine's Gateway from advertising, when one does.
    public var advertisingOff: AdvertisingSwitch? {
        isGatewayHost ? AdvertisingSwitch.off(config.advertising, container: platform.container) : nil
    }

    /// nsswitch asks mDNS for `.local` names (libnss-mdns).
    var nssMdns: Bool { nsswitchHosts?.contains("mdns") ?? false }

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
