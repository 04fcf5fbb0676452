/// A check doctor knows: stable, dotted, lower-case (`mdns.daemon`, `gw.tls`). Its title and
/// what it needs are in its `Layer`.
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
    public static let openclawIdentity = CheckID("openclaw.identity")
    public static let discoveryGateways = CheckID("discovery.gateways")
    public static let discoveryPhones = CheckID("discovery.phones")

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
    public static let machine: [CheckID] = Layer.machine.map(\.id)

    /// Each Gateway's checks, in report (and layer) order.
    public static let gateway: [CheckID] = Layer.gateway.map(\.id)

    public static var all: [CheckID] { machine + gateway }

    /// A known check by its id, or nil.
    public static func known(_ text: String) -> CheckID? {
        all.first { $0.rawValue == text }
    }

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
