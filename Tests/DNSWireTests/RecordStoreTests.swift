import DNSSD
import TestSupport
import Testing

@testable import DNSWire

/// A zone's records held compactly and within a bound (a 62 MiB transfer of tiny records once
/// took 1.5-2.0 GB as DNSRecord values): every record reads back as it went in, the bounds
/// refuse what passes them and name the bound, a small record costs tens of bytes, and the
/// index by owner name finds what a dictionary would.
@Suite("Record store: compact, bounded, indexed")
struct RecordStoreTests {
    static func name(_ text: String) -> DNSName { try! DNSName(presentation: text) }

    /// One record of every kind of RDATA clawnet decodes, and one it does not.
    static let samples: [DNSRecord] = [
        DNSRecord(name: name("gw.OpenClaw.internal."), type: .a, ttl: 60, data: .a(IPAddress("100.64.0.1")!)),
        DNSRecord(name: name("gw.openclaw.internal."), type: .aaaa, ttl: 0, data: .aaaa(IPAddress("fd7a:115c:a1e0::1")!)),
        DNSRecord(
            name: name("_openclaw-gw._tcp.openclaw.internal."), type: .ptr, ttl: 60,
            data: .ptr(name(#"Studio\032\(OpenClaw\)._openclaw-gw._tcp.openclaw.internal."#))),
        DNSRecord(name: name("www.openclaw.internal."), type: .cname, ttl: 3600, data: .cname(name("gw.openclaw.internal."))),
        DNSRecord(name: name("openclaw.internal."), type: .ns, ttl: 86_400, data: .ns(name("ns1.openclaw.internal."))),
        DNSRecord(
            name: name(#"Studio\032\(OpenClaw\)._openclaw-gw._tcp.openclaw.internal."#), type: .srv, ttl: 60,
            data: .srv(priority: 1, weight: 65_535, port: 18_789, target: name("gw.openclaw.internal."))),
        DNSRecord(
            name: name("s.openclaw.internal."), type: .txt, ttl: 60,
            data: .txt(try! TXTRecord(strings: [Array("role=gateway".utf8), [], [0, 255, 10], Array(repeating: 120, count: 255)]))),
        DNSRecord(name: name("empty.openclaw.internal."), type: .txt, ttl: 60, data: .txt(.empty)),
        DNSRecord(
            name: name("openclaw.internal."), type: .soa, ttl: 60,
            data: .soa(
                mname: name("ns1.openclaw.internal."), rname: name("hostmaster.openclaw.internal."), serial: 2_026_112_201,
                refresh: 7200, retry: 3600, expire: 1_209_600, minimum: 4_294_967_295)),
        DNSRecord(name: name("x.openclaw.internal."), type: RRType(rawValue: 99), ttl: 7, data: .other),
        DNSRecord(name: name("."), type: .txt, ttl: 1, data: .other),
    ]

    @Test("every kind of record reads back as it went in: whole, and by type, TTL and name alone")
    func roundTrip() throws {
        let store = try RecordStore(Self.samples)
        #expect(store.count == Self.samples.count)
        for (position, record) in Self.samples.enumerated() {
            #expect(store[position] == record, "\(store[position]) != \(record)")
            #expect(store[position].name.labels == record.name.labels, "case kept: \(store[position].name)")
            #expect(store.type(at: position) == record.type && store.ttl(at: position) == record.ttl)
            #expect(store.name(at: position).labels == record.name.labels)
        }
    }

    @Test("a record past either bound is refused, naming the bound, and the store keeps what it had")
    func bounds() throws {
        var store = RecordStore(bounds: .init(records: 3, bytes: 1 << 20))
        for record in Self.samples.prefix(3) { try store.append(record) }
        let full = #expect(throws: RecordStore.Full.self) { try store.append(Self.samples[3]) }
        #expect(full?.bound == .records && full?.description == "more than 3 records", "\(String(describing: full))")
        #expect(store.count == 3 && Array(store) == Array(Self.samples.prefix(3)))

        var small = RecordStore(bounds: .init(records: 100, bytes: 2 << 20))
        let big = DNSRecord(
            name: Self.name("big.openclaw.internal."), type: .txt, ttl: 60,
            data: .txt(try TXTRecord(strings: Array(repeating: Array(repeating: 65, count: 255), count: 8000))))
        try small.append(big)
        let bytes = #expect(throws: RecordStore.Full.self) { try small.append(big) }
        #expect(bytes?.bound == .bytes && bytes?.description == "more than 2 MiB of records", "\(String(describing: bytes))")
        #expect(small.count == 1 && small.byteCount < 2 << 20)
    }

    @Test("a small record costs tens of bytes, not the hundreds a DNSRecord value does")
    func compact() throws {
        var store = RecordStore()
        for index in 0..<10_000 {
            let owner = Self.name("t\(String(index, radix: 16)).flood.bench.internal.")
            try store.append(
                DNSRecord(name: owner, type: .a, ttl: 60, data: .a(IPAddress(bytes: [10, 0, UInt8(index >> 8), UInt8(index & 255)])!)))
        }
        let perRecord = Double(store.byteCount) / Double(store.count)
        #expect(perRecord < 48, "\(perRecord) bytes a record")
        #expect(store[9_999].data == .a(IPAddress("10.0.39.15")!))
    }

    @Test("removeAll(after:) keeps a prefix; append(contentsOf:) keeps order and the bounds")
    func prefixAndConcatenation() throws {
        var store = try RecordStore(Self.samples)
        store.removeAll(after: 4)
        #expect(Array(store) == Array(Self.samples.prefix(4)))
        var joined = try RecordStore(Self.samples.suffix(3))
        try joined.append(contentsOf: store)
        #expect(Array(joined) == Array(Self.samples.suffix(3)) + Array(Self.samples.prefix(4)))
        var bounded = RecordStore(bounds: .init(records: 5, bytes: 1 << 20))
        #expect(throws: RecordStore.Full.self) { try bounded.append(contentsOf: joined) }
        #expect(bounded.isEmpty)
    }

    @Test("the owner index finds every name's records in order, ignoring case, as a dictionary does (random names)")
    func ownerIndex() throws {
        var random = SeededRandom()
        let labels = (0..<300).map { _ in
            String((0..<Int.random(in: 1...6, using: &random)).map { _ in "aBcD-9".randomElement(using: &random)! })
        }
        var records: [DNSRecord] = []
        for index in 0..<3_000 {
            let owner = Self.name("\(labels.randomElement(using: &random)!).zone.example.")
            records.append(DNSRecord(name: owner, type: index % 3 == 0 ? .txt : .a, ttl: UInt32(index), data: .other))
        }
        let store = try RecordStore(records)
        let index = OwnerIndex(store)
        let expected = Dictionary(grouping: records.indices) { records[$0].name }
        for (name, positions) in expected {
            let upper = DNSName(trusted: name.labels.map { $0.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 } })
            #expect(index.positions(of: upper, in: store) == positions, "\(name): \(random.seedNote)")
        }
        #expect(index.positions(of: Self.name("missing.zone.example."), in: store).isEmpty)
        #expect(OwnerIndex(RecordStore()).positions(of: Self.name("a."), in: RecordStore()).isEmpty)
    }

    @Test("a run of records at one deep name (115 labels) hashes it once, whatever the run's length; case and order still count")
    func deepNameRuns() throws {
        let deep = Self.name(String(repeating: "a.", count: 115) + "zone.example.")
        let upper = Self.name(String(repeating: "A.", count: 115) + "zone.example.")
        let other = Self.name("other.zone.example.")
        for count in [1_000, 10_000] {
            var records = (0..<count).map { _ in DNSRecord(name: deep, type: .a, ttl: 60, data: .a(IPAddress("10.0.0.1")!)) }
            records.append(DNSRecord(name: other, type: .txt, ttl: 60, data: .other))
            records.append(DNSRecord(name: upper, type: .a, ttl: 60, data: .a(IPAddress("10.0.0.2")!)))
            let store = try RecordStore(records)
            let index = OwnerIndex(store)
            #expect(index.hashedOwners == 3, "\(count) records: \(index.hashedOwners) names hashed")
            #expect(index.positions(of: deep, in: store) == Array(0..<count) + [count + 1])
            #expect(index.positions(of: other, in: store) == [count])
        }
    }

    @Test("a message's answers go into a store as ldns reads them, the same records decode gives")
    func decodeIntoStore() throws {
        var builder = MessageBuilder(id: 7)
        builder.question("openclaw.internal.", 252)
        builder.record(
            section: 1, "openclaw.internal.", 6,
            rdata: MessageBuilder.name("ns1.openclaw.internal.") + MessageBuilder.name("h.openclaw.internal.")
                + Array(repeating: 1, count: 20))
        builder.record(
            section: 1, "_openclaw-gw._tcp.openclaw.internal.", 12, rdata: MessageBuilder.name("A._openclaw-gw._tcp.openclaw.internal."))
        builder.record(
            section: 1, "A._openclaw-gw._tcp.openclaw.internal.", 33, rdata: MessageBuilder.srv(0, 0, 18789, "gw.openclaw.internal."))
        builder.record(section: 1, "A._openclaw-gw._tcp.openclaw.internal.", 16, rdata: [4] + Array("a=b1".utf8))
        builder.record(section: 1, "gw.openclaw.internal.", 1, rdata: [100, 64, 0, 1])
        builder.record(section: 1, "gw.openclaw.internal.", 65_280, rdata: [1, 2, 3])
        let whole = try DNSWireCodec.decode(builder.bytes)
        var store = RecordStore()
        let header = try DNSWireCodec.decode(builder.bytes, appendingAnswersTo: &store)
        #expect(header.id == 7 && header.answers.isEmpty && header.question?.type == .axfr)
        #expect(Array(store) == whole.answers && store.count == 6)
        var tight = RecordStore(bounds: .init(records: 4, bytes: 1 << 20))
        #expect(throws: DNSWireCodec.StoreFailure.self) { try DNSWireCodec.decode(builder.bytes, appendingAnswersTo: &tight) }
        #expect(throws: DNSWireCodec.StoreFailure.self) { try DNSWireCodec.decode([1, 2, 3], appendingAnswersTo: &store) }
    }
}
