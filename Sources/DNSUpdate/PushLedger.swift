import DNSClient
import DNSSD
import DNSWire

/// What `zone push` knows a server holds of one service type in one zone, as its last push
/// left it: the service's PTR RRset, the SRV and TXT of every instance listed or pushed, the
/// A and AAAA of their hosts (whoever wrote them), and the zone's serial just after the push.
///
/// While the server still serves that serial, nothing in the zone has changed since, so a push
/// plans from the ledger instead of reading the zone. It is never trusted further than that:
/// every RRset an UPDATE changes carries the prerequisite that it is what the ledger says, so a
/// ledger that is wrong makes the server refuse the UPDATE (and the push reads), never lose a
/// record someone else wrote.
package struct PushLedger: Sendable {
    package let zone: DNSName
    package let service: DNSName
    package let serial: UInt32
    package let records: [DNSRecord]

    package init(zone: DNSName, service: DNSName, serial: UInt32, records: [DNSRecord]) {
        self.zone = zone
        self.service = service
        self.serial = serial
        self.records = records
    }

    /// The ledger of a push that applied `plan` over `served`, after which the server serves
    /// `serial`: the RRsets a push of `desired` relies on, as the plan left them.
    package init(after plan: UpdatePlan, over served: ServedRecords, desired: [DNSRecord], service: DNSName, serial: UInt32) {
        var sets = RRsets(served: served)
        for key in Self.keys(of: desired, service: service, zone: served.zone, in: sets.rrset) { sets.load(key) }
        for update in plan.changeSets.flatMap(\.updates) { sets.apply(update) }
        let records = Self.keys(of: desired, service: service, zone: served.zone, in: sets.rrset).flatMap(sets.rrset)
        self.init(zone: served.zone, service: service, serial: serial, records: records)
    }

    /// The ledger as what `server` serves, to plan from.
    package func served(by server: DNSServer) throws(RecordStore.Full) -> ServedRecords {
        try ServedRecords(zone: zone, server: server, serial: serial, source: .ledger, records: records)
    }

    /// The RRsets a push of `desired` plans from (what `ZoneReader` asks when it cannot
    /// transfer): the service's PTR RRset; SRV and TXT of the instances it lists and those
    /// wanted; A and AAAA of the hosts wanted and of the SRV targets in the zone.
    static func keys(of desired: [DNSRecord], service: DNSName, zone: DNSName, in rrset: (RRsetKey) -> [DNSRecord]) -> [RRsetKey] {
        var (instances, hosts) = ServiceRegistration.names(in: desired, service: service)
        instances += rrset(RRsetKey(service, .ptr)).compactMap { ServedRecords.instance(listedBy: $0, of: service) }
        var keys = [RRsetKey(service, .ptr)]
        var seen = Set(keys)
        for instance in instances {
            for type in [RRType.srv, .txt] where seen.insert(RRsetKey(instance, type)).inserted { keys.append(RRsetKey(instance, type)) }
            for record in rrset(RRsetKey(instance, .srv)) {
                if case .srv(_, _, _, let target) = record.data, target.isSubdomain(of: zone) { hosts.append(target) }
            }
        }
        for host in hosts {
            for type in [RRType.a, .aaaa] where seen.insert(RRsetKey(host, type)).inserted { keys.append(RRsetKey(host, type)) }
        }
        return keys
    }
}

/// RRsets as they were served, changed by updates as a server applies them (RFC 2136 §3.4.2).
private struct RRsets {
    let served: ServedRecords
    var changed: [RRsetKey: [DNSRecord]] = [:]

    init(served: ServedRecords) {
        self.served = served
    }

    func rrset(_ key: RRsetKey) -> [DNSRecord] {
        changed[key] ?? served.rrset(key.name, key.type)
    }

    mutating func load(_ key: RRsetKey) {
        if changed[key] == nil { changed[key] = served.rrset(key.name, key.type) }
    }

    mutating func apply(_ update: Update) {
        switch update {
        case .add(let record):
            let key = RRsetKey(record.name, record.type)
            load(key)
            // A record already there is not added twice; the RRset takes the new TTL (RFC 2181 §5.2).
            var set = (changed[key] ?? []).filter { !$0.sameRecord(as: record) }.map {
                DNSRecord(name: $0.name, type: $0.type, ttl: record.ttl, data: $0.data)
            }
            set.append(record)
            changed[key] = set
        case .deleteRRset(let name, let type):
            changed[RRsetKey(name, type)] = []
        case .delete(let record):
            let key = RRsetKey(record.name, record.type)
            load(key)
            changed[key]?.removeAll { $0.sameRecord(as: record) }
        }
    }
}
