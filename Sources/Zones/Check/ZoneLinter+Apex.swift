import DNSSD
import DNSWire

extension ZoneLinter {
    /// The zone's apex, or the one failure that says why there is none to check against.
    enum Apex {
        case found(DNSName)
        case missing(Finding)
    }

    /// The apex from --domain, else the SOA's owner. A --domain that none of the file's records is
    /// in is one failure naming the zone the file is for, not one "outside the zone" per record.
    static func apex(_ records: RecordStore, soas: [Int], requested: DomainName?) -> Apex {
        guard let requested, let name = try? DNSName(instance: nil, type: nil, domain: requested) else {
            guard let first = soas.first else {
                return .missing(Finding(.fail, .noApex))
            }
            return .found(records.name(at: first))
        }
        guard let soa = soas.first.map({ records.name(at: $0) }), !soa.isSubdomain(of: name),
            !records.indices.contains(where: { records.name(at: $0).isSubdomain(of: name) })
        else { return .found(name) }
        return .missing(Finding(.fail, .domainMismatch(requested: requested, name: name, soa: soa, records: records.count)))

    }
}
