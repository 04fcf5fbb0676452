import DNSSD
import Glibc

/// The machine's network interfaces and their addresses (getifaddrs).
public struct NetworkInterface: Sendable, Hashable {
    public let name: String
    public let addresses: [IPAddress]
    public let isUp: Bool
    public let isLoopback: Bool
    public let supportsMulticast: Bool

    public init(name: String, addresses: [IPAddress], isUp: Bool, isLoopback: Bool, supportsMulticast: Bool) {
        self.name = name
        self.addresses = addresses
        self.isUp = isUp
        self.isLoopback = isLoopback
        self.supportsMulticast = supportsMulticast
    }

    public static func current() -> [NetworkInterface] {
        var head: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&head) == 0 else { return [] }
        defer { freeifaddrs(head) }
        var order: [String] = []
        var flags: [String: UInt32] = [:]
        var addresses: [String: [IPAddress]] = [:]
        var node = head
        while let entry = node {
            let name = String(cString: entry.pointee.ifa_name)
            if flags[name] == nil { order.append(name) }
            flags[name] = entry.pointee.ifa_flags
            if let address = entry.pointee.ifa_addr.flatMap({ IPAddress(socketAddress: $0) }) {
                addresses[name, default: []].append(address)
            }
            node = entry.pointee.ifa_next
        }
        return order.map { name in
            let value = flags[name] ?? 0
            return NetworkInterface(
                name: name, addresses: addresses[name] ?? [], isUp: value & UInt32(IFF_UP) != 0,
                isLoopback: value & UInt32(IFF_LOOPBACK) != 0,
                supportsMulticast: value & UInt32(IFF_MULTICAST) != 0)
        }
    }

    /// Tailscale addresses of this machine (100.64.0.0/10, fd7a:115c:a1e0::/48).
    public static func tailscaleAddresses(_ interfaces: [NetworkInterface] = current()) -> [IPAddress] {
        interfaces.flatMap(\.addresses).filter(\.isTailscale)
    }
}
