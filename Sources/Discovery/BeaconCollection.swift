import DNSSD

/// The current set of beacons and errors, built by applying DiscoveryEvents in order.
package struct BeaconCollection: Sendable {
    /// By Gateway id (`gatewayID`): after merging, a row keeps it while its paths change.
    private var beaconsByID: [String: GatewayBeacon] = [:]
    private var order: [String] = []
    package private(set) var errors: [DiscoveryIssue] = []

    package init() {}

    package mutating func apply(_ event: DiscoveryEvent) {
        switch event {
        case .added(let beacon), .updated(let beacon):
            if beaconsByID.updateValue(beacon, forKey: beacon.gatewayID) == nil { order.append(beacon.gatewayID) }
        case .removed(let beacon):
            if beaconsByID.removeValue(forKey: beacon.gatewayID) != nil { order.removeAll { $0 == beacon.gatewayID } }
        case .error(let issue):
            if !errors.contains(issue) { errors.append(issue) }
        case .allForNow:
            break
        }
    }

    /// Beacons sorted for output: by domain, then case-insensitive instance name.
    package var beacons: [GatewayBeacon] {
        // Each beacon's sort key is made once, not at every comparison.
        order.compactMap { beaconsByID[$0] }.map { (key: ($0.domain?.name ?? "~", $0.instance.key, $0.serviceType.name), beacon: $0) }
            .sorted { $0.key < $1.key }.map(\.beacon)
    }

    package var count: Int { beaconsByID.count }
}
