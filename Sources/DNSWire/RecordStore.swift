import DNSSD

/// The records of a zone (from a transfer or a file) held compactly and within a bound: each
/// record's owner, type, TTL and RDATA fields as bytes in one buffer, names uncompressed, and
/// a DNSRecord made only when one is asked for. A DNSRecord value costs several hundred bytes
/// (every label of every name is an array of its own); a small record costs about 40 here.
///
/// One record's bytes: the owner's length (1) and its wire form, the type (2), the TTL (4), the
/// number of RDATA fields (2; `notKept` when the RDATA is of a type clawnet never reads), then
/// each field's length (2) and bytes. Integers are big-endian.
package struct RecordStore: RandomAccessCollection, Sendable {
    /// How many records, and how many bytes of them, a store takes before it refuses more.
    package struct Bounds: Sendable, Hashable, CustomStringConvertible {
        package let records: Int
        package let bytes: Int

        /// "1000000 records, 64 MiB".
        package var description: String { "\(records) records, \(bytesText)" }

        var bytesText: String { bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes" }

        package init(records: Int, bytes: Int) {
            self.records = records
            self.bytes = bytes
        }

        /// One zone: a fleet of 10,000 Gateways is about 40,000 records and 4 MB. A million
        /// small records take about 40 MB here (plus 12 MB for an index of their names), so a
        /// zone at both bounds stays far below what would hurt a machine.
        package static let zone = Bounds(records: 1_000_000, bytes: 64 << 20)
    }

    /// A record that would pass a bound was not added.
    package struct Full: Error, Sendable, Hashable, CustomStringConvertible {
        package enum Bound: Sendable, Hashable { case records, bytes }
        package let bound: Bound
        package let bounds: Bounds

        package init(bound: Bound, bounds: Bounds) {
            self.bound = bound
            self.bounds = bounds
        }

        /// "more than 1000000 records": what was too much, for a sentence about the zone.
        package var description: String {
            switch bound {
            case .records: "more than \(bounds.records) records"
            case .bytes: "more than \(bounds.bytesText) of records"
            }
        }
    }

    package let bounds: Bounds
    private var bytes: [UInt8] = []
    private var starts: [UInt32] = []
    /// The field count of a record whose RDATA was not kept: it reads as `.other`.
    private static let notKept: UInt16 = 0xFFFF

    package init(bounds: Bounds = .zone) {
        self.bounds = bounds
    }

    /// `records` in order; throws when they pass `bounds`.
    package init(_ records: some Sequence<DNSRecord>, bounds: Bounds = .zone) throws(Full) {
        self.init(bounds: bounds)
        for record in records { try append(record) }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { starts.count }
    /// The bytes the records take (the index of starts aside: 4 bytes a record).
    package var byteCount: Int { bytes.count }

    package subscript(position: Int) -> DNSRecord {
        record(at: position, named: name(at: position))
    }

    /// The record at `position` with `name` as its owner, made by the caller once for a run of
    /// records at one name (`sameOwner`): a long name is decoded once, not once a record.
    package func record(at position: Int, named name: DNSName) -> DNSRecord {
        var offset = Int(starts[position])
        offset += 1 + Int(bytes[offset])
        let type = RRType(rawValue: UInt16(integer(at: offset, size: 2)))
        let ttl = UInt32(integer(at: offset + 2, size: 4))
        let count = UInt16(integer(at: offset + 6, size: 2))
        offset += 8
        guard count != Self.notKept else { return DNSRecord(name: name, type: type, ttl: ttl, data: .other) }
        var fields: [[UInt8]] = []
        fields.reserveCapacity(Int(count))
        for _ in 0..<count {
            let length = integer(at: offset, size: 2)
            fields.append(Array(bytes[(offset + 2)..<(offset + 2 + Int(length))]))
            offset += 2 + Int(length)
        }
        return DNSRecord(name: name, type: type, ttl: ttl, data: DNSWireCodec.rdata(type, fields))
    }

    /// The record's type, without making the record.
    package func type(at position: Int) -> RRType {
        let offset = Int(starts[position])
        return RRType(rawValue: UInt16(integer(at: offset + 1 + Int(bytes[offset]), size: 2)))
    }

    package func ttl(at position: Int) -> UInt32 {
        let offset = Int(starts[position])
        return UInt32(integer(at: offset + 1 + Int(bytes[offset]) + 2, size: 4))
    }

    /// The record's owner name, without decoding its RDATA.
    package func name(at position: Int) -> DNSName {
        DNSName(trusted: labels(at: Int(starts[position])))
    }

    /// True when the records at `a` and `b` have the same owner, byte for byte.
    package func sameOwner(_ a: Int, _ b: Int) -> Bool {
        OwnerIndex.identical(owner(at: a), owner(at: b))
    }

    /// The owner's wire form, for comparing and hashing names without making them.
    func owner(at position: Int) -> ArraySlice<UInt8> {
        let offset = Int(starts[position])
        return bytes[(offset + 1)..<(offset + 1 + Int(bytes[offset]))]
    }

    package mutating func append(_ record: DNSRecord) throws(Full) {
        try append(owner: record.name.wire, type: record.type, ttl: record.ttl, fields: Self.fields(record.data))
    }

    /// Every record of `other`, in order.
    package mutating func append(contentsOf other: RecordStore) throws(Full) {
        try reserve(records: other.count, bytes: other.bytes.count)
        let base = UInt32(bytes.count)
        starts += other.starts.map { $0 + base }
        bytes += other.bytes
    }

    /// Keeps the first `count` records.
    package mutating func removeAll(after count: Int) {
        guard count < starts.count else { return }
        bytes.removeSubrange(Int(starts[count])...)
        starts.removeSubrange(count...)
    }

    /// A record from its parts: `owner` in wire form (checked by the caller), `fields` nil when
    /// its RDATA is not kept.
    mutating func append(owner: [UInt8], type: RRType, ttl: UInt32, fields: [[UInt8]]?) throws(Full) {
        let kept = fields.flatMap { $0.count < Int(Self.notKept) && $0.allSatisfy { $0.count <= 0xFFFF } ? $0 : nil }
        let size = 1 + owner.count + 8 + (kept?.reduce(0) { $0 + 2 + $1.count } ?? 0)
        try reserve(records: 1, bytes: size)
        starts.append(UInt32(bytes.count))
        bytes.append(UInt8(owner.count))
        bytes += owner
        appendInteger(Int(type.rawValue), size: 2)
        appendInteger(Int(ttl), size: 4)
        appendInteger(Int(kept.map { UInt16($0.count) } ?? Self.notKept), size: 2)
        for field in kept ?? [] {
            appendInteger(field.count, size: 2)
            bytes += field
        }
    }

    private func reserve(records: Int, bytes size: Int) throws(Full) {
        guard starts.count + records <= bounds.records else { throw Full(bound: .records, bounds: bounds) }
        guard bytes.count + size <= bounds.bytes, bytes.count + size <= Int(UInt32.max) else {
            throw Full(bound: .bytes, bounds: bounds)
        }
    }

    /// RDATA as the fields ldns reads it in, the way `DNSWireCodec.rdata` decodes them; nil
    /// for what clawnet does not decode.
    static func fields(_ data: DNSRecord.Data) -> [[UInt8]]? {
        func bigEndian(_ value: UInt32, size: Int) -> [UInt8] { (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        switch data {
        case .a(let address), .aaaa(let address): return [address.bytes]
        case .ptr(let target), .cname(let target), .ns(let target): return [target.wire]
        case .srv(let priority, let weight, let port, let target):
            return [priority, weight, port].map { bigEndian(UInt32($0), size: 2) } + [target.wire]
        case .txt(let txt): return txt.strings.map { [UInt8($0.count)] + $0 }
        case .soa(let mname, let rname, let serial, let refresh, let retry, let expire, let minimum):
            return [mname.wire, rname.wire] + [serial, refresh, retry, expire, minimum].map { bigEndian($0, size: 4) }
        case .other: return nil
        }
    }

    private func integer(at offset: Int, size: Int) -> Int {
        var value = 0
        for index in offset..<(offset + size) { value = value << 8 | Int(bytes[index]) }
        return value
    }

    private mutating func appendInteger(_ value: Int, size: Int) {
        for shift in (0..<size).reversed() { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * shift))) }
    }

    /// The labels of the owner stored at `offset` (checked when it was added).
    private func labels(at offset: Int) -> [[UInt8]] {
        var labels: [[UInt8]] = []
        var index = offset + 1
        while bytes[index] != 0 {
            let length = Int(bytes[index])
            labels.append(Array(bytes[(index + 1)...(index + length)]))
            index += 1 + length
        }
        return labels
    }
}
