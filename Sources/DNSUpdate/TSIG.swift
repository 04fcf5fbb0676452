import DNSSD
import DNSWire

/// TSIG (RFC 8945) on clawnet's side of a conversation: sign a request, verify every answer
/// to it, including each message of a zone transfer.
///
/// Why not ldns's TSIG: the ldns of Debian 12 (1.8.3) signs only MD5, SHA-1, SHA-256 and
/// SHA-512 (its SHA-384 entry is misspelt, SHA-224 is missing), its verification answers a
/// bare yes or no (BADSIG, BADKEY and BADTIME cannot be told apart, nor a server whose clock
/// is off) and does not check the time; and a transfer of many messages is left to the
/// caller anyway. So the protocol is here, over the exact wire bytes, and the MACs are
/// swift-crypto's HMACs (SHA-224 through OpenSSL, see OpenSSLHMAC).
package struct TSIGSigner: Sendable {
    package let key: TSIGKey
    /// Seconds the two clocks may differ; BIND and Knot use 300.
    package var fudge: UInt16 = 300

    package init(key: TSIGKey) {
        self.key = key
    }

    /// The message with a TSIG record appended, and the MAC the answer's MAC depends on.
    package func sign(_ message: [UInt8], time: UInt64) throws(UpdateFailure) -> (wire: [UInt8], mac: [UInt8]) {
        let digest = message + TSIGDigest.variables(key: key, time: time, fudge: fudge, error: .none, other: [])
        guard let mac = key.algorithm.mac(key: key.secret.bytes, message: digest) else {
            throw UpdateFailure(
                .transport, "cannot compute the \(key.algorithm.shortName) signature for \(key) (OpenSSL failed; out of memory?)",
                fix: "try again; if it persists, make a key with another algorithm (`tsig-keygen -a hmac-sha256 NAME`)")
        }
        var rdata = TSIGDigest.canonical(key.algorithm.dnsName)
        rdata += TSIGDigest.u48(time) + TSIGDigest.u16(fudge) + TSIGDigest.u16(UInt16(mac.count)) + mac
        rdata += Array(message.prefix(2)) + TSIGDigest.u16(0) + TSIGDigest.u16(0)
        var wire = message
        let additional = UInt16(wire[10]) << 8 | UInt16(wire[11]) + 1
        wire[10] = UInt8(additional >> 8)
        wire[11] = UInt8(additional & 0xFF)
        wire += TSIGDigest.canonical(key.name) + TSIGDigest.u16(RRType.tsig.rawValue) + TSIGDigest.u16(UpdateRecord.Class.any.rawValue)
        wire += [0, 0, 0, 0] + TSIGDigest.u16(UInt16(rdata.count)) + rdata
        return (wire, mac)
    }
}

/// Why an answer's signature does not hold.
package enum TSIGFailure: Error, Hashable, Sendable {
    /// The MAC is wrong: the answer was changed on the way, or signed with another secret.
    case badMAC
    /// The answer is signed with another key or algorithm than the request.
    case otherKey(String)
    /// The answer was signed further from this machine's clock than its fudge allows.
    case clockSkew(seconds: Int64, fudge: UInt16)
    /// More than 99 messages of a transfer in a row without a signature (RFC 8945 §5.3.1).
    case tooManyUnsigned
    /// The transfer ended on a message without a signature.
    case lastUnsigned
}

/// Verifies the answers to one signed request: a single answer, or every message of a
/// transfer in order (each signed one covers the unsigned ones before it).
package struct TSIGVerifier: Sendable {
    package enum Outcome: Sendable, Equatable, CustomStringConvertible {
        case verified
        /// The server reports a TSIG error (BADSIG, BADKEY, BADTIME ...); such answers carry
        /// no MAC to check. BADTIME brings the server's clock.
        case serverError(TSIGError, serverTime: UInt64?)
        /// No TSIG record: allowed between signed messages of a transfer.
        case unsigned

        /// For --verbose: words, never a Swift value.
        package var description: String {
            switch self {
            case .verified: "verified"
            case .serverError(let error, let time?): "error \(error) (server time \(time))"
            case .serverError(let error, nil): "error \(error)"
            case .unsigned: "unsigned"
            }
        }
    }

    /// RFC 8945 §5.3.1: a client must accept up to 99 unsigned messages between signed ones.
    package static let maxUnsignedInARow = 99

    let key: TSIGKey
    private var priorMAC: [UInt8]
    private var first = true
    private var unsignedSince: [UInt8] = []
    private var unsignedCount = 0

    package init(key: TSIGKey, requestMAC: [UInt8]) {
        self.key = key
        self.priorMAC = requestMAC
    }

    /// True when the last message seen was signed and verified: a transfer may end there.
    package var endsSigned: Bool { unsignedCount == 0 && !first }

    package mutating func verify(_ wire: [UInt8], now: UInt64) throws(TSIGFailure) -> Outcome {
        guard let (record, offset) = TSIGRecord.find(in: wire) else {
            guard !first else { return .unsigned }
            unsignedCount += 1
            guard unsignedCount <= Self.maxUnsignedInARow else { throw .tooManyUnsigned }
            unsignedSince += wire
            return .unsigned
        }
        guard record.error == .none else { return .serverError(record.error, serverTime: record.serverTime) }
        guard record.keyName == key.name, record.algorithm == key.algorithm.dnsName else {
            throw .otherKey("signed with \(record.keyName) (\(record.algorithm)), asked with \(key)")
        }
        var message = Array(wire[..<offset])
        // The MAC covers the message as it was before the TSIG record was added.
        message[0] = UInt8(record.originalID >> 8)
        message[1] = UInt8(record.originalID & 0xFF)
        let additional = (UInt16(message[10]) << 8 | UInt16(message[11])) - 1
        message[10] = UInt8(additional >> 8)
        message[11] = UInt8(additional & 0xFF)
        var digest = TSIGDigest.u16(UInt16(priorMAC.count)) + priorMAC + unsignedSince + message
        if first {
            digest += TSIGDigest.variables(
                key: key, time: record.timeSigned, fudge: record.fudge, error: record.error, other: record.otherData)
        } else {
            digest += TSIGDigest.u48(record.timeSigned) + TSIGDigest.u16(record.fudge)
        }
        guard let expected = key.algorithm.mac(key: key.secret.bytes, message: digest),
            TSIGDigest.equalInConstantTime(expected, record.mac)
        else { throw .badMAC }
        let skew = Int64(bitPattern: record.timeSigned) - Int64(bitPattern: now)
        guard skew.magnitude <= UInt64(record.fudge) else { throw .clockSkew(seconds: skew, fudge: record.fudge) }
        priorMAC = record.mac
        first = false
        unsignedSince = []
        unsignedCount = 0
        return .verified
    }
}

/// The pieces of TSIG's MAC input (RFC 8945 §4.3.3).
enum TSIGDigest {
    static func variables(key: TSIGKey, time: UInt64, fudge: UInt16, error: TSIGError, other: [UInt8]) -> [UInt8] {
        canonical(key.name) + u16(UpdateRecord.Class.any.rawValue) + [0, 0, 0, 0] + canonical(key.algorithm.dnsName)
            + u48(time) + u16(fudge) + u16(error.rawValue) + u16(UInt16(other.count)) + other
    }

    /// Names in canonical form: lower-case, uncompressed.
    static func canonical(_ name: DNSName) -> [UInt8] {
        name.labels.flatMap { [UInt8($0.count)] + $0.map(DNSName.lower) } + [0]
    }

    static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    static func u48(_ value: UInt64) -> [UInt8] { (0..<6).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }

    static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count, !a.isEmpty else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
