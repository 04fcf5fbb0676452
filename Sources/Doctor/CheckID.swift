/// A check doctor knows: stable, dotted, lower-case (`mdns.daemon`, `gw.tls`), with its title
/// and the checks it needs to have run first.
public struct CheckID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    private init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    // The machine.
    public static let openclawConfig = CheckID("openclaw.config")
    public static let openclawAdvertising = CheckID("openclaw.advertising")
    public static let mdnsDBus = CheckID("mdns.dbus")
    public static let mdnsDaemon = CheckID("mdns.daemon")
    public static let mdnsInterfaces = CheckID("mdns.interfaces")
    public static let mdnsPort5353 = CheckID("mdns.port5353")
    public static let mdnsNSS = CheckID("mdns.nss")
    public static let mdnsBrowse = CheckID("mdns.browse")
    public static let dnsResolver = CheckID("dns.resolver")
    public static let dnsWideArea = CheckID("dns.widearea")
    public static let tailscaleInterface = CheckID("tailscale.interface")

    // Each Gateway.
    public static let gwDNS = CheckID("gw.dns")
    public static let gwTCP = CheckID("gw.tcp")
    public static let gwTLS = CheckID("gw.tls")
    public static let gwPin = CheckID("gw.pin")
    public static let gwCert = CheckID("gw.cert")
    public static let gwHTTP = CheckID("gw.http")
    public static let gwWebSocket = CheckID("gw.websocket")
    public static let gwProtocol = CheckID("gw.protocol")
    public static let gwConnect = CheckID("gw.connect")

    /// The machine's checks, in report order.
    public static let machine: [CheckID] = [
        .openclawConfig, .openclawAdvertising, .mdnsDBus, .mdnsDaemon, .mdnsInterfaces, .mdnsPort5353, .mdnsNSS, .mdnsBrowse,
        .dnsResolver, .dnsWideArea, .tailscaleInterface,
    ]

    /// Each Gateway's checks, in report (and layer) order.
    public static let gateway: [CheckID] = [.gwDNS, .gwTCP, .gwTLS, .gwPin, .gwCert, .gwHTTP, .gwWebSocket, .gwProtocol, .gwConnect]

    public static var all: [CheckID] { machine + gateway }

    /// A known check by its id, or nil.
    public static func known(_ text: String) -> CheckID? {
        all.first { $0.rawValue == text }
    }

    public var title: String {
        Self.titles[self] ?? rawValue
    }

    /// What this check needs to have run first.
    public var needs: [CheckID] {
        Self.prerequisites[self] ?? []
    }

    /// The requested checks and everything they need.
    public static func closure(of requested: Set<CheckID>) -> Set<CheckID> {
        var result = requested
        var queue = Array(requested)
        while let id = queue.popLast() {
            for need in id.needs where result.insert(need).inserted { queue.append(need) }
        }
        return result
    }

    private static let titles: [CheckID: String] = [
        .openclawConfig: "OpenClaw configuration", .openclawAdvertising: "This Gateway's mDNS advertising", .mdnsDBus: "D-Bus system bus",
        .mdnsDaemon: "avahi-daemon",
        .mdnsInterfaces: "Multicast interfaces", .mdnsPort5353: "Other mDNS responders on UDP 5353",
        .mdnsNSS: "nss-mdns for .local names", .mdnsBrowse: "Gateways in local.", .dnsResolver: "System resolver",
        .dnsWideArea: "Wide-area DNS-SD", .tailscaleInterface: "Tailscale",
        .gwDNS: "Name and addresses", .gwTCP: "TCP connect", .gwTLS: "TLS handshake", .gwPin: "Certificate pin",
        .gwCert: "Certificate", .gwHTTP: "HTTP health", .gwWebSocket: "WebSocket upgrade", .gwProtocol: "Gateway's first frame",
        .gwConnect: "connect handshake",
    ]

    private static let prerequisites: [CheckID: [CheckID]] = [
        .mdnsDaemon: [.mdnsDBus], .mdnsBrowse: [.mdnsDaemon],
        .gwTCP: [.gwDNS], .gwTLS: [.gwTCP], .gwPin: [.gwTLS], .gwCert: [.gwTLS],
        .gwHTTP: [.gwTLS], .gwWebSocket: [.gwTLS], .gwProtocol: [.gwWebSocket],
        .gwConnect: [.gwProtocol],
    ]

    public var description: String { rawValue }

    public static func < (lhs: CheckID, rhs: CheckID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
