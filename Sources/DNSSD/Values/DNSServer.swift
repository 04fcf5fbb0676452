/// A DNS server to ask: an address and a port.
package struct DNSServer: Hashable, Sendable, CustomStringConvertible {
    package let address: IPAddress
    package let port: Int

    /// Tailscale's resolver, which answers the tailnet's split-DNS domains.
    package static let tailscale = DNSServer(address: IPAddress("100.100.100.100")!, port: 53)

    package init(address: IPAddress, port: Int = 53) {
        self.address = address
        self.port = port
    }

    /// `127.0.0.1`, `127.0.0.1:5303`, `[fd00::1]:53` or a bare IPv6 literal (port 53).
    package init(parsing text: String) throws(DNSSDError) {
        let endpoint = try Endpoint.parse(text, defaultPort: 53)
        guard let address = endpoint.address else {
            throw DNSSDError(.dnsServer, "'\(text)' is not an IP address; give the DNS server as an address")
        }
        if let problem = address.destinationProblem {
            throw DNSSDError(.dnsServer, "'\(text)': \(problem)")
        }
        self.init(address: address, port: endpoint.port)
    }

    /// A server as resolv.conf names it, read the way glibc reads it: the unspecified
    /// address (`nameserver 0.0.0.0`, `::`) means this host (Linux sends such packets to
    /// loopback), so it becomes 127.0.0.1 or ::1.
    package init(resolvConfAddress address: IPAddress, port: Int = 53) {
        let loopback = IPAddress(address.family == .v4 ? "127.0.0.1" : "::1")!
        self.init(address: address.isUnspecified ? loopback : address, port: port)
    }

    /// `127.0.0.1#5303`, as dig prints servers.
    package var description: String { "\(address)#\(port)" }
}
