/// The WebSocket URL an OpenClaw node would use for a Gateway.
package enum ConnectURL {
    /// OpenClaw clients accept plain `ws://` only for loopback, private IP literals, `.local`
    /// and `*.ts.net` hosts; everything else needs TLS.
    package static func allowsPlainWebSocket(host: String) -> Bool {
        if let address = IPAddress(host) { return address.isPrivate }
        return HostNameKind(host) != .other
    }

    /// `wss://host:port` with TLS; `ws://` only where allowed; nil when no safe URL exists.
    /// IPv6 goes in brackets with its zone as `%25zone` (RFC 6874). The host has no trailing
    /// dot: OpenClaw strips it from the SRV target before it builds the URL
    /// (src/infra/bonjour-discovery.ts, parseDigSrv), so SNI and the Host header carry it too.
    package static func make(host: String, port: Int, tls: Bool) -> String? {
        guard (1...65535).contains(port) else { return nil }
        let name = DomainName(host: host)?.withoutTrailingDot ?? host
        let authority = IPAddress(name)?.urlHost ?? name
        if tls { return "wss://\(authority):\(port)" }
        return allowsPlainWebSocket(host: host) ? "ws://\(authority):\(port)" : nil
    }

    /// The first URL that works for a Gateway: its host name, else one of its addresses.
    package static func best(host: String?, addresses: [IPAddress], port: Int?, tls: Bool) -> String? {
        guard let port else { return nil }
        if let host, let url = make(host: host, port: port, tls: tls) { return url }
        guard (1...65535).contains(port) else { return nil }
        // What `make` makes of an address's text, without reading it back from the text: a
        // browse asks this of every beacon several times.
        guard let address = addresses.first(where: { tls || $0.isPrivate }) else { return nil }
        return "\(tls ? "wss" : "ws")://\(address.urlHost):\(port)"
    }
}
