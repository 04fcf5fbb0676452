import DNSSD
import DNSWire

extension ChangePlanner {
    /// Withdraws what `ledger` says a registration added, and nothing else: its PTR, its
    /// instance's SRV and TXT, the addresses it gave its host (and those it replaced there are
    /// put back). Every RRset it changes carries the prerequisite that it is still what was read,
    /// so a record someone else (re)added in between makes the UPDATE fail instead of going.
    /// Left alone: an instance whose SRV the registration added and someone else has since
    /// replaced, and the addresses it gave a host that an SRV this registration did not add
    /// points to (another Gateway, or another service, uses it). An RRset it removed whole
    /// (the host's `AAAA` when it gave only an `A`) is put back in every case.
    package func withdraw(_ ledger: RegistrationLedger, served: ServedRecords) throws(UpdateFailure) -> UpdatePlan {
        let instance = ledger.instance
        var units: [Unit] = []
        // Someone else took the name over: the SRV the registration added is gone, another is there.
        let services = served.rrset(instance, .srv)
        let addedService = ledger.added.contains { $0.name == instance && $0.type == .srv }
        if !addedService || services.isEmpty || services.contains(where: ledger.holds) {
            var unit = Unit(change: PlannedChange(name: instance, kind: .removed))
            unit.ptrDelete = served.rrset(service, .ptr).first { $0.data == .ptr(instance) && ledger.holds($0) }
            for type in [RRType.srv, .txt] { _ = undo(instance, type, ledger: ledger, served: served, into: &unit) }
            if unit.ptrDelete != nil || !unit.deletes.isEmpty { units.append(unit) }
        }
        // Every host it gave an address or took one from: what it replaced there goes back.
        var hosts: [DNSName] = []
        for record in ledger.added + ledger.replaced where (record.type == .a || record.type == .aaaa) && !hosts.contains(record.name) {
            hosts.append(record.name)
        }
        for host in hosts {
            var unit = Unit(change: PlannedChange(name: host, kind: .host([])))
            let shared = Self.pointedTo(host, byOtherThan: ledger, in: served)
            let changes = [RRType.a, .aaaa].compactMap { type in
                undo(host, type, ledger: ledger, served: served, takeOut: !shared, into: &unit)
            }
            if !changes.isEmpty {
                unit.change = PlannedChange(name: host, kind: .host(changes))
                units.append(unit)
            }
        }
        return try plan(units, served: served)
    }

    /// Takes the ledger's records out of one RRset, with the RRset as read as the prerequisite:
    /// the whole RRset when they are all it holds (then what the registration replaced goes
    /// back in), else record by record. An RRset the registration removed whole (an `AAAA`
    /// when it gave only an `A`) is put back while it is still absent, whatever `takeOut` says.
    private func undo(
        _ name: DNSName, _ type: RRType, ledger: RegistrationLedger, served: ServedRecords, takeOut: Bool = true, into unit: inout Unit
    ) -> RRsetChange? {
        let current = served.rrset(name, type)
        let restored = ledger.replaced.filter { $0.name == name && $0.type == type }
        if current.isEmpty {
            guard !restored.isEmpty else { return nil }
            unit.prerequisites.append(.rrsetAbsent(name, type))
            unit.adds += restored.map(Update.add)
            return RRsetChange(type: type, before: [], after: restored.map(\.data))
        }
        let ours = current.filter(ledger.holds)
        guard takeOut, !ours.isEmpty else { return nil }
        unit.prerequisites.append(.rrsetEquals(name, type, current.map(\.data)))
        guard ours.count < current.count else {
            unit.deletes.append(.deleteRRset(name, type))
            unit.adds += restored.map(Update.add)
            return RRsetChange(type: type, before: current.map(\.data), after: restored.map(\.data))
        }
        unit.deletes += ours.map(Update.delete)
        return RRsetChange(type: type, before: current.map(\.data), after: current.filter { !ledger.holds($0) }.map(\.data))
    }

    /// True when an SRV the ledger does not hold names `host` as its target.
    package static func pointedTo(_ host: DNSName, byOtherThan ledger: RegistrationLedger, in served: ServedRecords) -> Bool {
        served.records.contains { record in
            guard record.type == .srv, case .srv(_, _, _, let target) = record.data, target == host else { return false }
            return !ledger.holds(record)
        }
    }
}
