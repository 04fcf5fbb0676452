import DNSWire

/// The entries of a zone by owner name, built once (an OwnerIndex over its records): every
/// question the linter asks of a name (its SRV, its TXT, has it an address, is it a CNAME) is a
/// look-up, so a zone of 10,000 instances is checked in linear time, not 10,000 scans of 40,000
/// records, and a zone of a million records is indexed in 12 MB. Entries are made as they are
/// read, never all at once.
struct ZoneIndex {
    let zone: ZoneFile
    private let owners: OwnerIndex

    init(_ zone: ZoneFile) {
        self.zone = zone
        owners = OwnerIndex(zone.records)
    }

    /// The entries at `name` of `type`, in file order.
    func entries(_ name: DNSName, _ type: RRType) -> LazyMapCollection<[Int], ZoneFile.Entry> {
        positions(name, type).lazy.map { zone.entries[$0] }
    }

    func has(_ name: DNSName, _ type: RRType) -> Bool {
        !positions(name) { $0 == type }.isEmpty
    }

    func hasAddress(_ name: DNSName) -> Bool {
        !positions(name) { $0 == .a || $0 == .aaaa }.isEmpty
    }

    func positions(_ name: DNSName, _ type: RRType) -> [Int] {
        positions(name) { $0 == type }
    }

    /// The owners of service PTR RRsets (`_name._tcp.<apex>` or `_name._udp.<apex>`), each once,
    /// as the position of its first PTR record, in the order of their names.
    func serviceTypes(apex: DNSName) -> [Int] {
        let records = zone.records
        var seen = [Bool](repeating: false, count: records.count)
        var heads: [(name: String, position: Int)] = []
        for position in records.indices where !seen[position] && records.type(at: position) == .ptr {
            let owner = records.name(at: position)
            guard ZoneLinter.isServiceType(owner, apex: apex) else { continue }
            for member in owners.positions(of: owner, in: records) { seen[member] = true }
            heads.append((owner.description, position))
        }
        return heads.sorted { $0.name < $1.name }.map(\.position)
    }

    private func positions(_ name: DNSName, where wanted: (RRType) -> Bool) -> [Int] {
        owners.positions(of: name, in: zone.records).filter { wanted(zone.records.type(at: $0)) }
    }
}
