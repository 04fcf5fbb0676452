import CLDNS
import DNSSD

/// Why bytes were not a usable DNS message.
public struct DNSWireError: Error, Hashable, Sendable, CustomStringConvertible {
    package let message: String
    package init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// DNS messages to and from wire format with ldns. Only this file (and the zone reader)
/// touch ldns; everything above works with DNSMessage and DNSRecord values, or with a
/// RecordStore where there can be many records (a zone transfer).
public enum DNSWireCodec {
    /// A query for `name`/`type` with recursion desired and an EDNS0 buffer size, so
    /// answers up to `ednsSize` bytes come over UDP without truncation.
    package static func query(name: DNSName, type: RRType, id: UInt16, ednsSize: UInt16 = 1232) throws(DNSWireError) -> [UInt8] {
        let wireName = name.wire
        guard let owner = wireName.withUnsafeBytes({ ldns_dname_new_frm_data(UInt16($0.count), $0.baseAddress) }) else {
            throw DNSWireError("cannot encode the name \(name)")
        }
        guard let packet = ldns_pkt_query_new(owner, ldns_rr_type(UInt32(type.rawValue)), LDNS_RR_CLASS_IN, UInt16(LDNS_RD)) else {
            throw DNSWireError("cannot build a query for \(name)")
        }
        defer { ldns_pkt_free(packet) }
        ldns_pkt_set_id(packet, id)
        ldns_pkt_set_edns_udp_size(packet, ednsSize)
        var wire: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard ldns_pkt2wire(&wire, packet, &size) == LDNS_STATUS_OK, let wire else {
            throw DNSWireError("cannot encode a query for \(name)")
        }
        defer { free(wire) }
        return Array(UnsafeBufferPointer(start: wire, count: size))
    }

    /// Decode a message. Hostile or broken input yields an error, never a trap.
    public static func decode(_ bytes: [UInt8]) throws(DNSWireError) -> DNSMessage {
        let packet = try parse(bytes)
        defer { ldns_pkt_free(packet) }
        return message(packet, answers: records(ldns_pkt_answer(packet)))
    }

    /// Why a message could not be read, in clawnet's words (never ldns's status text).
    static func wireProblem(_ status: ldns_status) -> String {
        switch status {
        case LDNS_STATUS_PACKET_OVERFLOW, LDNS_STATUS_WIRE_INCOMPLETE_HEADER, LDNS_STATUS_WIRE_INCOMPLETE_QUESTION,
            LDNS_STATUS_WIRE_INCOMPLETE_ANSWER, LDNS_STATUS_WIRE_INCOMPLETE_AUTHORITY, LDNS_STATUS_WIRE_INCOMPLETE_ADDITIONAL:
            "it ends before the records its header counts"
        case LDNS_STATUS_INVALID_POINTER: "a name's compression pointer points outside the message or forward"
        case LDNS_STATUS_LABEL_OVERFLOW, LDNS_STATUS_DOMAINNAME_OVERFLOW: "a name has a label over 63 bytes or is over 255 bytes"
        default: "its layout does not follow RFC 1035 (ldns status \(status.rawValue))"
        }
    }

    /// An ldns packet the caller frees.
    private static func parse(_ bytes: [UInt8]) throws(DNSWireError) -> UnsafeMutablePointer<ldns_pkt> {
        guard bytes.count >= 12 else { throw DNSWireError("a DNS message needs 12 header bytes, got \(bytes.count)") }
        var packet: UnsafeMutablePointer<ldns_pkt>?
        let status = bytes.withUnsafeBufferPointer { ldns_wire2pkt(&packet, $0.baseAddress, $0.count) }
        guard status == LDNS_STATUS_OK, let packet else {
            throw DNSWireError("malformed DNS message: \(wireProblem(status))")
        }
        return packet
    }

    /// Why a message whose answers go into a RecordStore was not read to its end.
    package enum StoreFailure: Error, Sendable {
        case malformed(DNSWireError)
        case full(RecordStore.Full)
    }

    /// Decodes a message as `decode` does, but appends its answers to `store` instead of
    /// returning them (its `answers` are empty): a zone transfer's many records never exist
    /// as DNSRecord values at once.
    package static func decode(_ bytes: [UInt8], appendingAnswersTo store: inout RecordStore) throws(StoreFailure) -> DNSMessage {
        let packet: UnsafeMutablePointer<ldns_pkt>
        do throws(DNSWireError) { packet = try parse(bytes) } catch { throw .malformed(error) }
        defer { ldns_pkt_free(packet) }
        if let answers = ldns_pkt_answer(packet) {
            for index in 0..<ldns_rr_list_rr_count(answers) {
                guard let rr = ldns_rr_list_rr(answers, index) else { continue }
                do throws(RecordStore.Full) { try append(rr, to: &store) } catch { throw .full(error) }
            }
        }
        return message(packet, answers: [])
    }

    private static func message(_ packet: UnsafeMutablePointer<ldns_pkt>, answers: [DNSRecord]) -> DNSMessage {
        DNSMessage(
            id: ldns_pkt_id(packet), rcode: RCode(rawValue: UInt8(truncatingIfNeeded: ldns_pkt_get_rcode(packet).rawValue)),
            truncated: ldns_pkt_tc(packet), authoritative: ldns_pkt_aa(packet), isResponse: ldns_pkt_qr(packet),
            question: records(ldns_pkt_question(packet)).first.map { (name: $0.name, type: $0.type) },
            answers: answers, authority: records(ldns_pkt_authority(packet)), additional: records(ldns_pkt_additional(packet))
        )
    }

    static func records(_ list: UnsafeMutablePointer<ldns_rr_list>?) -> [DNSRecord] {
        guard let list else { return [] }
        return (0..<ldns_rr_list_rr_count(list)).compactMap { index in
            ldns_rr_list_rr(list, index).flatMap(record)
        }
    }

    /// One ldns record as a DNSRecord; nil only when its owner name cannot be read.
    static func record(_ rr: UnsafeMutablePointer<ldns_rr>) -> DNSRecord? {
        guard let owner = name(ldns_rr_owner(rr)) else { return nil }
        let type = RRType(rawValue: UInt16(truncatingIfNeeded: ldns_rr_get_type(rr).rawValue))
        let fields = (0..<ldns_rr_rd_count(rr)).map { bytes(ldns_rr_rdf(rr, $0)) }
        return DNSRecord(name: owner, type: type, ttl: ldns_rr_ttl(rr), data: rdata(type, fields))
    }

    /// The record types whose RDATA `rdata` decodes; a RecordStore keeps no other RDATA.
    static let decodedTypes: Set<RRType> = [.a, .aaaa, .ptr, .cname, .ns, .srv, .txt, .soa]

    /// RDATA from the fields ldns splits it into (a RecordStore keeps the same fields).
    static func rdata(_ type: RRType, _ fields: [[UInt8]]) -> DNSRecord.Data {
        func dname(_ index: Int) -> DNSName? { index < fields.count ? wireName(fields[index]) : nil }
        func integer(_ index: Int) -> UInt32? {
            guard index < fields.count, [2, 4].contains(fields[index].count) else { return nil }
            return fields[index].reduce(0) { $0 << 8 | UInt32($1) }
        }
        switch type {
        case .a:
            return fields.first.flatMap { $0.count == 4 ? IPAddress(bytes: $0) : nil }.map(DNSRecord.Data.a) ?? .other
        case .aaaa:
            return fields.first.flatMap { $0.count == 16 ? IPAddress(bytes: $0) : nil }.map(DNSRecord.Data.aaaa) ?? .other
        case .ptr: return dname(0).map(DNSRecord.Data.ptr) ?? .other
        case .cname: return dname(0).map(DNSRecord.Data.cname) ?? .other
        case .ns: return dname(0).map(DNSRecord.Data.ns) ?? .other
        case .srv:
            guard let priority = integer(0), let weight = integer(1), let port = integer(2), let target = dname(3) else { return .other }
            return .srv(priority: UInt16(priority), weight: UInt16(weight), port: UInt16(port), target: target)
        case .txt:
            // Each field is a character-string: a length byte, then the bytes.
            let strings = fields.map { Array($0.dropFirst()) }
            return (try? TXTRecord(strings: strings)).map(DNSRecord.Data.txt) ?? .other
        case .soa:
            guard let mname = dname(0), let rname = dname(1), let serial = integer(2), let refresh = integer(3),
                let retry = integer(4), let expire = integer(5), let minimum = integer(6)
            else { return .other }
            return .soa(mname: mname, rname: rname, serial: serial, refresh: refresh, retry: retry, expire: expire, minimum: minimum)
        default:
            return .other
        }
    }

    private static func bytes(_ rdf: UnsafeMutablePointer<ldns_rdf>?) -> [UInt8] {
        guard let rdf, let data = ldns_rdf_data(rdf) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: ldns_rdf_size(rdf)))
    }

    static func name(_ rdf: UnsafeMutablePointer<ldns_rdf>?) -> DNSName? {
        wireName(bytes(rdf))
    }

    /// One ldns record appended to `store` as its fields, without making a DNSRecord; a record
    /// whose owner cannot be read is left out, as `record` leaves it out.
    static func append(_ rr: UnsafeMutablePointer<ldns_rr>, to store: inout RecordStore) throws(RecordStore.Full) {
        let owner = bytes(ldns_rr_owner(rr))
        guard wireName(owner) != nil else { return }
        let type = RRType(rawValue: UInt16(truncatingIfNeeded: ldns_rr_get_type(rr).rawValue))
        let fields = decodedTypes.contains(type) ? (0..<ldns_rr_rd_count(rr)).map { bytes(ldns_rr_rdf(rr, $0)) } : nil
        try store.append(owner: owner, type: type, ttl: ldns_rr_ttl(rr), fields: fields)
    }

    /// Uncompressed wire labels (ldns has already resolved compression), bounds-checked.
    static func wireName(_ bytes: [UInt8]) -> DNSName? {
        var labels: [[UInt8]] = []
        var index = 0
        while index < bytes.count {
            let length = Int(bytes[index])
            if length == 0 { return try? DNSName(labels: labels) }
            guard length <= 63, index + 1 + length <= bytes.count else { return nil }
            labels.append(Array(bytes[(index + 1)...(index + length)]))
            index += 1 + length
        }
        return nil
    }
}
