/// The one data type that flows up from every backend.
package enum DiscoveryEvent: Sendable, Equatable {
    case added(GatewayBeacon)
    case updated(GatewayBeacon)
    case removed(GatewayBeacon)
    case error(DiscoveryIssue)
    /// Everything that can be known now has been reported (more may come in watch mode).
    case allForNow
}

/// A problem a backend ran into: where, what kind, and its code with the values a message and
/// a fix need (Output's `DiscoveryIssueText` words them; its JSON is `DiscoveryIssueJSON`).
package struct DiscoveryIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem arose: a discovery path, or the configuration.
    package enum Source: String, Sendable, Codable {
        case mdns, unicast, manual, config
    }

    package enum Kind: String, Sendable, Codable {
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
        package var diagnosis: String? {
            switch self {
            case .busMissing, .daemonMissing: "no-mdns"
            case .splitDNS: "split-dns"
            case .lookupFailed: "name-unresolved"
            case .daemonLost, .browseFailed, .resolveFailed, .dnsError, .config, .eightBitNames: nil
            }
        }
    }

    package var source: Source
    package var kind: Kind
    /// What happened, with its values; Output's `DiscoveryIssueText` says it in words.
    package var code: Code
    /// The wide-area domain it concerns, for unicast issues.
    package var domain: String?
    /// The path keeps trying (watch mode) and waits for what went away to come back.
    package var waitsForReturn = false

    package init(source: Source, kind: Kind, _ code: Code, domain: String? = nil) {
        self.source = source
        self.kind = kind
        self.code = code
        self.domain = domain
    }

    /// For logs and debugging only: a person reads `DiscoveryIssueText`.
    package var description: String { "DiscoveryIssue.\(code)" }
}
