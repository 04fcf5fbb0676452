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
        guard resolvers.count < ResolveQueue.inFlightLimit else { return }
        resolveArmed = true
        arm(&resolveTimer, after: .zero) { $0.startNextResolver() }
    }

    /// Whether a last try may take a slot (see `ResolveQueue.lastTryLimit`).
    var retrying: Bool {
        resolvers.values.count { $0.deadline == nil } < ResolveQueue.lastTryLimit
    }

    func armPatience(after delay: Duration) {
        guard !patienceArmed else { return }
        patienceArmed = true
        arm(&patienceTimer, after: delay) { $0.losePatience() }
    }

    /// Resolvers past their deadline give their slot back; their links go to the back.
    func losePatience() {
        patienceArmed = false
        let now = ContinuousClock.now
        for (_, flight) in resolvers {
            guard let deadline = flight.deadline, deadline <= now else { continue }
            freeResolver(flight.key, flight.link)
            enqueueResolve(flight.key, flight.link, retry: true)
        }
        if let next = resolvers.values.compactMap(\.deadline).min() { armPatience(after: max(next - now, .milliseconds(10))) }
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

/// A resolver in flight; `deadline` is nil on a link's last try (Avahi's own timeout ends it).
struct Flight {
    var key: MulticastInstanceKey
    var link: AvahiLink
    var deadline: ContinuousClock.Instant?
}
