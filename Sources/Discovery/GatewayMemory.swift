import DNSSD

/// The Gateways a merger no longer lists, by id, with their last sightings: one that comes back
/// (restarted, announced again, listed again after a SIGHUP started discovery over) is known by
/// the same identity (GatewayIdentity) and gets its id again. Bounded: the oldest is forgotten
/// first.
struct GatewayMemory {
    private var sightings: [String: [GatewayBeacon]] = [:]
    private var index = IdentityIndex<String>()
    /// When each id was remembered last (a counter): the newest wins a recall.
    private var remembered: [String: Int] = [:]
    /// Ids oldest first, with when; an entry whose time no longer holds (forgotten, recalled or
    /// remembered again since) is skipped.
    private var order: [(id: String, time: Int)] = []
    private var orderStart = 0
    private var clock = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { sightings.count }

    /// Remembers `id`'s sightings, replacing what was remembered for it.
    mutating func remember(_ id: String, sightings kept: [GatewayBeacon]) {
        forget(id)
        guard !kept.isEmpty else { return }
        sightings[id] = kept
        index.file(id, under: Self.keys(kept))
        clock += 1
        self.remembered[id] = clock
        order.append((id, clock))
        while sightings.count > capacity, orderStart < order.count {
            let oldest = order[orderStart]
            orderStart += 1
            if self.remembered[oldest.id] == oldest.time { forget(oldest.id) }
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
        let found = index.candidates(sharing: GatewayIdentity.keys(beacon)).filter { id in
            !live(id) && (sightings[id] ?? []).contains { GatewayIdentity.same($0, beacon) }
        }
        guard let id = found.max(by: { (remembered[$0] ?? 0) < (remembered[$1] ?? 0) }) else { return nil }
        forget(id)
        return id
    }

    private mutating func forget(_ id: String) {
        remembered.removeValue(forKey: id)
        guard let gone = sightings.removeValue(forKey: id) else { return }
        index.unfile(id, from: Self.keys(gone))
    }

    /// Every key of an id's sightings, once.
    private static func keys(_ sightings: [GatewayBeacon]) -> [String] {
        Array(Set(sightings.flatMap(GatewayIdentity.keys)))
    }
}
