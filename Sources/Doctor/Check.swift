/// One line of doctor's report.
public struct Check: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Codable, Comparable {
        case skip, pass, warn, fail

        public static func < (lhs: Status, rhs: Status) -> Bool {
            [skip, pass, warn, fail].firstIndex(of: lhs)! < [skip, pass, warn, fail].firstIndex(of: rhs)!
        }
    }

    /// Stable, dotted, lower-case: `mdns.daemon`, `gw.tls`.
    public let id: String
    public let title: String
    public var status: Status
    public var message: String
    /// A concrete command or setting; every warn and fail has one.
    public var fix: String?
    public var elapsedMs: Int
    public var detail: [String: String]

    public init(_ id: String, _ status: Status, _ message: String, fix: String? = nil, elapsed: Duration = .zero, detail: [String: String] = [:]) {
        self.id = id
        self.title = CheckCatalog.title(of: id)
        self.status = status
        self.message = message
        self.fix = fix
        self.elapsedMs = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        self.detail = detail
    }
}

/// Every check doctor knows, what it is called and what it needs first.
public enum CheckCatalog {
    public static let machine: [(id: String, title: String)] = [
        ("openclaw.config", "OpenClaw configuration"),
        ("mdns.dbus", "D-Bus system bus"),
        ("mdns.daemon", "avahi-daemon"),
        ("mdns.interfaces", "Multicast interfaces"),
        ("mdns.port5353", "Other mDNS responders on UDP 5353"),
        ("mdns.nss", "nss-mdns for .local names"),
        ("mdns.browse", "Gateways in local."),
        ("dns.resolver", "System resolver"),
        ("dns.widearea", "Wide-area DNS-SD"),
        ("tailscale.interface", "Tailscale"),
    ]

    public static let gateway: [(id: String, title: String)] = [
        ("gw.dns", "Name and addresses"),
        ("gw.tcp", "TCP connect"),
        ("gw.tls", "TLS handshake"),
        ("gw.pin", "Certificate pin"),
        ("gw.cert", "Certificate"),
        ("gw.http", "HTTP health"),
        ("gw.websocket", "WebSocket upgrade"),
        ("gw.protocol", "Gateway's first frame"),
    ]

    public static var ids: [String] { (machine + gateway).map(\.id) }

    static func title(of id: String) -> String {
        (machine + gateway).first { $0.id == id }?.title ?? id
    }

    /// What each check needs to have run first.
    static let needs: [String: [String]] = [
        "mdns.daemon": ["mdns.dbus"], "mdns.browse": ["mdns.daemon"],
        "gw.tcp": ["gw.dns"], "gw.tls": ["gw.tcp"], "gw.pin": ["gw.tls"], "gw.cert": ["gw.tls"],
        "gw.http": ["gw.tls"], "gw.websocket": ["gw.tls"], "gw.protocol": ["gw.websocket"],
    ]

    /// The requested checks and everything they need.
    public static func closure(of requested: Set<String>) -> Set<String> {
        var result = requested
        var queue = Array(requested)
        while let id = queue.popLast() {
            for need in needs[id] ?? [] where result.insert(need).inserted { queue.append(need) }
        }
        return result
    }
}
