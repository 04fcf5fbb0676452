import DNSSD
import DNSWire

/// An RFC 2136 §2.4 prerequisite: an RRset is exactly these records (value-dependent), or
/// does not exist.
package enum Prerequisite: Hashable, Sendable {
    case rrsetEquals(DNSName, RRType, [DNSRecord.Data])
    case rrsetAbsent(DNSName, RRType)
}

/// An RFC 2136 §2.5 update: add a record, delete an RRset, delete one record.
package enum Update: Hashable, Sendable {
    case add(DNSRecord)
    case deleteRRset(DNSName, RRType)
    case delete(DNSRecord)
}

/// What one UPDATE message carries: applied all at once, or not at all when a prerequisite
/// no longer holds.
package struct ChangeSet: Sendable {
    package let zone: DNSName
    package let prerequisites: [Prerequisite]
    package let updates: [Update]

    package init(zone: DNSName, prerequisites: [Prerequisite], updates: [Update]) {
        self.zone = zone
        self.prerequisites = prerequisites
        self.updates = updates
    }

    package func wire(id: UInt16) throws(DNSWireError) -> [UInt8] {
        try DNSWireCodec.update(zone: zone, prerequisites: prerequisiteRecords, updates: updateRecords, id: id)
    }

    /// The most bytes `wire` can be (no name compressed), found without encoding; nil when
    /// only encoding tells.
    package var wireLengthBound: Int? {
        DNSWireCodec.updateLengthBound(zone: zone, prerequisites: prerequisiteRecords, updates: updateRecords)
    }

    /// The prerequisites as records of the UPDATE's prerequisite section (RFC 2136 §2.4).
    private var prerequisiteRecords: [UpdateRecord] {
        prerequisites.flatMap { prerequisite -> [UpdateRecord] in
            switch prerequisite {
            case .rrsetEquals(let name, let type, let values):
                values.map { UpdateRecord(name: name, type: type, rrClass: .inet, ttl: 0, data: $0) }
            case .rrsetAbsent(let name, let type):
                [UpdateRecord(name: name, type: type, rrClass: .none, ttl: 0, data: nil)]
            }
        }
    }

    /// The updates as records of the UPDATE's update section (RFC 2136 §2.5).
    private var updateRecords: [UpdateRecord] {
        updates.map { update -> UpdateRecord in
            switch update {
            case .add(let record): UpdateRecord(name: record.name, type: record.type, rrClass: .inet, ttl: record.ttl, data: record.data)
            case .deleteRRset(let name, let type): UpdateRecord(name: name, type: type, rrClass: .any, ttl: 0, data: nil)
            case .delete(let record): UpdateRecord(name: record.name, type: record.type, rrClass: .none, ttl: 0, data: record.data)
            }
        }
    }

    /// The same UPDATE as nsupdate commands (after `server` and `zone` lines, before `send`).
    /// Names and RDATA are in presentation format, so any label survives the round trip.
    package var nsupdateLines: [String] {
        var lines: [String] = []
        for prerequisite in prerequisites {
            switch prerequisite {
            case .rrsetEquals(let name, let type, let values):
                lines += values.map { "prereq yxrrset \(name) IN \(type) \($0.presentation ?? "")" }
            case .rrsetAbsent(let name, let type):
                lines.append("prereq nxrrset \(name) IN \(type)")
            }
        }
        for update in updates {
            switch update {
            case .add(let record):
                lines.append("update add \(record.name) \(record.ttl) IN \(record.type) \(record.data.presentation ?? "")")
            case .deleteRRset(let name, let type): lines.append("update delete \(name) IN \(type)")
            case .delete(let record): lines.append("update delete \(record.name) IN \(record.type) \(record.data.presentation ?? "")")
            }
        }
        return lines
    }
}
