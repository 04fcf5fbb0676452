import DNSSD
import FoundationEssentials

/// A route of the main routing table: where packets for a network leave this machine.
package struct Route: Sendable, Hashable {
    package let network: IPNetwork
    package let interface: String

    package init(network: IPNetwork, interface: String) {
        self.network = network
        self.interface = interface
    }
}

/// The main routing table as the kernel shows it in /proc/net/route and /proc/net/ipv6_route.
/// Policy tables (Tailscale's table 52) are not in it; tailnet addresses are told apart by
/// `Tailnet` instead.
package enum RoutingTable {
    package static func current() -> [Route] {
        let v4 = RegularFile.text("/proc/net/route", limit: FileLimit.kernelTable).map(parseIPv4) ?? []
        let v6 = RegularFile.text("/proc/net/ipv6_route", limit: FileLimit.kernelTable).map(parseIPv6) ?? []
        return v4 + v6
    }

    /// The most specific route other than a default route that covers `address`: nil means
    /// packets for it can only follow a default route (or none), off every local network.
    package static func specificRoute(to address: IPAddress, in routes: [Route]) -> Route? {
        routes.filter { !$0.network.isDefault && $0.interface != "lo" && $0.network.contains(address.withoutZone) }
            .max { $0.network.prefixLength < $1.network.prefixLength }
    }

    /// `Iface Destination Gateway Flags RefCnt Use Metric Mask ...`, addresses as 8 hex digits
    /// in host byte order (little-endian here).
    static func parseIPv4(_ text: String) -> [Route] {
        text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
            guard fields.count >= 8, let destination = hostOrder(fields[1]), let mask = hostOrder(fields[7]),
                let network = IPNetwork(destination, netmask: mask)
            else { return nil }
            return Route(network: network, interface: String(fields[0]))
        }
    }

    /// `dest(32 hex) prefix(2 hex) src prefix nexthop metric refcnt use flags iface`, network order.
    static func parseIPv6(_ text: String) -> [Route] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 10, let length = Int(fields[1], radix: 16), let address = networkOrder(fields[0]),
                let network = IPNetwork(address, prefixLength: length)
            else { return nil }
            return Route(network: network, interface: String(fields[9]))
        }
    }

    /// An IPv4 address of /proc/net/route: 8 hex digits in host byte order (little-endian here).
    static func hostOrder(_ hex: Substring) -> IPAddress? {
        guard hex.count == 8, let value = UInt32(hex, radix: 16) else { return nil }
        return IPAddress(bytes: (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) })
    }

    /// An IPv6 address of /proc/net/ipv6_route: 32 hex digits in network byte order.
    static func networkOrder(_ hex: Substring) -> IPAddress? {
        guard hex.count == 32 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return IPAddress(bytes: bytes)
    }
}
