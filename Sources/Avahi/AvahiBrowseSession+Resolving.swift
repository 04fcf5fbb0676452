import DNSSD

/// How a browse keeps names that never resolve from starving the others (`ResolveQueue`), and
/// how it counts them: one issue, never a line per name.
extension AvahiBrowseSession {
    func endListing(_ type: ServiceType) {
        listing.remove(type)
        scheduleNextResolver()
    }

    func scheduleNextResolver() {
        guard !resolveArmed, !gaveUp, listing.isEmpty, resolveQueue.hasNext(retrying: retrying) else { return }
        guard flightCounts.holdingSlots < ResolveQueue.inFlightLimit else { return }
        resolveArmed = true
        arm(&resolveTimer, after: .zero) { $0.startNextResolver() }
    }

    /// Whether a last try may take a slot (see `ResolveQueue.lastTryLimit`).
    var retrying: Bool {
        flightCounts.lastTries < ResolveQueue.lastTryLimit
    }

    func setPhase(_ resolver: OpaquePointer, _ phase: Flight.Phase) {
        guard let old = resolvers[resolver]?.phase else { return }
        flightCounts.remove(old)
        resolvers[resolver]?.phase = phase
        flightCounts.add(phase)
    }

    func armPatience(after delay: Duration) {
        guard !patienceArmed else { return }
        patienceArmed = true
        arm(&patienceTimer, after: delay) { $0.losePatience() }
    }

    /// Resolvers past their deadline give their slot back: they run on to Avahi's own timeout
    /// while fewer than `ResolveQueue.lateLimit` do (a host that left without a goodbye is
    /// reported as before), else their links go to the back for one last try.
    func losePatience() {
        patienceArmed = false
        let now = ContinuousClock.now
        for (resolver, flight) in resolvers {
            guard case .patient(let deadline) = flight.phase, deadline <= now else { continue }
            if flightCounts.late < ResolveQueue.lateLimit {
                setPhase(resolver, .late)
                scheduleNextResolver()
            } else {
                freeResolver(flight.key, flight.link)
                enqueueResolve(flight.key, flight.link, retry: true)
            }
        }
        let deadlines = resolvers.values.compactMap { flight -> ContinuousClock.Instant? in
            if case .patient(let deadline) = flight.phase { deadline } else { nil }
        }
        if let next = deadlines.min() { armPatience(after: max(next - now, .milliseconds(10))) }
    }

    /// The resolve budget ran out: report what resolved, and count what did not.
    func giveUp() {
        gaveUp = true
        checkCompletion()
    }

    /// One issue for every instance not yet counted that no resolve answered for.
    func reportUnresolved() {
        let current = Set(table.unresolved)
        reportedUnresolved.formIntersection(current)
        let new = current.subtracting(reportedUnresolved)
        guard !new.isEmpty else { return }
        reportedUnresolved.formUnion(new)
        emit(.error(Self.unresolved(Array(new))))
    }
}

/// A resolver and where it stands.
struct Flight {
    enum Phase {
        /// Holds a slot until it answers or `until` passes.
        case patient(until: ContinuousClock.Instant)
        /// Past its patience, running on to Avahi's own timeout without a slot.
        case late
        /// A link's last try: holds a slot until Avahi's own timeout.
        case lastTry
        /// Answered; stays to report changes.
        case answered
    }

    var key: MulticastInstanceKey
    var link: AvahiLink
    var phase: Phase
}

/// How many resolvers are in each phase, so that bounds are checked without a walk.
struct FlightCounts {
    private(set) var patient = 0
    private(set) var late = 0
    private(set) var lastTries = 0

    var holdingSlots: Int { patient + lastTries }
    var unanswered: Int { patient + late + lastTries }

    mutating func add(_ phase: Flight.Phase) { change(phase, by: 1) }

    mutating func remove(_ phase: Flight.Phase) { change(phase, by: -1) }

    private mutating func change(_ phase: Flight.Phase, by delta: Int) {
        switch phase {
        case .patient: patient += delta
        case .late: late += delta
        case .lastTry: lastTries += delta
        case .answered: break
        }
    }
}
