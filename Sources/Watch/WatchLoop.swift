import DNSSD
import Discovery
import Doctor
import FoundationEssentials
import Probes

/// The loop's own state: the Gateways on the roster, each with its watch and its schedule.
/// Only `WatchService.run` touches it, from one task. The clock and the jitter's random numbers
/// are handed in, so that a test can drive it.
///
/// A Gateway is keyed by its id (`gatewayID`), which discovery keeps across paths, restarts and
/// renewals. Its life on the roster (WatchLoop+Roster): announced (`appeared` per path, then
/// probed) once the first discovery session has said all it knows and, for one mDNS lists,
/// its addresses have settled, so that each path says what it knows once; a Gateway that merges
/// into another before that is never shown. One no path lists any more is kept and probed
/// (`disappeared` says until when) for `policy.forgetAfter`, then `forgotten`.
struct WatchLoop {
    struct Entry {
        var beacon: GatewayBeacon
        var gateway: WatchedGateway
        var target: ProbeTarget
        var watch = GatewayWatch()
        /// The addresses the probe in flight was given; nil while none is.
        var probing: [IPAddress]?
        /// The paths that list it now; empty while it is kept after the last one stopped.
        var sources: Set<BeaconSource>
        /// Its `appeared` events are out and it is probed (false while its addresses settle).
        var announced = false
        /// A probe this machine could not run was reported (once, until a probe runs again).
        var shortageReported = false

        /// Discovery knows an address the probe in flight was not given.
        var hasNewAddress: Bool { probing.map { probed in target.addresses.contains { !probed.contains($0) } } ?? false }

        /// The beacon ids of its sightings, each path's own.
        var sightingIDs: [GatewayBeacon.ID] { beacon.sightings.isEmpty ? [beacon.id] : beacon.sightings.map(\.id) }
    }

    let service: WatchService
    var setup: WatchSetup
    var entries: [String: Entry] = [:]
    /// When each Gateway that is not being probed is due next, earliest first. Kept apart from
    /// `entries`: the loop looks for due Gateways on every wake-up.
    var waiting = DueQueue<String>()
    /// Gateways not announced yet, due when their addresses have settled.
    var pending = DueQueue<String>()
    /// Gateways no path lists, due when they are forgotten.
    var unlisted = DueQueue<String>()
    /// While a discovery session (the first, or one a SIGHUP started) has not said all it knows,
    /// nothing is announced: until `until`, or `settled`, set when it has (later by
    /// `addressSettle` with mDNS among the paths: Avahi says all for now before it has resolved
    /// a Gateway announced a moment ago). nil when announcements go out as they come.
    var quiet: (until: ContinuousClock.Instant, settled: ContinuousClock.Instant?)?
    private var inFlight = 0
    /// The certificates an expiry was reported for, kept when their Gateway is forgotten: once
    /// per certificate, not once per appearance.
    private var expiryReported = RecentSet<TLSFingerprint>(capacity: Self.expiryMemory)
    /// Twice the Gateways metrics export at most: a certificate each, and one renewal each.
    static let expiryMemory = 2 * MetricsText.defaultGatewayLimit
    let clock: @Sendable () -> ContinuousClock.Instant
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
        quiet = (started + service.policy.rediscoverySettle, nil)
    }

    var policy: WatchPolicy { service.policy }

    func beacon(_ id: String) -> GatewayBeacon? { entries[id]?.beacon }

    /// No Gateway is on the roster.
    var isEmpty: Bool { entries.isEmpty }

    /// The Gateways on the roster, listed or kept, as discovery gave them last: what a new
    /// discovery session is told it knows (`DiscoveryRequest.known`), so that their ids stay.
    var roster: [GatewayBeacon] { entries.values.map(\.beacon) }

    /// After discovery started again (a reread config changed its paths): until the new session
    /// has said all it knows, or until `until`, a Gateway it does not list yet is kept, and a
    /// path it does not list yet for one, so that nothing disappears only to appear again.
    private var hold: (until: ContinuousClock.Instant, roster: [GatewayBeacon])?

    mutating func holdRemovals(for duration: Duration) {
        hold = (clock() + duration, [])
        quiet = (clock() + duration, nil)
    }

    /// A roster from discovery; `complete` once its session has said all it knows.
    mutating func receive(_ roster: [GatewayBeacon], complete: Bool) {
        if complete, let until = quiet?.until, quiet?.settled == nil {
            quiet = (until, clock() + (setup.request.local ? policy.addressSettle : .zero))
        }
        if complete || hold.map({ clock() >= $0.until }) == true { hold = nil }
        guard hold != nil else {
            apply(roster)
            return advance()
        }
        hold?.roster = roster
        var listed = Set<String>()
        let kept = roster.map { beacon in
            var beacon = beacon
            listed.insert(beacon.gatewayID)
            beacon.sources.formUnion(entries[beacon.gatewayID]?.sources ?? [])
            return beacon
        }
        apply(kept + entries.values.filter { !listed.contains($0.beacon.gatewayID) && !$0.sources.isEmpty }.map(\.beacon))
        advance()
    }

    /// What time alone changes: a hold past its time (the last roster as it is), Gateways whose
    /// addresses have settled (announced), Gateways no path listed for `forgetAfter` (forgotten).
    mutating func advance() {
        if let hold, clock() >= hold.until { receive(hold.roster, complete: true) }
        if let quiet, clock() >= min(quiet.until, quiet.settled ?? quiet.until) { self.quiet = nil }
        announceSettled()
        forgetExpired()
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
        guard verdict.isJudged else { return notRun(id, verdict, at: now) }
        entries[id]?.shortageReported = false
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

    /// A probe this machine could not run: no verdict, an error event (once until one runs),
    /// and another try soon.
    private mutating func notRun(_ id: String, _ verdict: ProbeVerdict, at now: ContinuousClock.Instant) {
        guard let entry = entries[id] else { return }
        waiting.schedule(id, at: now + min(policy.interval, policy.shortageRetry))
        guard !entry.shortageReported, let reason = verdict.localShortage else { return }
        entries[id]?.shortageReported = true
        emit(entry.gateway, .probeNotRun(reason: reason))
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

    func emit(_ gateway: WatchedGateway, _ change: WatchEvent.Change, date: Date = Date()) {
        service.emit(WatchEvent(gateway, change, date: date))
    }

    /// `address:port` of the first address (IPv6 in brackets), else `host:port`.
    static func scrapeTarget(_ target: ProbeTarget) -> String {
        Endpoint(host: target.addresses.first?.withoutZone.description ?? target.host, port: target.port).description
    }
}
