/// Where a beacon was seen.
public enum BeaconSource: String, Sendable, Codable, Comparable, CaseIterable {
    case mdns, unicast, manual

    public static func < (lhs: BeaconSource, rhs: BeaconSource) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// One resolved OpenClaw service: what discovery saw (names, SRV, addresses, TXT) plus the
/// typed reading of it. The typed parts (`gateway`, `warnings`, `url`) are computed from the
/// observed parts, so they can never disagree with them.
public struct GatewayBeacon: Hashable, Sendable, Identifiable {
    package var instance: InstanceName
    package var serviceType: ServiceType
    /// nil for a manual target.
    package var domain: DomainName?
    package var sources: Set<BeaconSource>
    /// Interfaces mDNS saw it on (names), sorted.
    package var interfaces: [String]
    /// SRV target with its trailing dot, or the host a user typed.
    package var host: BeaconHost?
    /// SRV port, or the port a user typed.
    package var port: Int?
    package var addresses: [IPAddress]
    /// The TXT as received; what it says is read once, when it is set (`reading`).
    package var txt: TXTRecord {
        didSet { reading = TXTReading(txt) }
    }
    /// The TXT's attributes and their OpenClaw meaning, derived from `txt`.
    package internal(set) var reading: TXTReading
    /// TLS as the user asked for it (wss:// or the OpenClaw config) for manual targets.
    package var requestedTLS: Bool?
    /// Other (domain, instance) names the same Gateway was seen under, after merging.
    package var aliases: [BeaconAlias] = []
    /// Problems found while discovering it (a resolve that failed, an address lookup error).
    package var discoveryWarnings: [String] = []
    /// DNS servers that answered for it (unicast only), as `address#port`.
    package var resolvers: [String] = []
    /// The Gateway's id as the merger gave it (BeaconMerger): the same across path changes,
    /// restarts and renewals; nil for a beacon of one path that no merger has seen.
    package var assignedID: String?
    /// After merging: each path's own beacon of this Gateway, this one's among them, in the
    /// order they were first seen; empty for a beacon of one path.
    package var sightings: [GatewayBeacon] = []

    public init(
        instance: InstanceName, serviceType: ServiceType, domain: DomainName?, source: BeaconSource,
        interfaces: [String] = [], host: String?, port: Int?, addresses: [IPAddress], txt: TXTRecord,
        requestedTLS: Bool? = nil
    ) {
        self.instance = instance
        self.serviceType = serviceType
        self.domain = domain
        self.sources = [source]
        self.interfaces = Array(Set(interfaces)).sorted()
        self.host = host.map(BeaconHost.init)
        self.port = port
        self.addresses = Array(Set(addresses)).sorted()
        self.txt = txt
        self.reading = TXTReading(txt)
        self.requestedTLS = requestedTLS
    }

    /// Which beacon this is across updates: an advertised instance (its type, domain and
    /// lower-cased name) or a manual target (host:port). Printed `type|domain|instance` or
    /// `manual|host:port`, the `id` of browse's JSON.
    public enum ID: Hashable, Sendable, CustomStringConvertible {
        case advertised(type: String, domain: String, instance: String)
        case manual(String)

        public var description: String {
            switch self {
            case .advertised(let type, let domain, let instance): "\(type)|\(domain)|\(instance)"
            case .manual(let target): "manual|\(target)"
            }
        }
    }

    public var id: ID {
        guard let domain else { return .manual(instance.key) }
        return .advertised(type: serviceType.name, domain: domain.name, instance: instance.key)
    }

    /// Which Gateway this is: the merger's id, else this beacon's own (`id`). Browse's JSON
    /// `id`, watch's events, metric labels and /sd name a Gateway by it.
    package var gatewayID: String { assignedID ?? id.description }

    /// True when only a manual target produced it: there is no TXT to read.
    package var isManualOnly: Bool { sources == [.manual] }

    package var attributes: TXTAttributes { reading.attributes }

    public var gateway: GatewayInfo {
        var info = reading.info
        if let requestedTLS, isManualOnly { info.tls = requestedTLS }
        return info
    }

    public var url: String? {
        ConnectURL.best(host: host?.text, addresses: addresses, port: port, tls: gateway.advertisesTLS)
    }

    /// Contradictions and problems a user should know about, most useful first.
    public var warnings: [String] { warnings(url: url) }

    /// `warnings`, given the beacon's `url` (JSON writes both and makes the URL once).
    func warnings(url: String?) -> [String] {
        var warnings = discoveryWarnings
        if !isManualOnly {
            warnings += reading.issues.map(\.message)
            if let advertised = reading.info.gatewayPort, let port, advertised != port {
                warnings.append("TXT gatewayPort \(advertised) differs from SRV port \(port)")
            }
        }
        if port == 0 {
            warnings.append("SRV port is 0: the service says it is not available here")
        }
        if let host, addresses.isEmpty {
            warnings.append("no address found for \(host)")
        }
        if port != nil, port != 0, url == nil, !addresses.isEmpty || host != nil {
            let named = host?.text ?? "its address"
            warnings.append("no TLS advertised and \(named) is not a local or private name: OpenClaw clients refuse plain ws:// here")
        }
        return warnings
    }
}

/// Another name the same Gateway answered to (the same Gateway in `local.` and in a wide-area
/// domain, for example).
package struct BeaconAlias: Hashable, Sendable, Codable {
    package let source: BeaconSource
    package let domain: String?
    /// The exact name, as `instance` of a beacon in JSON.
    package let instance: String
    /// The name in presentation form when it is not UTF-8 (then `instance` is not exact).
    package let instancePresentation: String?

    package init(source: BeaconSource, domain: String?, instance: InstanceName) {
        self.source = source
        self.domain = domain
        self.instance = SafeText.utf8(instance.bytes) ?? String(decoding: instance.bytes, as: UTF8.self)
        self.instancePresentation = SafeText.utf8(instance.bytes) == nil ? instance.presentation : nil
    }
}

/// What a TXT record says: its attributes (RFC 6763 §6), their OpenClaw reading, and every
/// problem found on the way, read once per record.
package struct TXTReading: Hashable, Sendable {
    package let attributes: TXTAttributes
    package let info: GatewayInfo
    /// Attribute problems first, then problems with OpenClaw's keys.
    package let issues: [TXTIssue]

    package init(_ txt: TXTRecord) {
        attributes = txt.attributes
        let decoded = GatewayInfo.decode(attributes)
        info = decoded.info
        issues = attributes.issues + decoded.issues
    }
}
