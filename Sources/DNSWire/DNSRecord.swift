import DNSSD

/// Record types clawnet reads or writes.
package struct RRType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    package static let a = RRType(rawValue: 1)
    package static let ns = RRType(rawValue: 2)
    package static let cname = RRType(rawValue: 5)
    package static let soa = RRType(rawValue: 6)
    package static let ptr = RRType(rawValue: 12)
    package static let txt = RRType(rawValue: 16)
    package static let aaaa = RRType(rawValue: 28)
    package static let srv = RRType(rawValue: 33)
    package static let opt = RRType(rawValue: 41)
    package static let tsig = RRType(rawValue: 250)
    package static let ixfr = RRType(rawValue: 251)
    package static let axfr = RRType(rawValue: 252)

    private static let names: [UInt16: String] = [
        1: "A", 2: "NS", 5: "CNAME", 6: "SOA", 12: "PTR", 16: "TXT", 28: "AAAA", 33: "SRV", 41: "OPT", 250: "TSIG", 251: "IXFR",
        252: "AXFR",
    ]

    package var description: String { Self.names[rawValue] ?? "TYPE\(rawValue)" }
}

/// One resource record with the RDATA clawnet understands decoded.
public struct DNSRecord: Hashable, Sendable, CustomStringConvertible {
    package enum Data: Hashable, Sendable {
        case a(IPAddress)
        case aaaa(IPAddress)
        case ptr(DNSName)
        case cname(DNSName)
        case ns(DNSName)
        case srv(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)
        case txt(TXTRecord)
        case soa(mname: DNSName, rname: DNSName, serial: UInt32, refresh: UInt32, retry: UInt32, expire: UInt32, minimum: UInt32)
        /// A type clawnet does not read, or RDATA that did not decode.
        case other
    }

    package let name: DNSName
    package let type: RRType
    package let ttl: UInt32
    package let data: Data

    package init(name: DNSName, type: RRType, ttl: UInt32, data: Data) {
        self.name = name
        self.type = type
        self.ttl = ttl
        self.data = data
    }

    public var description: String { "\(name) \(ttl) \(type) \(data)" }
}

/// Response codes clawnet tells apart.
package struct RCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let noError = RCode(rawValue: 0)
    package static let formErr = RCode(rawValue: 1)
    package static let servFail = RCode(rawValue: 2)
    package static let nxDomain = RCode(rawValue: 3)
    package static let notImp = RCode(rawValue: 4)
    package static let refused = RCode(rawValue: 5)
    // RFC 2136 §2.2: the codes of dynamic update.
    package static let yxDomain = RCode(rawValue: 6)
    package static let yxRRSet = RCode(rawValue: 7)
    package static let nxRRSet = RCode(rawValue: 8)
    package static let notAuth = RCode(rawValue: 9)
    package static let notZone = RCode(rawValue: 10)

    package var description: String {
        ["NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED", "YXDOMAIN", "YXRRSET", "NXRRSET", "NOTAUTH", "NOTZONE"]
            .dropFirst(Int(rawValue)).first ?? "RCODE\(rawValue)"
    }
}

/// A decoded DNS message.
public struct DNSMessage: Sendable {
    package let id: UInt16
    package let rcode: RCode
    package let truncated: Bool
    package let authoritative: Bool
    package let isResponse: Bool
    package let question: (name: DNSName, type: RRType)?
    public let answers: [DNSRecord]
    public let authority: [DNSRecord]
    public let additional: [DNSRecord]

    package init(
        id: UInt16, rcode: RCode, truncated: Bool, authoritative: Bool, isResponse: Bool,
        question: (name: DNSName, type: RRType)?, answers: [DNSRecord], authority: [DNSRecord], additional: [DNSRecord]
    ) {
        self.id = id
        self.rcode = rcode
        self.truncated = truncated
        self.authoritative = authoritative
        self.isResponse = isResponse
        self.question = question
        self.answers = answers
        self.authority = authority
        self.additional = additional
    }
}
