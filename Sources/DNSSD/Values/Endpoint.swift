/// A host and port typed by a user: `HOST`, `HOST:PORT`, `[IPv6]:PORT`, a bare IPv6 literal,
/// or a `ws://` / `wss://` URL.
package struct Endpoint: Hashable, Sendable, CustomStringConvertible {
    package enum Scheme: String, Sendable { case ws, wss }

    /// A host name (lower-cased, no trailing dot) or an IP literal in canonical form.
    package let host: String
    package let port: Int
    /// Set when the endpoint came from a URL.
    package let scheme: Scheme?

    /// OpenClaw's default gateway port (WebSocket and HTTP share it).
    package static let defaultGatewayPort = 18789

    package init(host: String, port: Int, scheme: Scheme? = nil) {
        self.host = host
        self.port = port
        self.scheme = scheme
    }

    /// A port typed by a user, 1-65535, or 0 where the system may choose one (a port to listen
    /// on): every flag that takes a port (`--port`, `HOST:PORT`, `ADDRESS:PORT`) says the same.
    package static func port(parsing text: some StringProtocol, allowingZero: Bool = false) throws(DNSSDError) -> Int {
        let lowest = allowingZero ? 0 : 1
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text), (lowest...65535).contains(value) else {
            throw DNSSDError(.port, "'\(text)' is not a port (\(lowest)-65535)")
        }
        return value
    }

    /// The literal address when `host` is one.
    package var address: IPAddress? { IPAddress(host) }

    /// The host name when `host` is one.
    package var hostName: DomainName? { DomainName(host: host) }

    /// `host:port`, IPv6 in brackets.
    package var description: String { "\(hostForAuthority):\(port)" }

    package var hostForAuthority: String { address?.urlHost.replacingPercent25() ?? host }

    package static func parse(_ text: String, defaultPort: Int) throws(DNSSDError) -> Endpoint {
        try EndpointSpec(parsing: text).endpoint(defaultPort: defaultPort)
    }
}

/// An endpoint as a user typed it, before a default port applies (the port may come from the
/// OpenClaw config, which is read later than the command line).
package struct EndpointSpec: Hashable, Sendable, CustomStringConvertible {
    /// A host name (lower-cased, no trailing dot) or an IP literal in canonical form.
    package let host: String
    package let port: Int?
    package let scheme: Endpoint.Scheme?
    /// What was typed; of a URL only its scheme and authority, without user info, path, query
    /// or fragment: those may carry credentials (`wss://user:pass@host`, `?token=`), and this
    /// text names the Gateway in reports.
    package let text: String

    package func endpoint(defaultPort: Int) -> Endpoint {
        Endpoint(host: host, port: port ?? defaultPort, scheme: scheme)
    }

    package var description: String { text }

    /// `HOST`, `HOST:PORT`, `[IPv6]:PORT`, a bare IPv6 literal, or a ws:// / wss:// URL (of
    /// which only the authority counts): the scheme, then the host and port, then the host's form.
    package init(parsing text: String) throws(DNSSDError) {
        let trimmed = Substring(text.trimmingSpaces())
        guard !trimmed.isEmpty else { throw DNSSDError(.endpoint, "empty host") }
        let (scheme, authority) = try Self.splitURL(trimmed, text: text)
        let (hostText, portText) = try Self.splitAuthority(authority, scheme: scheme, text: text)
        self.port = try portText.map { text throws(DNSSDError) in try Endpoint.port(parsing: text) }
        self.text = scheme.map { "\($0.rawValue)://\(authority)" } ?? text
        self.scheme = scheme
        self.host = try Self.canonicalHost(hostText)
    }
}

extension EndpointSpec {
    /// A URL's scheme (ws or wss only) and its authority, without user info, path, query or
    /// fragment; other text is all authority.
    static func splitURL(_ text: Substring, text typed: String) throws(DNSSDError) -> (Endpoint.Scheme?, Substring) {
        guard let range = text.firstRange(of: "://") else { return (nil, text) }
        let name = text[..<range.lowerBound].lowercased()
        guard let scheme = Endpoint.Scheme(rawValue: name) else {
            throw DNSSDError(.scheme, "'\(typed)': only ws:// and wss:// URLs name a Gateway")
        }
        var authority = text[range.upperBound...]
        if let slash = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            authority = authority[..<slash]
        }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        return (scheme, authority)
    }

    /// The host and the port's text: `[IPv6]:PORT` (the zone as `%25` inside a URL, RFC 6874),
    /// a bare IPv6 literal (never with a port: that would be ambiguous), or `HOST[:PORT]`.
    static func splitAuthority(_ authority: Substring, scheme: Endpoint.Scheme?, text: String) throws(DNSSDError) -> (
        Substring, Substring?
    ) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw DNSSDError(.endpoint, "'\(text)': missing ']' after the IPv6 address")
            }
            var host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw DNSSDError(.endpoint, "'\(text)': expected ':PORT' after ']'") }
            if let percent = host.firstRange(of: "%25"), scheme != nil {
                host = host[..<percent.lowerBound] + "%" + host[percent.upperBound...]
            }
            guard IPAddress(String(host))?.family == .v6 else {
                throw DNSSDError(.endpoint, "'\(host)' inside brackets is not an IPv6 address")
            }
            return (host, after.isEmpty ? nil : after.dropFirst())
        }
        if authority.filter({ $0 == ":" }).count > 1 {
            // First: `fe80::1%eth0:443` is not an address (a zone id has no colon) but is ambiguous all the same.
            try refuseAmbiguous(authority, text: text)
            guard IPAddress(String(authority))?.family == .v6 else {
                throw DNSSDError(.endpoint, "'\(text)' is not an IPv6 address; write [IPv6]:PORT to give a port")
            }
            return (authority, nil)
        }
        guard let colon = authority.firstIndex(of: ":") else { return (authority, nil) }
        return (authority[..<colon], authority[authority.index(after: colon)...])
    }

    /// An IP literal in canonical form, or a host name lower-cased without its trailing dot.
    static func canonicalHost(_ text: Substring) throws(DNSSDError) -> String {
        if let address = IPAddress(String(text)) { return address.description }
        guard let name = DomainName(host: text.lowercased()) else {
            throw DNSSDError(.endpoint, "'\(text)' is neither a host name nor an IP address")
        }
        return name.withoutTrailingDot
    }

    /// `::1:80` is the address ::1:80, or ::1 with port 80: when the text before the last
    /// colon is an IPv6 address too and the rest a port, brackets must say which.
    static func refuseAmbiguous(_ host: Substring, text: String) throws(DNSSDError) {
        guard let colon = host.lastIndex(of: ":") else { return }
        let address = host[..<colon]
        let port = host[host.index(after: colon)...]
        guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }),
            IPAddress(String(address))?.family == .v6
        else { return }
        throw DNSSDError(
            .endpoint,
            "'\(text)' is ambiguous: write [\(address)]:\(port) for port \(port) of \(address), or [\(host)] for the address \(host)")
    }
}

extension String {
    /// `[fe80::1%25eth0]` back to `[fe80::1%eth0]` for display outside URLs.
    func replacingPercent25() -> String {
        guard let range = firstRange(of: "%25") else { return self }
        var copy = self
        copy.replaceSubrange(range, with: "%")
        return copy
    }
}
