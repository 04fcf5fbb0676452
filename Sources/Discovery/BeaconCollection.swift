import DNSSD

/// The current set of beacons and errors, built by applying DiscoveryEvents in order.
public struct BeaconCollection: Sendable {
    private var beaconsByID: [GatewayBeacon.ID: GatewayBeacon] = [:]
    private var order: [GatewayBeacon.ID] = []
    public private(set) var errors: [DiscoveryIssue] = []

    public init() {}

    public mutating func apply(_ event: DiscoveryEvent) {
        switch event {
        case .added(let beacon), .updated(let beacon):
            if beaconsByID.updateValue(beacon, forKey: beacon.id) == nil { order.append(beacon.id) }
        case .removed(let beacon):
            if beaconsByID.removeValue(forKey: beacon.id) != nil { order.removeAll { $0 == beacon.id } }
        case .error(let issue):
            if !errors.contains(issue) { errors.append(issue) }
        case .allForNow:
            break
        }
    }

    /// Beacons sorted for output: by domain, then case-insensitive instance name.
    public var beacons: [GatewayBeacon] {
        order.compactMap { beaconsByID[$0] }.sorted {
            ($0.domain?.name ?? "~", $0.instance.key, $0.serviceType.name) < ($1.domain?.name ?? "~", $1.instance.key, $1.serviceType.name)
        }
    }

    public var count: Int { beaconsByID.count }
}
