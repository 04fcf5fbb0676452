import DNSSD

/// Turns the events of several backends into events of one list with a row per Gateway: the
/// beacons that are one Gateway (GatewayIdentity) are its sightings, one per path, under one id.
///
/// Rows: a beacon joins the oldest row that has no beacon of its path and holds one that is the
/// same Gateway. Two instances of one path (one domain) are never one row: DNS-SD says they are
/// two services, and doctor reports one listener advertised twice (gateway-advertised-twice).
/// A row whose beacons no longer link up (the one that joined them changed or went) splits: the
/// part with its oldest beacon keeps the row and its id; a beacon that changed so that it no
/// longer belongs leaves the others their row.
///
/// Ids: a row's id (`assignedID`, browse's `id`) is the beacon id of the sighting it was first
/// seen through (`_openclaw-gw._tcp|local.|studio (openclaw)`, `manual|10.0.0.5:18789`), and it
/// stays while paths come and go: a path that stops listing the Gateway, or starts, changes its
/// sightings, never its id. When a beacon's change makes two rows one, the older id stays. A
/// row whose last sighting goes is remembered (`memoryCapacity` of them): a Gateway that comes
/// back (restarted, announced again, its certificate renewed) gets its id again. Across runs,
/// ids are not kept, except through `remembering` (watch hands its roster over when a SIGHUP
/// starts discovery again); a Gateway that one path lists first has that beacon's id in every
/// run.
///
/// Rows are indexed by the identity's keys, so a beacon is compared only with its few
/// candidates: a domain of thousands of Gateways merges in linear time (`comparisons` counts).
struct BeaconMerger {
    private struct Row {
        var id: String
        /// Members in the order they joined.
        var members: [GatewayBeacon.ID]
        var published: GatewayBeacon?
    }

    private struct Member {
        var beacon: GatewayBeacon
        var path: String
        var keys: [String]
    }

    private var members: [GatewayBeacon.ID: Member] = [:]
    private var rowOf: [GatewayBeacon.ID: Int] = [:]
    /// By creation: a lower key is an older row.
    private var rows: [Int: Row] = [:]
    private var index = IdentityIndex<Int>()  // rows by the keys of their members
    private var live: [String: Int] = [:]  // id -> row
    private var nextRow = 0
    private var memory: GatewayMemory
    /// Identity tests made so far, for the linear-time test.
    private(set) var comparisons = 0

    /// Ids of Gateways gone from every path that are kept, to give a returning one its id.
    static let memoryCapacity = 4_096

    /// `remembering`: Gateways known before (merged beacons), whose ids a returning one takes.
    init(remembering known: [GatewayBeacon] = []) {
        memory = GatewayMemory(capacity: Self.memoryCapacity)
        for gateway in known { memory.remember(gateway.gatewayID, sightings: gateway.sightings.isEmpty ? [gateway] : gateway.sightings) }
    }

    mutating func apply(_ event: DiscoveryEvent) -> [DiscoveryEvent] {
        switch event {
        case .added(let beacon), .updated(let beacon):
            var touched = Touched()
            place(beacon, &touched)
            return republish(touched)
        case .removed(let beacon):
            guard let row = rowOf[beacon.id] else { return [] }
            var touched = Touched()
            touch(row, &touched)
            leave(beacon.id, row)
            members.removeValue(forKey: beacon.id)
            split(row, &touched)
            return republish(touched)
        case .error, .allForNow:
            return [event]
        }
    }

    /// The rows an event changed, with what each had published before.
    private struct Touched {
        var before: [Int: GatewayBeacon] = [:]
        var rows: Set<Int> = []
    }

    private func touch(_ row: Int, _ touched: inout Touched) {
        guard touched.rows.insert(row).inserted else { return }
        if let published = rows[row]?.published { touched.before[row] = published }
    }

    /// A beacon added or changed: it stays in its row while that row still takes it, else joins
    /// the oldest row that does, else starts one.
    private mutating func place(_ beacon: GatewayBeacon, _ touched: inout Touched) {
        let current = rowOf[beacon.id]
        if let current {
            touch(current, &touched)
            leave(beacon.id, current)
        }
        members[beacon.id] = Member(beacon: beacon, path: Self.path(beacon), keys: GatewayIdentity.keys(beacon))
        if let current, rows[current]?.members.isEmpty == false, accepts(current, beacon.id) {
            join(beacon.id, current)
            split(current, &touched)
            return
        }
        let target = matchingRow(for: beacon.id, excluding: current)
        switch (current, target) {
        case (let current?, nil):
            // Alone in its row, or no longer linked to the others there: a row of its own.
            if rows[current]?.members.isEmpty == true {
                join(beacon.id, current)
            } else {
                split(current, &touched)
                join(beacon.id, newRow(for: beacon, &touched))
            }
        case (let current?, let target?):
            touch(target, &touched)
            join(beacon.id, target)
            guard let left = rows[current], left.members.isEmpty else { return split(current, &touched) }
            // It was alone: its row goes, and when that row is older, the row it joined takes its id.
            close(current)
            if current < target { rename(target, to: left.id) }
        case (nil, let target?):
            touch(target, &touched)
            join(beacon.id, target)
        case (nil, nil):
            join(beacon.id, newRow(for: beacon, &touched))
        }
    }

    private mutating func newRow(for beacon: GatewayBeacon, _ touched: inout Touched) -> Int {
        let row = nextRow
        nextRow += 1
        let listed = live
        let id = memory.recall(beacon) { listed[$0] != nil } ?? freshID(beacon.id.description)
        rows[row] = Row(id: id, members: [])
        live[id] = row
        touched.rows.insert(row)
        return row
    }

    /// `base`, or `base#2`, `base#3`...: never the id of a row listed now.
    private func freshID(_ base: String) -> String {
        guard live[base] != nil else { return base }
        var number = 2
        while live["\(base)#\(number)"] != nil { number += 1 }
        return "\(base)#\(number)"
    }

    private mutating func rename(_ row: Int, to id: String) {
        guard let old = rows[row]?.id else { return }
        if live[old] == row { live.removeValue(forKey: old) }
        rows[row]?.id = id
        live[id] = row
    }

    /// A row with no members left: gone, its id free (the caller remembers it when it goes for good).
    private mutating func close(_ row: Int) {
        guard let id = rows.removeValue(forKey: row)?.id else { return }
        if live[id] == row { live.removeValue(forKey: id) }
    }

    private mutating func join(_ id: GatewayBeacon.ID, _ row: Int) {
        rows[row]?.members.append(id)
        rowOf[id] = row
        index.file(row, under: members[id]?.keys ?? [])
    }

    private mutating func leave(_ id: GatewayBeacon.ID, _ row: Int) {
        rows[row]?.members.removeAll { $0 == id }
        rowOf.removeValue(forKey: id)
        index.unfile(row, from: members[id]?.keys ?? [])
    }

    /// The oldest row (other than `excluded`) that takes `id`.
    private mutating func matchingRow(for id: GatewayBeacon.ID, excluding excluded: Int?) -> Int? {
        guard let member = members[id] else { return nil }
        return index.candidates(sharing: member.keys).first { $0 != excluded && accepts($0, id) }
    }

    /// A row takes a beacon when none of its members came on the beacon's path and one of them
    /// is the same Gateway.
    private mutating func accepts(_ row: Int, _ id: GatewayBeacon.ID) -> Bool {
        guard let member = members[id] else { return false }
        let others = (rows[row]?.members ?? []).compactMap { members[$0] }
        guard !others.isEmpty, !others.contains(where: { $0.path == member.path }) else { return false }
        return others.contains { other in
            comparisons += 1
            return GatewayIdentity.same(other.beacon, member.beacon)
        }
    }

    /// Keeps in `row` the members linked to its oldest one; the others make rows of their own,
    /// one per group that is linked. A row left empty is closed and remembered.
    private mutating func split(_ row: Int, _ touched: inout Touched) {
        guard let all = rows[row]?.members else { return }
        guard !all.isEmpty else {
            if let published = rows[row]?.published { memory.remember(published.gatewayID, sightings: published.sightings) }
            close(row)
            return
        }
        var remaining = all
        var first = true
        while !remaining.isEmpty {
            let group = linked(from: remaining[0], among: remaining)
            remaining.removeAll { group.contains($0) }
            guard !first else {
                first = false
                continue
            }
            guard let beacon = members[group[0]]?.beacon else { continue }
            for id in group { leave(id, row) }
            let fresh = newRow(for: beacon, &touched)
            for id in group { join(id, fresh) }
        }
    }

    /// The members of `among` linked to `start`, directly or through others, in `among`'s order.
    private mutating func linked(from start: GatewayBeacon.ID, among: [GatewayBeacon.ID]) -> [GatewayBeacon.ID] {
        var found: Set<GatewayBeacon.ID> = [start]
        var queue = [start]
        while let next = queue.popLast(), let beacon = members[next]?.beacon {
            for other in among where !found.contains(other) {
                comparisons += 1
                if let candidate = members[other]?.beacon, GatewayIdentity.same(beacon, candidate) {
                    found.insert(other)
                    queue.append(other)
                }
            }
        }
        return among.filter { found.contains($0) }
    }

    /// What changed in the rows an event touched, by id: removed (rows gone, or an id that
    /// moved), then added and updated.
    private mutating func republish(_ touched: Touched) -> [DiscoveryEvent] {
        var after: [String: GatewayBeacon] = [:]
        var order: [String] = []
        for key in touched.rows.sorted() {
            guard let row = rows[key] else { continue }
            let merged = Self.merge(row.members.compactMap { members[$0]?.beacon }, id: row.id)
            rows[key]?.published = merged
            if let merged {
                after[row.id] = merged
                order.append(row.id)
            }
        }
        let before = Dictionary(touched.before.values.map { ($0.gatewayID, $0) }) { first, _ in first }
        var events: [DiscoveryEvent] = before.keys.sorted().filter { after[$0] == nil }.compactMap { before[$0].map { .removed($0) } }
        for id in order {
            guard let new = after[id] else { continue }
            if let old = before[id] {
                if old != new { events.append(.updated(new)) }
            } else {
                events.append(.added(new))
            }
        }
        return events
    }

    /// The row as one beacon: the member seen on the closest path (mDNS, then wide-area, then
    /// manual) is the primary; every member is a sighting.
    static func merge(_ beacons: [GatewayBeacon], id: String) -> GatewayBeacon? {
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
        primary.assignedID = id
        primary.sightings = beacons.sorted { rank($0) < rank($1) }
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
}
