import DNSSD
import DNSWire

/// What one registration (`advertise --domain`) changed in a zone, so that its withdrawal
/// undoes exactly that: the records it put there that were not there before it ran, and the
/// records it replaced (another address of its host), which the withdrawal puts back. A record
/// that was there before, such as the host's `A` that `zone push` wrote, is never its to remove.
///
/// A restart after a crash adopts what an earlier run of the same registration left, as that
/// run's ledger (kept in a file by its caller) says; records that only look the same (the same
/// instance, host and port, written by `zone push`) were there before, and stay.
package struct RegistrationLedger: Sendable, Equatable {
    package let instance: DNSName
    package private(set) var added: [DNSRecord]
    package private(set) var replaced: [DNSRecord]

    package init(instance: DNSName, added: [DNSRecord] = [], replaced: [DNSRecord] = []) {
        self.instance = instance
        self.added = added
        self.replaced = replaced
    }

    /// True when `record` (name, type and RDATA; TTLs aside) is one this registration added.
    package func holds(_ record: DNSRecord) -> Bool {
        added.contains { $0.sameRecord(as: record) }
    }

    /// Takes note of `desired` being applied over `served` (what the server had just before):
    /// every wanted record that was not there was added; every record of an RRset it replaces
    /// that was not its own is kept to be put back. What the ledger holds already stays, so a
    /// refresh that puts a deleted record back keeps it the registration's.
    package mutating func note(_ desired: [DNSRecord], over served: ServedRecords) {
        for record in desired where !holds(record) && !served.rrset(record.name, record.type).contains(where: record.sameRecord) {
            added.append(record)
        }
        for key in Self.replacedRRsets(desired) {
            let wanted = desired.filter { $0.name == key.name && $0.type == key.type }
            for current in served.rrset(key.name, key.type)
            where !wanted.contains(where: current.sameRecord) && !holds(current) && !replaced.contains(where: current.sameRecord) {
                replaced.append(current)
            }
        }
    }

    /// The RRsets publishing `desired` replaces: each it names apart from the service's PTR
    /// (shared: a registration adds its PTR to it, never replaces it), and both address RRsets
    /// of a host it gives an address, since its host's addresses are exactly those it gives (an
    /// `AAAA` there before is removed when only an `A` is given, and must come back).
    static func replacedRRsets(_ desired: [DNSRecord]) -> [RRsetKey] {
        var keys: [RRsetKey] = []
        for record in desired where record.type != .ptr {
            let types: [RRType] = record.type == .a || record.type == .aaaa ? [.a, .aaaa] : [record.type]
            for type in types where !keys.contains(RRsetKey(record.name, type)) { keys.append(RRsetKey(record.name, type)) }
        }
        return keys
    }

    /// What an earlier run of this registration noted (its ledger file), as far as `served`
    /// still holds it; what it replaced is still to be put back.
    package mutating func adopt(_ earlier: RegistrationLedger, from served: ServedRecords) {
        for record in earlier.present(in: served) where !holds(record) { added.append(record) }
        for record in earlier.replaced where !replaced.contains(where: record.sameRecord) { replaced.append(record) }
    }

    /// The records it added that `served` still holds: what is left to withdraw.
    package func present(in served: ServedRecords) -> [DNSRecord] {
        added.filter { record in served.rrset(record.name, record.type).contains(where: record.sameRecord) }
    }
}

extension DNSRecord {
    /// The same record as DNS deletes it (RFC 2136 §2.5.4): name (without case), type, RDATA.
    package func sameRecord(as other: DNSRecord) -> Bool {
        name == other.name && type == other.type && data == other.data
    }
}
