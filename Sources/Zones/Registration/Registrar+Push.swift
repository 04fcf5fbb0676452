import DNSSD
import DNSUpdate
import DNSWire

/// `zone push`: the Gateways of the sources registered in one UPDATE with prerequisites.
extension Registrar {
    /// What a push will do: what the server has, the plan, and the Gateways it is about.
    public struct Push: Sendable {
        public let served: ServedRecords
        public let plan: UpdatePlan
        /// The Gateways the sources gave (instances in the wanted PTR set).
        public let gateways: Int
        /// Instances of the type in the zone once the plan is applied.
        public let instancesAfter: Int

        /// BIND 9.18.28+ refuses more than this many records of one type at one name.
        public var exceedsBINDLimit: Bool { instancesAfter > ZoneWriter.bindRecordsPerType }
    }

    /// The records to register for what the sources gave, and the instances a source saw but
    /// could not publish (never pruned: they exist). With `prune`, sources that failed or gave
    /// nothing stop the push here (`GatheredGateways.removalRefusal`): nothing is sent.
    public func pushRecords(_ gathered: GatheredGateways, prune: Bool) throws(ZoneError) -> (
        records: [DNSRecord], keeping: Set<DNSName>, notes: [String]
    ) {
        if prune, let refusal = gathered.removalRefusal(kept: "every instance in \(domain.name)", instead: "or push without --prune") {
            throw refusal
        }
        let (records, notes) = try records(for: gathered.gateways)
        let keeping = Set(gathered.skipped.compactMap { try? DNSName(instance: $0, type: .gateway, domain: domain) })
        return (records, keeping, notes)
    }

    /// Reads what is served and plans the UPDATEs that make it hold `records`; other instances
    /// of the type go only with `prune` (and those in `keeping` stay).
    public func planPush(_ records: [DNSRecord], prune: Bool, keeping: Set<DNSName>, until deadline: ContinuousClock.Instant)
        async throws(UpdateFailure) -> Push
    {
        let served = try await read(for: records, until: deadline)
        let plan = try registration.planner.publish(records, served: served, prune: prune, keeping: keeping)
        let wanted = records.compactMap { record -> DNSName? in
            guard case .ptr(let target) = record.data else { return nil }
            return target
        }
        let removed = plan.changes.filter { $0.kind == .removed }.map(\.name)
        let after = Set(served.instances(of: service)).union(wanted).subtracting(removed)
        return Push(served: served, plan: plan, gateways: Set(wanted).count, instancesAfter: after.count)
    }

    /// Sends the push; returns how many UPDATEs were applied. A failure says how many were
    /// applied before it (a plan too large for one message is split).
    public func push(_ push: Push, until deadline: ContinuousClock.Instant) async throws(UpdateFailure) -> Int {
        let (applied, failure) = await send(push.plan, until: deadline)
        if let failure {
            let partial = applied > 0 ? " (\(applied) of \(push.plan.changeSets.count) UPDATEs were applied before it)" : ""
            throw UpdateFailure(failure.reason, rcode: failure.rcode, failure.message + partial, fix: failure.fix)
        }
        return applied
    }
}
