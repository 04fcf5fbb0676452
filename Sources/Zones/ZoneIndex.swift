import DNSWire

/// The entries of a zone file by owner name, built once: every question the linter asks of a
/// name (its SRV, its TXT, has it an address, is it a CNAME) is a dictionary look-up, so a
/// zone of 10,000 instances is checked in linear time, not 10,000 scans of 40,000 records.
struct ZoneIndex {
    private let byName: [DNSName: [ZoneFile.Entry]]

    init(_ entries: [ZoneFile.Entry]) {
        byName = Dictionary(grouping: entries, by: \.record.name)
    }

    /// The entries at `name` of `type`, in file order.
    func entries(_ name: DNSName, _ type: RRType) -> [ZoneFile.Entry] {
        byName[name, default: []].filter { $0.record.type == type }
    }

    func has(_ name: DNSName, _ type: RRType) -> Bool {
        byName[name, default: []].contains { $0.record.type == type }
    }

    func hasAddress(_ name: DNSName) -> Bool {
        byName[name, default: []].contains { $0.record.type == .a || $0.record.type == .aaaa }
    }
}
