import DNSSD
import Doctor
import FoundationEssentials
import Probes

/// The loop's own state: the Gateways on the roster, each with its watch and its schedule.
/// Only `WatchService.run` touches it, from one task. The clock and the jitter's random numbers
/// are handed in, so that a test can drive it.
struct WatchLoop {
    struct Entry {
        var beacon: GatewayBeacon
        var gateway: WatchedGateway
        var target: ProbeTarget
        var watch = GatewayWatch()
        /// The addresses the probe in flight was given; nil while none is.
        var probing: [IPAddress]?

        /// Discovery knows an address the probe in flight was not given.
        var hasNewAddress: Bool { probing.map { probed in target.addresses.contains { !probed.contains($0) } } ?? false }
    }

    let service: WatchService
    var setup: WatchSetup
    private var entries: [String: Entry] = [:]
    /// When each Gateway that is not being probed is due next, earliest first. Kept apart from
    /// `entries`: the loop looks for due Gateways on every wake-up.
    private var waiting = DueQueue<String>()
    private var inFlight = 0
    /// The certificates an expiry was reported for, kept when their Gateway disappears: once
    /// per certificate, not once per appearance.
    private var expiryReported = RecentSet<TLSFingerprint>(capacity: Self.expiryMemory)
    /// Twice the Gateways metrics export at most: a certificate each, and one renewal each.
    static let expiryMemory = 2 * MetricsText.defaultGatewayLimit
    private let clock: @Sendable () -> ContinuousClock.Instant
    private let random: @Sendable () -> Double
    private let started: ContinuousClock.Instant

    init(
        service: WatchService, setup: WatchSetup, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.service = service
        self.setup = setup
        self.clock = now
        self.random = random
        started = now()
    }

    private var policy: WatchPolicy { service.policy }

    func beacon(_ id: String) -> GatewayBeacon? { entries[id]?.beacon }

    /// No Gateway is on the roster.
    var isEmpty: Bool { entries.isEmpty }

    /// After discovery started again (a reread config changed its paths): until the new session
    /// has said all it knows, or until `until`, a Gateway it does not list yet is kept, and a
    /// path it does not list yet for one, so that nothing disappears only to appear again.
    private var hold: (until: ContinuousClock.Instant, roster: [GatewayBeacon])?

    mutating func holdRemovals(for duration: Duration) { hold = (clock() + duration, []) }

    /// A roster from discovery; `complete` once its session has said all it knows.
    mutating func receive(_ roster: [GatewayBeacon], complete: Bool) {
        if complete || hold.map({ clock() >= $0.until }) == true { hold = nil }
        guard hold != nil else { return apply(roster) }
        hold?.roster = roster
        var listed = Set<String>()
        let kept = roster.map { beacon in
            var beacon = beacon
            let id = WatchedGateway(beacon).id
            listed.insert(id)
            beacon.sources.formUnion(entries[id]?.beacon.sources ?? [])
            return beacon
        }
        apply(kept + entries.values.filter { !listed.contains($0.gateway.id) }.map(\.beacon))
    }

    /// A hold past its time: the last roster as it is.
    mutating func releaseExpiredHold() {
        guard let hold, clock() >= hold.until else { return }
        receive(hold.roster, complete: true)
    }

    /// The roster discovery lists now: Gateways new to it, paths that began or stopped listing
    /// one, Gateways gone from every path.
    mutating func apply(_ roster: [GatewayBeacon]) {
        var seen = Set<String>()
        var shown: [(WatchedGateway, ProbeTarget, Set<BeaconSource>)] = []
        for beacon in roster {
            let gateway = WatchedGateway(beacon)
            seen.insert(gateway.id)
            let before = entries[gateway.id]?.beacon.sources ?? []
            for source in beacon.sources.subtracting(before).sorted() { emit(gateway, .appeared(source)) }
            for source in before.subtracting(beacon.sources).sorted() { emit(gateway, .disappeared(source)) }
            var target = Doctor.probeTarget(beacon)
            // A thousand handshakes a minute: the cheaper key exchange (doctor keeps a node's).
            target.keyExchange = .classical
            if let entry = entries[gateway.id] {
                entries[gateway.id]?.beacon = beacon
                entries[gateway.id]?.target = target
                // A Gateway down and waiting (backing off) that gained an address: judged again now.
                let gained = target.addresses.contains { !entry.target.addresses.contains($0) }
                if gained, entry.probing == nil, entry.watch.health == .down { waiting.schedule(gateway.id, at: clock()) }
            } else {
                entries[gateway.id] = Entry(beacon: beacon, gateway: gateway, target: target)
                // mDNS resolves one address at a time: wait for the others before judging.
                waiting.schedule(gateway.id, at: clock() + (beacon.sources.contains(.mdns) ? policy.addressSettle : .zero))
            }
            shown.append((gateway, target, beacon.sources))
        }
        let gone = entries.keys.filter { !seen.contains($0) }
        for id in gone {
            waiting.remove(id)
            if let entry = entries.removeValue(forKey: id) {
                for source in entry.beacon.sources.sorted() { emit(entry.gateway, .disappeared(source)) }
            }
        }
        // One lock for the whole roster, however many Gateways it lists.
        service.board.update { snapshot in
            for (gateway, target, sources) in shown {
                var row =
                    snapshot.gateways[gateway.id]
                    ?? .init(watched: gateway, target: Self.scrapeTarget(target), tls: target.tls, sources: [])
                row.sources = sources
                snapshot.gateways[gateway.id] = row
            }
            for id in gone { snapshot.gateways[id] = nil }
        }
    }

    /// After a reread config: every Gateway is probed again at once (its pin may have changed).
    mutating func reloaded() {
        waiting.rescheduleAll(at: clock())
    }

    /// A probe finished: its events, the board, and when the Gateway is probed next.
    mutating func finished(_ id: String, _ verdict: ProbeVerdict) {
        inFlight -= 1
        let (now, date, policy) = (clock(), Date(), policy)
        let since = now - started
        let retry = !verdict.isUp && entries[id]?.hasNewAddress == true
        entries[id]?.probing = nil
        if retry {
            // Probed before discovery knew every address: judged again with all of them.
            waiting.schedule(id, at: now)
            return
        }
        guard let changes = entries[id]?.watch.observe(verdict, at: since, date: date, policy: policy), let entry = entries[id] else {
            return
        }
        // A Gateway that locked this address out is not asked again before the lockout ends.
        let wait = max(policy.wait(failures: entry.watch.failures, random: random()), verdict.lockedOutFor ?? .zero)
        waiting.schedule(id, at: now + wait)
        // The board first: a reader who sees an event finds the board already showing it.
        show(verdict, of: id, watch: entry.watch, port: entry.target.port, date: date)
        for change in changes where isNews(change, verdict) { emit(entry.gateway, change, date: date) }
    }

    /// A verdict on the board: counted, and shown for its Gateway.
    private func show(_ verdict: ProbeVerdict, of id: String, watch: GatewayWatch, port: Int, date: Date) {
        service.board.update { snapshot in
            snapshot.probes += 1
            for diagnosis in verdict.diagnoses { snapshot.diagnoses[diagnosis, default: 0] += 1 }
            guard var shown = snapshot.gateways[id] else { return }
            // A probe that stopped early keeps the certificate and protocol seen before.
            var kept = verdict
            kept.notAfter = verdict.notAfter ?? shown.verdict?.notAfter
            kept.protocolVersion = verdict.protocolVersion ?? shown.verdict?.protocolVersion
            shown.verdict = kept
            // The address that answered, not one that is advertised but refuses (IPv6 of a
            // Gateway that listens on IPv4 only): what blackbox_exporter should connect to.
            if let address = verdict.address { shown.target = Endpoint(host: address.withoutZone.description, port: port).description }
            if shown.health != watch.health { shown.lastChange = date }
            shown.health = watch.health
            snapshot.gateways[id] = shown
        }
    }

    /// False for an expiry reported before for the same certificate (before its Gateway
    /// disappeared and appeared again).
    private mutating func isNews(_ change: WatchEvent.Change, _ verdict: ProbeVerdict) -> Bool {
        guard case .certificateExpiring = change, let fingerprint = verdict.fingerprint else { return true }
        return expiryReported.insert(fingerprint)
    }

    /// The Gateways whose turn has come, at most as many as may start now; marked as probing.
    mutating func due() -> [(id: String, target: ProbeTarget, pin: Pin?)] {
        guard inFlight < policy.concurrentProbes else { return [] }
        return waiting.takeDue(now: clock(), limit: policy.concurrentProbes - inFlight).compactMap { id in
            guard let target = entries[id]?.target else { return nil }
            entries[id]?.probing = target.addresses
            inFlight += 1
            return (id, target, setup.pin(for: target))
        }
    }

    private func emit(_ gateway: WatchedGateway, _ change: WatchEvent.Change, date: Date = Date()) {
        service.emit(WatchEvent(gateway, change, date: date))
    }

    /// `address:port` of the first address (IPv6 in brackets), else `host:port`.
    static func scrapeTarget(_ target: ProbeTarget) -> String {
        Endpoint(host: target.addresses.first?.withoutZone.description ?? target.host, port: target.port).description
    }
}
