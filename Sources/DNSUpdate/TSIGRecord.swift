import DNSSD
import DNSWire

/// TSIG's own error codes (RFC 8945 §5.2), carried in the TSIG record of an answer.
package struct TSIGError: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    package static let none = TSIGError(rawValue: 0)
    package static let badSig = TSIGError(rawValue: 16)
    package static let badKey = TSIGError(rawValue: 17)
    package static let badTime = TSIGError(rawValue: 18)
    package static let badTrunc = TSIGError(rawValue: 22)

    package var description: String {
        [
            0: "NOERROR", 16: "BADSIG", 17: "BADKEY", 18: "BADTIME", 19: "BADMODE", 20: "BADNAME", 21: "BADALG", 22: "BADTRUNC",
            23: "BADCOOKIE",
        ][rawValue]
            ?? "TSIG error \(rawValue)"
    }
}

/// The TSIG record at the end of a message (RFC 8945 §4.2), and where it starts.
package struct TSIGRecord: Sendable {
    package let keyName: DNSName
    package let algorithm: DNSName
    /// Seconds since the epoch (48 bits on the wire).
    package let timeSigned: UInt64
    package let fudge: UInt16
    package let mac: [UInt8]
    package let originalID: UInt16
    package let error: TSIGError
    package let otherData: [UInt8]

    /// For BADTIME the server puts its own clock in Other Data (RFC 8945 §5.2.3).
    package var serverTime: UInt64? {
        otherData.count == 6 ? otherData.reduce(0) { $0 << 8 | UInt64($1) } : nil
    }

    /// The TSIG record of `wire` and the offset where it starts; nil when the message does not
    /// end with one. Every length is checked: a hostile message yields nil, never a trap.
    package static func find(in wire: [UInt8]) -> (record: TSIGRecord, offset: Int)? {
        var reader = WireReader(wire)
        guard let counts = reader.header(), counts.additional > 0 else { return nil }
        for _ in 0..<counts.questions {
            guard reader.skipName(), reader.skip(4) else { return nil }
        }
        for _ in 0..<(counts.answers + counts.authority + counts.additional - 1) {
            guard reader.skipName(), reader.skip(8), let length = reader.u16(), reader.skip(Int(length)) else { return nil }
        }
        let offset = reader.offset
        guard let keyName = reader.name(), reader.u16() == RRType.tsig.rawValue, reader.u16() == UpdateRecord.Class.any.rawValue,
            reader.skip(4), let length = reader.u16(), reader.offset + Int(length) == wire.count,
            let algorithm = reader.name(), let time = reader.u48(), let fudge = reader.u16(),
            let macSize = reader.u16(), let mac = reader.bytes(Int(macSize)), let originalID = reader.u16(),
            let error = reader.u16(), let otherLength = reader.u16(), let other = reader.bytes(Int(otherLength)),
            reader.offset == wire.count
        else { return nil }
        let record = TSIGRecord(
            keyName: keyName, algorithm: algorithm, timeSigned: time, fudge: fudge, mac: mac,
            originalID: originalID, error: TSIGError(rawValue: error), otherData: other)
        return (record, offset)
    }
}

/// Reads a DNS message field by field; every read checks the bounds.
struct WireReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func header() -> (questions: Int, answers: Int, authority: Int, additional: Int)? {
        guard skip(4), let questions = u16(), let answers = u16(), let authority = u16(), let additional = u16() else { return nil }
        return (Int(questions), Int(answers), Int(authority), Int(additional))
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, offset + count <= bytes.count else { return false }
        offset += count
        return true
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, offset + count <= bytes.count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func u16() -> UInt16? {
        bytes(2).map { UInt16($0[0]) << 8 | UInt16($0[1]) }
    }

    mutating func u48() -> UInt64? {
        bytes(6).map { $0.reduce(0) { $0 << 8 | UInt64($1) } }
    }

    /// Steps over a name: labels up to the root, or up to a compression pointer.
    mutating func skipName() -> Bool {
        while offset < bytes.count {
            let length = bytes[offset]
            if length & 0xC0 == 0xC0 { return skip(2) }
            guard length & 0xC0 == 0, skip(1 + Int(length)) else { return false }
            if length == 0 { return true }
        }
        return false
    }

    /// A name, following compression pointers (at most as many as there are bytes).
    mutating func name() -> DNSName? {
        var labels: [[UInt8]] = []
        var position = offset
        var jumped = false
        var hops = 0
        while position < bytes.count {
            let length = Int(bytes[position])
            if length & 0xC0 == 0xC0 {
                guard position + 1 < bytes.count, hops < bytes.count else { return nil }
                if !jumped { offset = position + 2 }
                jumped = true
                hops += 1
                position = (length & 0x3F) << 8 | Int(bytes[position + 1])
                continue
            }
            guard length & 0xC0 == 0, position + 1 + length <= bytes.count else { return nil }
            if length == 0 {
                if !jumped { offset = position + 1 }
                return try? DNSName(labels: labels)
            }
            labels.append(Array(bytes[(position + 1)...(position + length)]))
            position += 1 + length
        }
        return nil
    }
}
