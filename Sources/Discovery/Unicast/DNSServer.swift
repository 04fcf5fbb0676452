import DNSSD
import Glibc
import NIOCore

/// A DNS server to ask: an address and a port.
public struct DNSServer: Hashable, Sendable, CustomStringConvertible {
    public let address: IPAddress
    public let port: Int

    /// Tailscale's resolver, which answers the tailnet's split-DNS domains.
    public static let tailscale = DNSServer(address: IPAddress("100.100.100.100")!, port: 53)

    public init(address: IPAddress, port: Int = 53) {
        self.address = address
        self.port = port
    }

    /// `127.0.0.1`, `127.0.0.1:5303`, `[fd00::1]:53` or a bare IPv6 literal (port 53).
    public init(parsing text: String) throws(DNSSDError) {
        let endpoint = try Endpoint.parse(text, defaultPort: 53)
        guard let address = endpoint.address else {
            throw DNSSDError("'\(text)' is not an IP address; give the DNS server as an address")
        }
        self.init(address: address, port: endpoint.port)
    }

    /// `127.0.0.1#5303`, as dig prints servers.
    public var description: String { "\(address)#\(port)" }

    var socketAddress: SocketAddress {
        get throws { try address.socketAddress(port: port) }
    }
}

extension IPAddress {
    /// The socket address for `port`; a scoped IPv6 address carries its interface index.
    public func socketAddress(port: Int) throws -> SocketAddress {
        guard family == .v6 else {
            return try SocketAddress(ipAddress: description, port: port)
        }
        var raw = sockaddr_in6()
        raw.sin6_family = sa_family_t(AF_INET6)
        raw.sin6_port = in_port_t(UInt16(port).bigEndian)
        withUnsafeMutableBytes(of: &raw.sin6_addr) { $0.copyBytes(from: bytes) }
        raw.sin6_scope_id = zone.map { if_nametoindex($0) } ?? 0
        return SocketAddress(raw, host: description)
    }
}
