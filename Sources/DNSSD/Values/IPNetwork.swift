/// An address prefix, `10.98.0.0/24` or `fd7a:115c:a1e0::/48`: a subnet of an interface, a
/// route, or a range such as a tailnet's.
package struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    /// The first address of the network (host bits cleared).
    package let address: IPAddress
    package let prefixLength: Int

    /// nil when the length does not fit the family (0...32 for IPv4, 0...128 for IPv6).
    package init?(_ address: IPAddress, prefixLength: Int) {
        let bits = address.bytes.count * 8
        guard (0...bits).contains(prefixLength) else { return nil }
        self.address = IPAddress(bytes: Self.masked(address.bytes, prefixLength))!
        self.prefixLength = prefixLength
    }

    /// `10.98.0.0/24`, `fd98::/64`; a bare address is a host prefix (/32, /128).
    package init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1)
        guard let first = parts.first, let address = IPAddress(String(first)) else { return nil }
        let length = parts.count == 2 ? Int(parts[1]) : address.bytes.count * 8
        guard let length else { return nil }
        self.init(address, prefixLength: length)
    }

    /// The prefix a netmask describes (`255.255.255.0` is 24); nil for a mask that is not
    /// a run of ones followed by zeros.
    package init?(_ address: IPAddress, netmask: IPAddress) {
        guard address.bytes.count == netmask.bytes.count else { return nil }
        var length = 0
        var ended = false
        for byte in netmask.bytes {
            for bit in (0..<8).reversed() {
                let set = byte & (1 << bit) != 0
                if set && ended { return nil }
                if set { length += 1 } else { ended = true }
            }
        }
        self.init(address, prefixLength: length)
    }

    package func contains(_ other: IPAddress) -> Bool {
        other.bytes.count == address.bytes.count && Self.masked(other.bytes, prefixLength) == address.bytes
    }

    /// A default route's network: everything.
    package var isDefault: Bool { prefixLength == 0 }

    package var description: String { "\(address)/\(prefixLength)" }

    private static func masked(_ bytes: [UInt8], _ length: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let keep = min(max(length - index * 8, 0), 8)
            return keep == 0 ? 0 : byte & UInt8(truncatingIfNeeded: 0xFF << (8 - keep))
        }
    }

    /// Tailscale's own ranges: 100.64.0.0/10 (shared address space) and fd7a:115c:a1e0::/48.
    package static let tailscaleDefaults: [IPNetwork] = [IPNetwork("100.64.0.0/10")!, IPNetwork("fd7a:115c:a1e0::/48")!]
}
