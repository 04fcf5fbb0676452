import DNSSD
import DNSWire

/// What a push or a withdrawal changes, instance by instance, for people to read.
package struct PlannedChange: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        case added
        /// The instance exists; these of its RRsets (SRV, TXT) change.
        case changed([RRType])
        case removed
        /// A host's address RRsets change: each from what was there to what will be.
        case host([RRsetChange])
    }

    package let name: DNSName
    package let kind: Kind
    /// An instance's TXT strings the server holds that the push does not write again (a key
    /// clawnet does not write, a value it replaces), raw: each is named, never dropped unsaid.
    package var txtRemoved: [[UInt8]] = []

    package init(name: DNSName, kind: Kind, txtRemoved: [[UInt8]] = []) {
        self.name = name
        self.kind = kind
        self.txtRemoved = txtRemoved
    }
}

/// One RRset a plan changes, from the records it holds to the records it will hold; read as
/// "replaces A 10.0.0.5 with 10.0.0.7", so that no record someone else wrote goes unannounced.
package struct RRsetChange: Sendable, Hashable, CustomStringConvertible {
    package let type: RRType
    package let before: [DNSRecord.Data]
    package let after: [DNSRecord.Data]

    package init(type: RRType, before: [DNSRecord.Data], after: [DNSRecord.Data]) {
        self.type = type
        self.before = before
        self.after = after
    }

    package var description: String {
        func values(_ data: [DNSRecord.Data]) -> String { data.map { $0.presentation ?? "?" }.joined(separator: ", ") }
        if before.isEmpty { return "adds \(type) \(values(after))" }
        if after.isEmpty { return "removes \(type) \(values(before))" }
        if Set(before) == Set(after) { return "keeps \(type) \(values(after)) with a new TTL" }
        return "replaces \(type) \(values(before)) with \(values(after))"
    }
}

/// The change sets that turn what a server serves into what is wanted, and what they change.
package struct UpdatePlan: Sendable {
    package let changeSets: [ChangeSet]
    package let changes: [PlannedChange]
    package var isEmpty: Bool { changeSets.isEmpty }
}

/// Compares the service records a server has with those wanted (the records `zone generate`
/// writes for the Gateways, apart from SOA, NS and ns1) and plans the UPDATEs.
///
/// Concurrency: every RRset an UPDATE replaces carries a prerequisite that it is still what
/// the plan was made from (value-dependent, or "does not exist"), and so does the service's PTR
/// RRset whenever instances are added or removed. Two pushes that read the same state cannot
/// both succeed: the second gets YXRRSET or NXRRSET, and a rerun starts from the new state. The
/// same holds for a plan made from a ledger or from nothing known (`ZonePush`): where they are
/// wrong, the server refuses the UPDATE.
/// Everything goes into one UPDATE unless it does not fit in one DNS message; then it is
/// split between instances, each part with the prerequisites of the state the previous
/// parts leave.
package struct ChangePlanner: Sendable {
    package let zone: DNSName
    package let service: DNSName
    /// A DNS message is at most 65,535 bytes; TSIG needs room at the end (a 512-bit MAC and
    /// two names of up to 255 bytes fit in 700).
    package var maxMessageBytes = 65_535 - 700

    package init(zone: DNSName, service: DNSName) {
        self.zone = zone
        self.service = service
    }

    /// One planned group of changes that must travel in the same UPDATE.
    struct Unit {
        var change: PlannedChange
        var ptrAdd: DNSRecord?
        var ptrDelete: DNSRecord?
        var prerequisites: [Prerequisite] = []
        var deletes: [Update] = []
        var adds: [Update] = []
    }

    /// Publishes `desired` (PTR, SRV, TXT, host A/AAAA records). Other instances of the type
    /// stay unless `prune` (and then those in `keeping` stay too); other names and types are
    /// never touched.
    package func publish(_ desired: [DNSRecord], served: ServedRecords, prune: Bool, keeping: Set<DNSName> = [])
        throws(UpdateFailure) -> UpdatePlan
    {
        var order: [RRsetKey] = []
        var wanted: [RRsetKey: [DNSRecord]] = [:]
        for record in desired {
            let key = RRsetKey(record.name, record.type)
            if wanted[key] == nil { order.append(key) }
            wanted[key, default: []].append(record)
        }
        var units: [Unit] = []
        // Hosts first: when the plan is split, an instance never arrives before its host.
        var hosts: [DNSName] = []
        var seen = Set<DNSName>()
        for key in order where (key.type == .a || key.type == .aaaa) && seen.insert(key.name).inserted {
            hosts.append(key.name)
        }
        for host in hosts {
            var unit = Unit(change: PlannedChange(name: host, kind: .host([])))
            let changes = replace(host, [.a, .aaaa], wanted: wanted, served: served, into: &unit)
            if !changes.isEmpty {
                unit.change = PlannedChange(name: host, kind: .host(changes))
                units.append(unit)
            }
        }
        let listed = Set(served.instances(of: service))
        let wantedInstances = (wanted[RRsetKey(service, .ptr)] ?? []).compactMap { record -> (DNSRecord, DNSName)? in
            if case .ptr(let target) = record.data { return (record, target) }
            return nil
        }
        for (ptr, instance) in wantedInstances {
            var unit = Unit(change: PlannedChange(name: instance, kind: .added))
            let changes = replace(instance, [.srv, .txt], wanted: wanted, served: served, into: &unit)
            let types = changes.map(\.type)
            let removed = Self.txtRemoved(changes)
            unit.change.txtRemoved = removed
            if !listed.contains(instance) {
                unit.ptrAdd = ptr
            } else if types.isEmpty {
                continue
            } else {
                unit.change = PlannedChange(name: instance, kind: .changed(types), txtRemoved: removed)
            }
            units.append(unit)
        }
        if prune {
            let keep = Set(wantedInstances.map(\.1)).union(keeping)
            for record in served.rrset(service, .ptr) {
                guard case .ptr(let instance) = record.data, listed.contains(instance), !keep.contains(instance) else { continue }
                units.append(removal(of: instance, ptr: record, served: served))
            }
        }
        return try plan(units, served: served)
    }

    func removal(of instance: DNSName, ptr: DNSRecord?, served: ServedRecords) -> Unit {
        var unit = Unit(change: PlannedChange(name: instance, kind: .removed))
        unit.ptrDelete = ptr
        for type in [RRType.srv, .txt] where !served.rrset(instance, type).isEmpty {
            unit.deletes.append(.deleteRRset(instance, type))
        }
        return unit
    }

    /// Replaces the RRsets of `types` at `name` that differ from what is wanted; returns what
    /// each of them held and will hold. When it replaces any, those of `types` that are to stay
    /// absent are prerequisites too: a host's `AAAA` someone wrote while only an `A` is given
    /// fails the UPDATE instead of staying unseen (a plan not made from a read relies on it).
    private func replace(_ name: DNSName, _ types: [RRType], wanted: [RRsetKey: [DNSRecord]], served: ServedRecords, into unit: inout Unit)
        -> [RRsetChange]
    {
        var replaced: [RRsetChange] = []
        var absent: [RRType] = []
        for type in types {
            let target = wanted[RRsetKey(name, type)] ?? []
            let current = served.rrset(name, type)
            guard !Self.same(current, target) else {
                if current.isEmpty { absent.append(type) }
                continue
            }
            replaced.append(RRsetChange(type: type, before: current.map(\.data), after: target.map(\.data)))
            if current.isEmpty {
                unit.prerequisites.append(.rrsetAbsent(name, type))
            } else {
                unit.prerequisites.append(.rrsetEquals(name, type, current.map(\.data)))
                unit.deletes.append(.deleteRRset(name, type))
            }
            unit.adds += target.map(Update.add)
        }
        if !replaced.isEmpty { unit.prerequisites += absent.map { .rrsetAbsent(name, $0) } }
        return replaced
    }

    /// The TXT strings a replaced TXT RRset held that the new one does not, in the server's order.
    static func txtRemoved(_ changes: [RRsetChange]) -> [[UInt8]] {
        guard let txt = changes.first(where: { $0.type == .txt }) else { return [] }
        func strings(_ data: [DNSRecord.Data]) -> [[UInt8]] {
            data.flatMap { record -> [[UInt8]] in
                if case .txt(let value) = record { return value.strings }
                return []
            }
        }
        let kept = Set(strings(txt.after))
        var seen = Set<[UInt8]>()
        return strings(txt.before).filter { !kept.contains($0) && seen.insert($0).inserted }
    }

    /// The same records (names compared without case, as DNS does) with the same TTLs.
    static func same(_ current: [DNSRecord], _ wanted: [DNSRecord]) -> Bool {
        let values = Set(current.map(\.data))
        return current.count == wanted.count && values.count == current.count && values == Set(wanted.map(\.data))
            && current.allSatisfy { record in wanted.allSatisfy { $0.ttl == record.ttl } }
    }

    func plan(_ units: [Unit], served: ServedRecords) throws(UpdateFailure) -> UpdatePlan {
        UpdatePlan(changeSets: try pack(units[...], ptrBefore: served.rrset(service, .ptr)), changes: units.map(\.change))
    }

    /// One change set for all units when it fits in a message; otherwise halves, in order.
    private func pack(_ units: ArraySlice<Unit>, ptrBefore: [DNSRecord]) throws(UpdateFailure) -> [ChangeSet] {
        guard !units.isEmpty else { return [] }
        let set = changeSet(units, ptrBefore: ptrBefore)
        // Encoding a large UPDATE only to measure it costs as much as planning it: a set
        // that fits even with no name compressed is not encoded here.
        if let bound = set.wireLengthBound, bound <= maxMessageBytes { return [set] }
        let size: Int
        do { size = try set.wire(id: 0).count } catch {
            throw UpdateFailure(.tooLarge, "cannot encode the UPDATE: \(error.message)")
        }
        if size <= maxMessageBytes { return [set] }
        guard units.count > 1 else {
            throw UpdateFailure(
                .tooLarge,
                "the records of \(units.first?.change.name.description ?? "one Gateway") alone do not fit in one DNS message (\(size) "
                    + "bytes)",
                fix: "shorten its TXT record")
        }
        let middle = units.startIndex + units.count / 2
        let head = units[..<middle]
        let tail = units[middle...]
        var after = ptrBefore
        for unit in head {
            if let gone = unit.ptrDelete { after.removeAll { $0.data == gone.data } }
            if let added = unit.ptrAdd { after.append(added) }
        }
        return try pack(head, ptrBefore: ptrBefore) + pack(tail, ptrBefore: after)
    }

    private func changeSet(_ units: ArraySlice<Unit>, ptrBefore: [DNSRecord]) -> ChangeSet {
        var prerequisites: [Prerequisite] = []
        if units.contains(where: { $0.ptrAdd != nil || $0.ptrDelete != nil }) {
            prerequisites.append(ptrBefore.isEmpty ? .rrsetAbsent(service, .ptr) : .rrsetEquals(service, .ptr, ptrBefore.map(\.data)))
        }
        prerequisites += units.flatMap(\.prerequisites)
        // Deletions first (BIND counts records per type as it goes: max-records-per-type), the
        // PTR additions last, after the records they point to.
        let updates =
            units.compactMap(\.ptrDelete).map(Update.delete) + units.flatMap(\.deletes)
            + units.flatMap(\.adds) + units.compactMap(\.ptrAdd).map(Update.add)
        return ChangeSet(zone: zone, prerequisites: prerequisites, updates: updates)
    }
}
