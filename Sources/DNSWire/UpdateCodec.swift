import CLDNS
import DNSSD

/// One record of an RFC 2136 UPDATE's prerequisite or update section: the class says what it
/// means (IN: this record; ANY: the whole RRset or name; NONE: absent, or delete this record),
/// and the RDATA is empty where RFC 2136 §2.4 and §2.5 want it empty.
package struct UpdateRecord: Hashable, Sendable {
    package enum Class: UInt16, Sendable {
        case inet = 1
        case none = 254
        case any = 255
    }

    package let name: DNSName
    package let type: RRType
    package let rrClass: Class
    package let ttl: UInt32
    package let data: DNSRecord.Data?

    package init(name: DNSName, type: RRType, rrClass: Class, ttl: UInt32, data: DNSRecord.Data?) {
        self.name = name
        self.type = type
        self.rrClass = rrClass
        self.ttl = ttl
        self.data = data
    }
}

extension DNSWireCodec {
    /// An UPDATE message (opcode 5) for `zone`, without TSIG: the zone section, then the
    /// prerequisites and the updates in the order given. ldns compresses the names.
    package static func update(zone: DNSName, prerequisites: [UpdateRecord], updates: [UpdateRecord], id: UInt16) throws(DNSWireError)
        -> [UInt8]
    {
        guard let packet = ldns_pkt_new() else { throw DNSWireError("cannot allocate an UPDATE message") }
        defer { ldns_pkt_free(packet) }
        ldns_pkt_set_id(packet, id)
        ldns_pkt_set_opcode(packet, LDNS_PACKET_UPDATE)
        let zoneRecord = try ldnsRecord(UpdateRecord(name: zone, type: .soa, rrClass: .inet, ttl: 0, data: nil), question: true)
        // RFC 2136 §2: zone, prerequisite and update sections are question, answer and
        // authority on the wire (ldns's LDNS_SECTION_ZONE etc. are macros Swift cannot see).
        ldns_pkt_push_rr(packet, LDNS_SECTION_QUESTION, zoneRecord)
        for record in prerequisites { ldns_pkt_push_rr(packet, LDNS_SECTION_ANSWER, try ldnsRecord(record)) }
        for record in updates { ldns_pkt_push_rr(packet, LDNS_SECTION_AUTHORITY, try ldnsRecord(record)) }
        return try wire(packet, what: "the UPDATE for \(zone)")
    }

    /// The length `update` would have if no name were compressed, which the message ldns
    /// writes never exceeds (a pointer replaces at least one label and the root); nil when
    /// a record's RDATA length is not known without encoding it. A plan that fits in one
    /// message by this bound needs no trial encoding.
    package static func updateLengthBound(zone: DNSName, prerequisites: [UpdateRecord], updates: [UpdateRecord]) -> Int? {
        // Header, then the zone section's one question (name, type, class).
        var length = 12 + zone.wireLength + 4
        for record in [prerequisites, updates].joined() {
            guard let rdata = rdataLength(record.data) else { return nil }
            // Owner, type, class, TTL, RDLENGTH, RDATA.
            length += record.name.wireLength + 10 + rdata
        }
        return length
    }

    private static func rdataLength(_ data: DNSRecord.Data?) -> Int? {
        switch data {
        case nil: 0
        case .a(let address)?, .aaaa(let address)?: address.bytes.count
        case .ptr(let target)?, .cname(let target)?, .ns(let target)?: target.wireLength
        case .srv(_, _, _, let target)?: 6 + target.wireLength
        case .txt(let txt)?: txt.strings.isEmpty ? 1 : txt.strings.reduce(0) { $0 + 1 + $1.count }
        case .soa?, .other?: nil
        }
    }

    /// A zone transfer question (AXFR) for `zone`: no recursion, no EDNS, as dig and kdig ask.
    package static func transferQuery(zone: DNSName, id: UInt16) throws(DNSWireError) -> [UInt8] {
        guard let owner = ldnsName(zone), let packet = ldns_pkt_query_new(owner, LDNS_RR_TYPE_AXFR, LDNS_RR_CLASS_IN, 0) else {
            throw DNSWireError("cannot build a zone transfer question for \(zone)")
        }
        defer { ldns_pkt_free(packet) }
        ldns_pkt_set_id(packet, id)
        return try wire(packet, what: "the zone transfer question for \(zone)")
    }

    private static func wire(_ packet: UnsafeMutablePointer<ldns_pkt>, what: String) throws(DNSWireError) -> [UInt8] {
        var wire: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard ldns_pkt2wire(&wire, packet, &size) == LDNS_STATUS_OK, let wire else {
            throw DNSWireError("cannot encode \(what)")
        }
        defer { free(wire) }
        return Array(UnsafeBufferPointer(start: wire, count: size))
    }

    private static func ldnsName(_ name: DNSName) -> UnsafeMutablePointer<ldns_rdf>? {
        name.wire.withUnsafeBytes { ldns_dname_new_frm_data(UInt16($0.count), $0.baseAddress) }
    }

    /// An ldns record the packet will own. RDATA is built from its fields, never parsed from
    /// text, so any label survives (a 63-byte escaped name is longer than ldns reads as text).
    private static func ldnsRecord(_ record: UpdateRecord, question: Bool = false) throws(DNSWireError) -> UnsafeMutablePointer<ldns_rr> {
        guard let rr = ldns_rr_new(), let owner = ldnsName(record.name) else {
            throw DNSWireError("cannot encode the name \(record.name)")
        }
        ldns_rr_set_owner(rr, owner)
        ldns_rr_set_question(rr, question)
        ldns_rr_set_type(rr, ldns_rr_type(UInt32(record.type.rawValue)))
        ldns_rr_set_class(rr, ldns_rr_class(UInt32(record.rrClass.rawValue)))
        ldns_rr_set_ttl(rr, record.ttl)
        for field in try rdataFields(record) {
            guard let field else {
                ldns_rr_free(rr)
                throw DNSWireError("cannot encode the \(record.type) record of \(record.name)")
            }
            ldns_rr_push_rdf(rr, field)
        }
        return rr
    }

    private static func rdataFields(_ record: UpdateRecord) throws(DNSWireError) -> [UnsafeMutablePointer<ldns_rdf>?] {
        func data(_ type: ldns_rdf_type, _ bytes: [UInt8]) -> UnsafeMutablePointer<ldns_rdf>? {
            bytes.withUnsafeBytes { ldns_rdf_new_frm_data(type, $0.count, $0.baseAddress) }
        }
        switch record.data {
        case nil: return []
        case .a(let address)?, .aaaa(let address)?:
            return [data(address.family == .v4 ? LDNS_RDF_TYPE_A : LDNS_RDF_TYPE_AAAA, address.bytes)]
        case .ptr(let target)?, .cname(let target)?, .ns(let target)?:
            return [ldnsName(target)]
        case .srv(let priority, let weight, let port, let target)?:
            return [priority, weight, port].map { ldns_native2rdf_int16(LDNS_RDF_TYPE_INT16, $0) } + [ldnsName(target)]
        case .txt(let txt)?:
            // Each character-string: a length byte, then its bytes (an empty TXT is one empty string).
            let strings = txt.strings.isEmpty ? [[]] : txt.strings
            return strings.map { data(LDNS_RDF_TYPE_STR, [UInt8($0.count)] + $0) }
        case .soa?, .other?:
            throw DNSWireError("clawnet does not write \(record.type) records")
        }
    }
}
