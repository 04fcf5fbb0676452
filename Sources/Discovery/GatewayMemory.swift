import DNSSD

/// The Gateways a merger no longer lists, by id, with their last sightings: one that comes back
/// (restarted, announced again, listed again after a SIGHUP started discovery over) is known by
/// the same identity (GatewayIdentity) and gets its id again. Bounded: the oldest is forgotten
/// first.
struct GatewayMemory {
    private var sightings: [String: [GatewayBeacon]] = [:]
    private var index: [String: Set<String>] = [:]
    /// Ids oldest first; an id may be here after it was forgotten or recalled (skipped then).
    private var order: [String] = []
    private var orderStart = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { sightings.count }

    /// Remembers `id`'s sightings, replacing what was remembered for it.
    mutating func remember(_ id: String, sightings remembered: [GatewayBeacon]) {
        forget(id)
        guard !remembered.isEmpty else { return }
        sightings[id] = remembered
        for key in Set(remembered.flatMap(GatewayIdentity.keys)) { index[key, default: []].insert(id) }
        order.append(id)
        while sightings.count > capacity, orderStart < order.count {
            let oldest = order[orderStart]
            orderStart += 1
            forget(oldest)
        }
        // The skipped part of `order` is dropped once it is most of it: amortised constant time.
        if orderStart > capacity, orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }

    /// The id of a remembered Gateway `beacon` is a sighting of, not in `live`; forgotten here
    /// (it is listed again). The most recently remembered wins.
    mutating func recall(_ beacon: GatewayBeacon, unless live: (String) -> Bool) -> String? {
        let candidates = Set(GatewayIdentity.keys(beacon).flatMap { index[$0] ?? [] })
        let found = candidates.filter { id in
            !live(id) && (sightings[id] ?? []).contains { GatewayIdentity.same($0, beacon) }
        }
        guard let id = found.max(by: { position($0) < position($1) }) else { return nil }
        forget(id)
        return id
    }

    private func position(_ id: String) -> Int { order.lastIndex(of: id) ?? -1 }

    private mutating func forget(_ id: String) {
        guard let remembered = sightings.removeValue(forKey: id) else { return }
        for key in Set(remembered.flatMap(GatewayIdentity.keys)) {
            index[key]?.remove(id)
            if index[key]?.isEmpty == true { index.removeValue(forKey: key) }
        }
    }
}
