import DNSSD
import Glibc

/// The machine's network interfaces and their addresses (getifaddrs).
package struct NetworkInterface: Sendable, Hashable {
    package let name: String
    package let addresses: [IPAddress]
    package let isUp: Bool
    package let isLoopback: Bool
    package let supportsMulticast: Bool
    /// The subnet of each address, from its netmask (a host prefix when none is known).
    package let networks: [IPNetwork]

    package init(
        name: String, addresses: [IPAddress], isUp: Bool, isLoopback: Bool, supportsMulticast: Bool, networks: [IPNetwork]? = nil
    ) {
        self.name = name
        self.addresses = addresses
        self.isUp = isUp
        self.isLoopback = isLoopback
        self.supportsMulticast = supportsMulticast
        self.networks = networks ?? addresses.compactMap { IPNetwork($0.withoutZone, prefixLength: $0.bytes.count * 8) }
    }

    package static func current() -> [NetworkInterface] {
        var head: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&head) == 0 else { return [] }
        defer { freeifaddrs(head) }
        var order: [String] = []
        var flags: [String: UInt32] = [:]
        var addresses: [String: [IPAddress]] = [:]
        var networks: [String: [IPNetwork]] = [:]
        var node = head
        while let entry = node {
            let name = String(cString: entry.pointee.ifa_name)
            if flags[name] == nil { order.append(name) }
            flags[name] = entry.pointee.ifa_flags
            if let address = entry.pointee.ifa_addr.flatMap({ IPAddress(socketAddress: $0) }) {
                addresses[name, default: []].append(address)
                let mask = entry.pointee.ifa_netmask.flatMap { IPAddress(socketAddress: $0) }
                let length = address.bytes.count * 8
                if let network = mask.flatMap({ IPNetwork(address.withoutZone, netmask: $0.withoutZone) })
                    ?? IPNetwork(address.withoutZone, prefixLength: length)
                {
                    networks[name, default: []].append(network)
                }
            }
            node = entry.pointee.ifa_next
        }
        return order.map { name in
            let value = flags[name] ?? 0
            return NetworkInterface(
                name: name, addresses: addresses[name] ?? [], isUp: value & UInt32(IFF_UP) != 0,
                isLoopback: value & UInt32(IFF_LOOPBACK) != 0,
                supportsMulticast: value & UInt32(IFF_MULTICAST) != 0, networks: networks[name] ?? [])
        }
    }

    /// Tailscale's interface (`tailscale0`, the same with Headscale): whatever ranges its
    /// coordination server hands out, its addresses are the tailnet's.
    package var isTailscale: Bool { name.hasPrefix("tailscale") }

    /// Tailnet addresses of this machine: every address of an up Tailscale interface, and any
    /// address in Tailscale's default ranges (100.64.0.0/10, fd7a:115c:a1e0::/48).
    package static func tailscaleAddresses(_ interfaces: [NetworkInterface] = current()) -> [IPAddress] {
        interfaces.flatMap { interface in
            interface.isTailscale && interface.isUp
                ? interface.addresses.filter { !$0.isLinkLocal } : interface.addresses.filter(\.isTailscale)
        }
    }
}
