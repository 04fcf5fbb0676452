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

    public static func gather(_ system: any SystemInspector) -> MachineFacts {
        MachineFacts(
            busAddress: system.busAddress, busSocketExists: system.busSocketExists(), avahi: system.avahi(),
            interfaces: system.interfaces(), port5353: system.udp5353Holders(), nsswitchHosts: system.nsswitchHosts(),
            resolvConf: system.resolvConf(), systemdResolved: system.usesSystemdResolved(), config: system.config())
    }

    var avahiRunning: Bool {
        if case .running = avahi { return true }
        return false
    }

    /// Up, not loopback, multicast-capable, with an address: where mDNS can go.
    var multicastInterfaces: [NetworkInterface] {
        interfaces.filter {
            $0.isUp && !$0.isLoopback && $0.supportsMulticast && !$0.addresses.isEmpty && !$0.addresses.allSatisfy(\.isTailscale)
        }
    }
}
