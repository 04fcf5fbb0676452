import DNSSD

/// The Gateways of a fleet push (`zone push` with `--domain` more than once): one inventory,
/// read once, each of its Gateways in the zone its beacon names.
extension GatewayCollector {
    /// For each zone of `zones` (in their order), the Gateways whose beacon names it; notes on
    /// beacons of other domains, which go nowhere: a zone gets only what names it.
    package static func gather(inventory path: String, zones: [DomainName]) throws -> (
        zones: [(domain: DomainName, gathered: GatheredGateways)], notes: [ZoneNote]
    ) {
        let listing: Inventory.Listing
        do { listing = try Inventory.listing(atPath: path) } catch {
            throw ZoneError(.inventoryUnusable(path: path, reason: error.description))
        }
        let byZone = zones.map { zone in
            var gathered = GatheredGateways()
            let beacons = listing.beacons.filter { $0.domain == zone }
            gathered.add(
                Inventory.gateways(in: Inventory.Listing(beacons: beacons, failures: listing.failures), domain: zone),
                from: .inventory(path: path))
            return (zone, gathered)
        }
        var elsewhere: [DomainName?: Int] = [:]
        for beacon in listing.beacons where !zones.contains(where: { $0 == beacon.domain }) {
            elsewhere[beacon.domain, default: 0] += 1
        }
        let notes = elsewhere.sorted { ($0.key?.name ?? "") < ($1.key?.name ?? "") }.map { domain, count in
            ZoneNote.outsideZones(domain: domain, count: count, inventory: path)
        }
        return (byZone, notes)
    }
}
