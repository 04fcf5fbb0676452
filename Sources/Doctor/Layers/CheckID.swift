/// A check doctor knows: stable, dotted, lower-case (`mdns.daemon`, `gw.tls`). Its title and
/// what it needs are in its `Layer`.
package struct CheckID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    package let rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    private init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    // The machine.
    package static let openclawConfig = CheckID("openclaw.config")
    package static let openclawAdvertising = CheckID("openclaw.advertising")
    package static let mdnsDBus = CheckID("mdns.dbus")
    package static let mdnsDaemon = CheckID("mdns.daemon")
    package static let mdnsInterfaces = CheckID("mdns.interfaces")
    package static let mdnsPort5353 = CheckID("mdns.port5353")
    package static let mdnsNSS = CheckID("mdns.nss")
    package static let mdnsBrowse = CheckID("mdns.browse")
    package static let dnsResolver = CheckID("dns.resolver")
    package static let dnsWideArea = CheckID("dns.widearea")
    package static let tailscaleInterface = CheckID("tailscale.interface")
    package static let openclawIdentity = CheckID("openclaw.identity")
    package static let discoveryGateways = CheckID("discovery.gateways")
    package static let discoveryPhones = CheckID("discovery.phones")

    // Each Gateway.
    package static let gwDNS = CheckID("gw.dns")
    package static let gwTCP = CheckID("gw.tcp")
    package static let gwTLS = CheckID("gw.tls")
    package static let gwPin = CheckID("gw.pin")
    package static let gwCert = CheckID("gw.cert")
    package static let gwHTTP = CheckID("gw.http")
    package static let gwWebSocket = CheckID("gw.websocket")
    package static let gwProtocol = CheckID("gw.protocol")
    package static let gwConnect = CheckID("gw.connect")

    /// The machine's checks, in report order.
    package static let machine: [CheckID] = Layer.machine.map(\.id)

    /// Each Gateway's checks, in report (and layer) order.
    package static let gateway: [CheckID] = Layer.gateway.map(\.id)

    package static var all: [CheckID] { machine + gateway }

    /// A known check by its id, or nil.
    package static func known(_ text: String) -> CheckID? {
        all.first { $0.rawValue == text }
    }

    package var description: String { rawValue }

    package static func < (lhs: CheckID, rhs: CheckID) -> Bool { lhs.rawValue < rhs.rawValue }

    package init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
