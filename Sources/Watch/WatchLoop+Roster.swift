import DNSSD
import Doctor
import FoundationEssentials
import Probes

/// The roster: what discovery lists, and how long a Gateway it no longer lists is kept.
extension WatchLoop {
    /// The roster discovery lists now: Gateways new to it (announced once settled), paths that
    /// began or stopped listing one, Gateways that merged into another (dropped without a word)
    /// and Gateways no path lists any more (kept, and probed, until forgotten).
    mutating func apply(_ roster: [GatewayBeacon]) {
        let now = clock()
        var seen = Set<String>()
        for beacon in roster {
            let id = beacon.gatewayID
            seen.insert(id)
            var target = Doctor.probeTarget(beacon)
            // A thousand handshakes a minute: the cheaper key exchange (doctor keeps a node's).
            target.keyExchange = .classical
            guard var entry = entries[id] else {
                entries[id] = Entry(beacon: beacon, gateway: WatchedGateway(beacon), target: target, sources: beacon.sources)
                // mDNS resolves one address at a time: wait for the others before announcing it.
                pending.schedule(id, at: now + (beacon.sources.contains(.mdns) ? policy.addressSettle : .zero))
                continue
            }
            if entry.announced {
                for source in beacon.sources.subtracting(entry.sources).sorted() { emit(entry.gateway, .appeared(source)) }
                for source in entry.sources.subtracting(beacon.sources).sorted() { emit(entry.gateway, .disappeared(source)) }
            }
            if entry.sources.isEmpty { unlisted.remove(id) }
            // A Gateway down and waiting (backing off) that gained an address: judged again now.
            let gained = target.addresses.contains { !entry.target.addresses.contains($0) }
            if gained, entry.announced, entry.probing == nil, entry.watch.health == .down { waiting.schedule(id, at: now) }
            (entry.beacon, entry.target, entry.sources) = (beacon, target, beacon.sources)
            entries[id] = entry
        }
        // The Gateway each sighting belongs to now: one whose sighting moved has merged into that one.
        var owner: [GatewayBeacon.ID: String] = [:]
        for beacon in roster {
            for sighting in beacon.sightings.isEmpty ? [beacon.id] : beacon.sightings.map(\.id) { owner[sighting] = beacon.gatewayID }
        }
        for (id, entry) in entries where !seen.contains(id) && !entry.sources.isEmpty {
            if !entry.announced || entry.sightingIDs.contains(where: { owner[$0] != nil }) {
                drop(id)
            } else {
                unlist(id, at: now)
            }
        }
        showRoster()
    }

    /// No path lists `id` any more: its paths' `disappeared`, the last saying until when it is
    /// kept; probed on its schedule meanwhile.
    private mutating func unlist(_ id: String, at now: ContinuousClock.Instant) {
        guard let entry = entries[id] else { return }
        let forgetAt = Date().addingTimeInterval(Double(policy.forgetAfter.components.seconds))
        let sources = entry.sources.sorted()
        for (index, source) in sources.enumerated() {
            emit(entry.gateway, .disappeared(source, forgetAt: index == sources.count - 1 ? forgetAt : nil))
        }
        entries[id]?.sources = []
        unlisted.schedule(id, at: now + policy.forgetAfter)
    }

    /// Gateways whose addresses have settled, once the session has said all it knows (`quiet`):
    /// `appeared` for each path that lists them, and their first probe.
    mutating func announceSettled() {
        guard quiet == nil else { return }
        let now = clock()
        var announced: [String] = []
        for id in pending.takeDue(now: now, limit: .max) {
            guard var entry = entries[id], !entry.announced else { continue }
            entry.announced = true
            // Its names as it is first shown: the labels of its series never change after.
            entry.gateway = WatchedGateway(entry.beacon)
            entries[id] = entry
            for source in entry.sources.sorted() { emit(entry.gateway, .appeared(source)) }
            waiting.schedule(id, at: now)
            announced.append(id)
        }
        if !announced.isEmpty { showRoster() }
    }

    /// Gateways no path has listed for `forgetAfter`: `forgotten`, off the roster.
    mutating func forgetExpired() {
        for id in unlisted.takeDue(now: clock(), limit: .max) {
            guard let entry = entries[id], entry.sources.isEmpty else { continue }
            emit(entry.gateway, .forgotten(after: policy.forgetAfter))
            drop(id)
        }
    }

    /// Off the roster, the board and every schedule.
    private mutating func drop(_ id: String) {
        entries.removeValue(forKey: id)
        waiting.remove(id)
        pending.remove(id)
        unlisted.remove(id)
        service.board.update { $0.gateways[id] = nil }
    }

    /// The announced Gateways on the board, with the paths that list each: one lock for the
    /// whole roster, however many Gateways it lists.
    private func showRoster() {
        let shown = entries.filter(\.value.announced)
        service.board.update { snapshot in
            for (id, entry) in shown {
                var row =
                    snapshot.gateways[id]
                    ?? .init(watched: entry.gateway, target: Self.scrapeTarget(entry.target), tls: entry.target.tls, sources: [])
                row.sources = entry.sources
                snapshot.gateways[id] = row
            }
        }
    }
}
