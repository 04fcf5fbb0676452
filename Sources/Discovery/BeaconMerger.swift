import DNSSD

/// Turns the events of several backends into events of one list with a row per Gateway.
///
/// Identity rule: two beacons are the same Gateway when they were seen through different
/// paths (another source, or another domain) and have the same port, the same display name
/// (ignoring case and a trailing " (OpenClaw)"), and the same TLS fingerprint, or, when
/// either has no fingerprint, the same host label (the first label of the SRV target:
/// `studio` in `studio.local.` and in `studio.openclaw.internal.`). A manual target is the
/// same Gateway as a discovered one with its port and one of its addresses. Two instances
/// in one browse domain are never merged: DNS-SD names there are distinct services.
///
/// Rows are indexed by those keys, so a beacon is compared only with its few candidates
/// (a domain of thousands of Gateways merges in linear time).
struct BeaconMerger {
    private struct Group {
        var members: [GatewayBeacon.ID]
        var published: GatewayBeacon?
    }

    private struct Member {
        var beacon: GatewayBeacon
        var path: String
        /// Index keys: `name|port|display name` for discovered beacons, `addr|address|port`
        /// for every address (manual and discovered are indexed apart).
        var keys: [String]
    }

    private var members: [GatewayBeacon.ID: Member] = [:]
    private var groupOf: [GatewayBeacon.ID: Int] = [:]
    private var groups: [Int: Group] = [:]
    private var index: [String: [Int: Int]] = [:]  // key -> group -> number of members with it
    private var nextGroup = 0

    mutating func apply(_ event: DiscoveryEvent) -> [DiscoveryEvent] {
        switch event {
        case .added(let beacon), .updated(let beacon):
            let current = groupOf[beacon.id]
            if let current { leave(beacon.id, current) }
            members[beacon.id] = Member(beacon: beacon, path: Self.path(beacon), keys: Self.keys(beacon))
            // An update stays in its row while it still belongs there.
            if let current, belongs(beacon.id, in: current) {
                join(beacon.id, current)
                return republish(current)
            }
            let group = matchingGroup(for: beacon.id) ?? newGroup()
            join(beacon.id, group)
            return Set([current, group].compactMap { $0 }).sorted().flatMap { republish($0) }
        case .removed(let beacon):
            guard let group = groupOf[beacon.id] else { return [] }
            leave(beacon.id, group)
            members.removeValue(forKey: beacon.id)
            return republish(group)
        case .error, .allForNow:
            return [event]
        }
    }

    private mutating func newGroup() -> Int {
        defer { nextGroup += 1 }
        groups[nextGroup] = Group(members: [])
        return nextGroup
    }

    private mutating func join(_ id: GatewayBeacon.ID, _ group: Int) {
        groups[group]?.members.append(id)
        groupOf[id] = group
        for key in members[id]?.keys ?? [] { index[key, default: [:]][group, default: 0] += 1 }
    }

    private mutating func leave(_ id: GatewayBeacon.ID, _ group: Int) {
        groups[group]?.members.removeAll { $0 == id }
        groupOf.removeValue(forKey: id)
        for key in members[id]?.keys ?? [] {
            index[key]?[group, default: 1] -= 1
            if index[key]?[group] == 0 { index[key]?.removeValue(forKey: group) }
        }
    }

    /// `id` (not yet in a row) belongs in `group`: it is the same Gateway as a member there,
    /// or the row is empty and no other row has become its own.
    private func belongs(_ id: GatewayBeacon.ID, in group: Int) -> Bool {
        let others = groups[group]?.members ?? []
        if others.isEmpty { return matchingGroup(for: id) == nil }
        return accepts(group, id)
    }

    private func matchingGroup(for id: GatewayBeacon.ID) -> Int? {
        guard let member = members[id] else { return nil }
        let candidates = Set(Self.candidateKeys(member.beacon).flatMap { index[$0].map { Array($0.keys) } ?? [] })
        return candidates.sorted().first { accepts($0, id) }
    }

    /// A row takes a beacon when none of its members came on the beacon's path and one of
    /// them is the same Gateway.
    private func accepts(_ group: Int, _ id: GatewayBeacon.ID) -> Bool {
        guard let member = members[id] else { return false }
        let others = (groups[group]?.members ?? []).compactMap { members[$0] }
        return !others.isEmpty
            && !others.contains { $0.path == member.path }
            && others.contains { Self.sameGateway($0.beacon, member.beacon) }
    }

    /// Emit what changed for one row: added, updated, removed, or removed + added when the
    /// primary (and so the id) changed.
    private mutating func republish(_ key: Int) -> [DiscoveryEvent] {
        guard let group = groups[key] else { return [] }
        let merged = Self.merge(group.members.compactMap { members[$0]?.beacon })
        groups[key]?.published = merged
        if merged == nil { groups.removeValue(forKey: key) }
        switch (group.published, merged) {
        case (nil, nil): return []
        case (nil, let new?): return [.added(new)]
        case (let old?, nil): return [.removed(old)]
        case (let old?, let new?) where old.id != new.id: return [.removed(old), .added(new)]
        case (let old?, let new?): return old == new ? [] : [.updated(new)]
        }
    }

    /// The primary is the member seen on the closest path (mDNS, then wide-area, then manual).
    static func merge(_ beacons: [GatewayBeacon]) -> GatewayBeacon? {
        guard var primary = beacons.min(by: { rank($0) < rank($1) }) else { return nil }
        for other in beacons where other.id != primary.id {
            primary.sources.formUnion(other.sources)
            primary.addresses = Array(Set(primary.addresses + other.addresses)).sorted()
            primary.interfaces = Array(Set(primary.interfaces + other.interfaces)).sorted()
            primary.resolvers = Array(Set(primary.resolvers + other.resolvers)).sorted()
            primary.aliases.append(
                BeaconAlias(
                    source: other.sources.sorted().first ?? .manual, domain: other.domain?.name, instance: other.instance))
            for warning in other.discoveryWarnings where !primary.discoveryWarnings.contains(warning) {
                primary.discoveryWarnings.append(warning)
            }
        }
        primary.aliases.sort { ($0.source, $0.domain ?? "", $0.instance) < ($1.source, $1.domain ?? "", $1.instance) }
        return primary
    }

    private static func rank(_ beacon: GatewayBeacon) -> (Int, String) {
        // A beacon always has a source; without one it would rank after every path.
        (
            beacon.sources.sorted().first.map { BeaconSource.allCases.firstIndex(of: $0)! } ?? BeaconSource.allCases.count,
            beacon.id.description
        )
    }

    private static func path(_ beacon: GatewayBeacon) -> String {
        "\(beacon.sources.sorted().map(\.rawValue))|\(beacon.domain?.name ?? "")"
    }

    /// The keys a beacon is filed under.
    private static func keys(_ beacon: GatewayBeacon) -> [String] {
        guard let port = beacon.port else { return [] }
        let side = beacon.isManualOnly ? "manual" : "found"
        var keys = beacon.addresses.map { "\(side)|\($0)|\(port)" }
        if !beacon.isManualOnly { keys.append("name|\(port)|\(displayName(beacon))") }
        return keys
    }

    /// The keys under which a beacon's possible twins are filed: a manual target looks among
    /// discovered beacons with its addresses; a discovered one among its name and manual targets.
    private static func candidateKeys(_ beacon: GatewayBeacon) -> [String] {
        guard let port = beacon.port else { return [] }
        if beacon.isManualOnly { return beacon.addresses.map { "found|\($0)|\(port)" } }
        return ["name|\(port)|\(displayName(beacon))"] + beacon.addresses.map { "manual|\($0)|\(port)" }
    }

    static func sameGateway(_ a: GatewayBeacon, _ b: GatewayBeacon) -> Bool {
        guard let port = a.port, port == b.port else { return false }
        if a.isManualOnly || b.isManualOnly {
            return !Set(a.addresses).isDisjoint(with: b.addresses)
        }
        guard displayName(a) == displayName(b) else { return false }
        if let left = a.gateway.tlsSha256, let right = b.gateway.tlsSha256 { return left == right }
        guard let left = hostLabel(a), let right = hostLabel(b) else { return false }
        return left == right
    }

    static func displayName(_ beacon: GatewayBeacon) -> String {
        var name = (beacon.gateway.displayName ?? beacon.instance.displayName).lowercased()
        if name.hasSuffix(" (openclaw)") { name.removeLast(" (openclaw)".count) }
        return name
    }

    static func hostLabel(_ beacon: GatewayBeacon) -> String? {
        beacon.host?.firstLabel?.lowercased()
    }
}
