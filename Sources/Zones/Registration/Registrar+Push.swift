import DNSSD
import DNSUpdate
import DNSWire

/// `zone push`: the Gateways of the sources registered in one UPDATE with prerequisites.
extension Registrar {
    /// What a push will do: what the plan was made from, the plan, and the Gateways it is about.
    package struct Push: Sendable {
        /// What the plan was made from: the zone as read, the ledger of the last push, or nothing
        /// known (`ServedRecords.Source`).
        package let served: ServedRecords
        package let plan: UpdatePlan
        /// The Gateways the sources gave (instances in the wanted PTR set).
        package let gateways: Int
        /// Instances of the type in the zone once the plan is applied.
        package let instancesAfter: Int
        /// Why the zone was read, when it was.
        package let readBecause: ReadCause?

        /// BIND 9.18.28+ refuses more than this many records of one type at one name.
        package var exceedsBINDLimit: Bool { instancesAfter > ZoneWriter.bindRecordsPerType }
    }

    /// Why a push read the zone instead of planning from what it knew (`ZonePush`).
    package enum ReadCause: Sendable {
        /// A dry run without a ledger: it sends nothing, so nothing would tell it what is there.
        case noLedger
        /// The zone's serial is not the one the ledger of the last push was written at.
        case serialMoved(ledger: UInt32, served: UInt32)
        /// The server gave no serial to compare a ledger with.
        case noSerial(UpdateFailure)
        /// The UPDATE planned without reading was refused: a prerequisite failed.
        case prerequisiteFailed(UpdateFailure)
    }

    /// The records to register for what the sources gave, and the instances a source saw but
    /// could not publish (never pruned: they exist). With `prune`, sources that failed or gave
    /// nothing stop the push here (`GatheredGateways.removalRefusal`): nothing is sent.
    package func pushRecords(_ gathered: GatheredGateways, prune: Bool) throws(ZoneError) -> (
        records: [DNSRecord], keeping: Set<DNSName>, notes: [ZoneNote]
    ) {
        if prune, let refusal = gathered.removalRefusal(.prune(zone: domain)) {
            throw refusal
        }
        let (records, notes) = try records(for: gathered.gateways)
        let keeping = Set(gathered.skipped.compactMap { try? DNSName(instance: $0, type: .gateway, domain: domain) })
        return (records, keeping, notes)
    }

    /// The UPDATEs that make what `served` holds hold `records`; other instances of the type go
    /// only with `prune` (and those in `keeping` stay).
    package func planPush(_ records: [DNSRecord], served: ServedRecords, prune: Bool, keeping: Set<DNSName>, readBecause: ReadCause?)
        throws(UpdateFailure) -> Push
    {
        let plan = try registration.planner.publish(records, served: served, prune: prune, keeping: keeping)
        let wanted = records.compactMap { record -> DNSName? in
            guard case .ptr(let target) = record.data else { return nil }
            return target
        }
        let removed = plan.changes.filter { $0.kind == .removed }.map(\.name)
        let after = Set(served.instances(of: service)).union(wanted).subtracting(removed)
        return Push(served: served, plan: plan, gateways: Set(wanted).count, instancesAfter: after.count, readBecause: readBecause)
    }

    /// The zone's serial as the server serves it now.
    package func serial(until deadline: ContinuousClock.Instant) async throws(UpdateFailure) -> UInt32 {
        try await bounded(until: deadline).serial()
    }

    /// A failure of one of `total` UPDATEs, saying how many were applied before it (a plan too
    /// large for one message is split).
    func failure(_ failure: UpdateFailure, applied: Int, of total: Int) -> UpdateFailure {
        let partial = applied > 0 ? " (\(applied) of \(total) UPDATEs were applied before it)" : ""
        return UpdateFailure(failure.reason, rcode: failure.rcode, failure.message + partial, fix: failure.fix)
    }
}
