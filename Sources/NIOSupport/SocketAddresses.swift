import DNSSD
import NIOCore

extension IPAddress {
    /// The socket address for `port`. A scoped IPv6 address (`fe80::1%eth0`) goes through
    /// getaddrinfo, which turns the zone into the interface index; being a literal, it never
    /// asks DNS.
    package func socketAddress(port: Int) throws -> SocketAddress {
        guard zone != nil else { return try SocketAddress(ipAddress: description, port: port) }
        return try SocketAddress.makeAddressResolvingHost(description, port: port)
    }
}

extension DNSServer {
    package var socketAddress: SocketAddress {
        get throws { try address.socketAddress(port: port) }
    }
}
