import DNSSD

/// Record types clawnet reads or writes.
public struct RRType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let a = RRType(rawValue: 1)
    public static let ns = RRType(rawValue: 2)
    public static let cname = RRType(rawValue: 5)
    public static let soa = RRType(rawValue: 6)
    public static let ptr = RRType(rawValue: 12)
    public static let txt = RRType(rawValue: 16)
    public static let aaaa = RRType(rawValue: 28)
    public static let srv = RRType(rawValue: 33)
    public static let opt = RRType(rawValue: 41)
    public static let tsig = RRType(rawValue: 250)
    public static let ixfr = RRType(rawValue: 251)
    public static let axfr = RRType(rawValue: 252)

    private static let names: [UInt16: String] = [
        1: "A", 2: "NS", 5: "CNAME", 6: "SOA", 12: "PTR", 16: "TXT", 28: "AAAA", 33: "SRV", 41: "OPT", 250: "TSIG", 251: "IXFR",
        252: "AXFR",
    ]

    public var description: String { Self.names[rawValue] ?? "TYPE\(rawValue)" }
}

/// One resource record with the RDATA clawnet understands decoded.
public struct DNSRecord: Hashable, Sendable, CustomStringConvertible {
    public enum Data: Hashable, Sendable {
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

    public let name: DNSName
    public let type: RRType
    public let ttl: UInt32
    public let data: Data

    public init(name: DNSName, type: RRType, ttl: UInt32, data: Data) {
        self.name = name
        self.type = type
        self.ttl = ttl
        self.data = data
    }

    public var description: String { "\(name) \(ttl) \(type) \(data)" }
}

/// Response codes clawnet tells apart.
public struct RCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let noError = RCode(rawValue: 0)
    public static let formErr = RCode(rawValue: 1)
    public static let servFail = RCode(rawValue: 2)
    public static let nxDomain = RCode(rawValue: 3)
    public static let notImp = RCode(rawValue: 4)
    public static let refused = RCode(rawValue: 5)
    // RFC 2136 §2.2: the codes of dynamic update.
    public static let yxDomain = RCode(rawValue: 6)
    public static let yxRRSet = RCode(rawValue: 7)
    public static let nxRRSet = RCode(rawValue: 8)
    public static let notAuth = RCode(rawValue: 9)
    public static let notZone = RCode(rawValue: 10)

    public var description: String {
        ["NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED", "YXDOMAIN", "YXRRSET", "NXRRSET", "NOTAUTH", "NOTZONE"]
            .dropFirst(Int(rawValue)).first ?? "RCODE\(rawValue)"
    }
}

/// A decoded DNS message.
public struct DNSMessage: Sendable {
    public let id: UInt16
    public let rcode: RCode
    public let truncated: Bool
    public let authoritative: Bool
    public let isResponse: Bool
    public let question: (name: DNSName, type: RRType)?
    public let answers: [DNSRecord]
    public let authority: [DNSRecord]
    public let additional: [DNSRecord]

    public init(
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
