/// The one data type that flows up from every backend.
public enum DiscoveryEvent: Sendable, Equatable {
    case added(GatewayBeacon)
    case updated(GatewayBeacon)
    case removed(GatewayBeacon)
    case error(DiscoveryIssue)
    /// Everything that can be known now has been reported (more may come in watch mode).
    case allForNow
}

/// A problem a backend ran into, with its cause and a fix a user can act on.
public struct DiscoveryIssue: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Where the problem arose: a discovery path, or the configuration.
    public enum Source: String, Sendable, Codable {
        case mdns, unicast, manual, config
    }

    public enum Kind: String, Sendable, Codable {
        /// No D-Bus system bus to talk to Avahi over.
        case busMissing
        /// D-Bus is there, avahi-daemon is not.
        case daemonMissing
        /// avahi-daemon or D-Bus went away while browsing.
        case daemonLost
        /// Avahi refused or failed a browse.
        case browseFailed
        /// One instance could not be resolved (SRV/TXT/address).
        case resolveFailed
        /// A DNS server answered with an error or not at all.
        case dnsError
        /// A name could not be turned into addresses.
        case lookupFailed
        /// The OpenClaw configuration could not be read.
        case config
        /// A wide-area domain answers only at Tailscale's resolver, not the system's.
        case splitDNS
        /// SERVFAIL to the SRV or TXT of an instance whose name has bytes such as `(`:
        /// PowerDNS without `8bit-dns=yes` (PowerDNSNames).
        case eightBitNames

        /// The id doctor gives the same cause (its DiagnosisID), so that a script reading
        /// browse's `splitDNS` finds doctor's `split-dns` (docs/schemas/README.md); nil where
        /// doctor names none.
        public var diagnosis: String? {
            switch self {
            case .busMissing, .daemonMissing: "no-mdns"
            case .splitDNS: "split-dns"
            case .lookupFailed: "name-unresolved"
            case .daemonLost, .browseFailed, .resolveFailed, .dnsError, .config, .eightBitNames: nil
            }
        }
    }

    public var source: Source
    public var kind: Kind
    public var message: String
    public var fix: String?
    /// The wide-area domain it concerns, for unicast issues.
    public var domain: String?

    public init(source: Source, kind: Kind, message: String, fix: String? = nil, domain: String? = nil) {
        self.source = source
        self.kind = kind
        self.message = message
        self.fix = fix
        self.domain = domain
    }

    public var description: String { fix.map { "\(message) (fix: \($0))" } ?? message }

    private enum CodingKeys: String, CodingKey { case source, kind, message, fix, domain }
    /// What is written: the decoded fields, and doctor's id for the kind (derived, never read).
    private enum EncodingKeys: String, CodingKey { case source, kind, message, fix, domain, diagnosis }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EncodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(kind, forKey: .kind)
        try container.encode(message, forKey: .message)
        try container.encode(fix, forKey: .fix)
        try container.encodeIfPresent(domain, forKey: .domain)
        try container.encodeIfPresent(kind.diagnosis, forKey: .diagnosis)
    }
}
