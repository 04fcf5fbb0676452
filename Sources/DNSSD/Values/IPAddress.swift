#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address literal; IPv6 link-local addresses keep their zone (`fe80::1%eth0`).
public struct IPAddress: Hashable, Sendable, CustomStringConvertible, Comparable {
    package enum Family: Sendable { case v4, v6 }

    /// 4 or 16 bytes in network order.
    package let bytes: [UInt8]
    /// The interface of a scoped IPv6 address, by name.
    package let zone: String?

    package var family: Family { bytes.count == 4 ? .v4 : .v6 }

    package init?(_ text: String) {
        var address = Substring(text)
        var zone: String?
        if let percent = address.firstIndex(of: "%") {
            let zoneText = String(address[address.index(after: percent)...])
            guard Self.isZone(zoneText) else { return nil }
            zone = zoneText
            address = address[..<percent]
        }
        if address.contains(":") {
            var storage = in6_addr()
            guard inet_pton(AF_INET6, String(address), &storage) == 1 else { return nil }
            self.bytes = withUnsafeBytes(of: storage) { Array($0) }
            self.zone = zone
        } else {
            guard zone == nil else { return nil }
            var storage = in_addr()
            guard inet_pton(AF_INET, String(address), &storage) == 1 else { return nil }
            self.bytes = withUnsafeBytes(of: storage) { Array($0) }
            self.zone = nil
        }
    }

    /// A zone that is not an interface name (see `isZone`) is dropped.
    package init?(bytes: [UInt8], zone: String? = nil) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
        self.zone = bytes.count == 16 ? zone.flatMap { Self.isZone($0) ? $0 : nil } : nil
    }

    /// A zone is an interface name or index as Linux allows them (at most 15 bytes, no `/`,
    /// `:` or white space), and here printable ASCII only: the text after `%` reaches
    /// terminals, URLs and messages, so a newline or an escape sequence can never ride in it.
    package static func isZone(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 15
            && text.utf8.allSatisfy {
                $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: "%")
            }
    }

    /// Canonical text (RFC 5952 for IPv6), with `%zone` when scoped.
    public var description: String {
        var buffer = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return zone.map { "\(text)%\($0)" } ?? text
    }

    /// The same address without its interface: a zone means something only on this machine.
    package var withoutZone: IPAddress {
        zone == nil ? self : IPAddress(uncheckedBytes: bytes)
    }

    private init(uncheckedBytes: [UInt8]) {
        self.bytes = uncheckedBytes
        self.zone = nil
    }

    /// How the address goes into a URL's authority: IPv6 in brackets, zone as `%25` (RFC 6874).
    package var urlHost: String {
        guard family == .v6 else { return description }
        return "[" + withoutZone.description + (zone.map { "%25" + $0 } ?? "") + "]"
    }

    package var isLoopback: Bool {
        family == .v4 ? bytes[0] == 127 : bytes == [UInt8](repeating: 0, count: 15) + [1]
    }

    package var isLinkLocal: Bool {
        family == .v4 ? (bytes[0] == 169 && bytes[1] == 254) : (bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80)
    }

    /// Tailscale's ranges: 100.64.0.0/10 and fd7a:115c:a1e0::/48.
    package var isTailscale: Bool {
        if family == .v4 { return bytes[0] == 100 && bytes[1] & 0xC0 == 64 }
        return bytes.prefix(6) == [0xFD, 0x7A, 0x11, 0x5C, 0xA1, 0xE0]
    }

    /// Not routed on the Internet: RFC 1918, shared (CGNAT, where tailnets live), link-local,
    /// IPv6 unique-local and link-local. Loopback counts too.
    package var isPrivate: Bool {
        if isLoopback || isLinkLocal || isTailscale { return true }
        if family == .v4 {
            return bytes[0] == 10 || (bytes[0] == 172 && bytes[1] & 0xF0 == 16) || (bytes[0] == 192 && bytes[1] == 168)
        }
        return bytes[0] & 0xFE == 0xFC
    }

    package var isUnspecified: Bool { bytes.allSatisfy { $0 == 0 } }

    /// The IPv4 address inside an IPv4-mapped IPv6 one (`::ffff:10.0.0.1`).
    package var mappedIPv4: IPAddress? {
        guard family == .v6, bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] else { return nil }
        return IPAddress(bytes: Array(bytes.suffix(4)))
    }

    /// 224.0.0.0/4 and ff00::/8.
    package var isMulticast: Bool { family == .v4 ? bytes[0] & 0xF0 == 0xE0 : bytes[0] == 0xFF }

    /// Why no packet can be sent to this address as to one host, or nil when it can: the
    /// unspecified address (`0.0.0.0`, `::`), 0.0.0.0/8, broadcast and multicast addresses, and
    /// an IPv6 link-local address without its interface.
    package var destinationProblem: String? {
        if let mapped = mappedIPv4 { return mapped.destinationProblem.map { "\(withoutZone) is IPv4 \(mapped): " + $0 } }
        let text = withoutZone.description
        if isUnspecified {
            let loopback = family == .v4 ? "127.0.0.1" : "::1"
            return "\(text) is the unspecified address (\"any address\"), not one to send to; for this machine give \(loopback)"
        }
        if family == .v4 && bytes[0] == 0 { return "\(text) is in 0.0.0.0/8 (\"this network\"), not an address to send to" }
        if bytes == [255, 255, 255, 255] { return "\(text) is the broadcast address, not one host" }
        if isMulticast { return "\(text) is a multicast address, not one host" }
        if family == .v6 && isLinkLocal && zone == nil {
            return "\(text) is link-local: give its interface too, as in \(text)%eth0"
        }
        return nil
    }

    /// IPv4 first, then by bytes: a stable order for output.
    public static func < (lhs: IPAddress, rhs: IPAddress) -> Bool {
        if lhs.bytes.count != rhs.bytes.count { return lhs.bytes.count < rhs.bytes.count }
        if lhs.bytes != rhs.bytes { return lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
        return (lhs.zone ?? "") < (rhs.zone ?? "")
    }
}
