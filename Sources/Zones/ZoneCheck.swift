import DNSClient
import DNSSD
import DNSWire

/// `zone check`: a zone file linted the way DNS-SD clients use it, and, with a server,
/// compared with what that server serves.
public enum ZoneCheck {
    public struct Result: Sendable {
        public let file: String
        /// The zone's apex: --domain, else the owner of its SOA; nil when neither is known.
        public let apex: DNSName?
        public let status: ZoneFinding.Severity
        /// Failures first, then warnings, then passes; within each, by line.
        public let findings: [ZoneFinding]
    }

    public static func run(path: String, domain requested: DomainName?, server: DNSServer?, today: SerialPolicy.Day) async -> Result {
        // A fragment names its zone on its first line (ZoneWriter.fragment).
        let fragmentDomain = ZoneWriter.fragmentDomain(atPath: path)
        let domain = requested ?? fragmentDomain
        let origin = domain.flatMap { try? DNSName(instance: nil, type: nil, domain: $0) }
        let zone = ZoneFile.read(path: path, origin: origin, defaultTTL: UInt32(ZoneWriter.ttl))
        var findings = ZoneLinter.check(zone, domain: domain, today: today, fragment: fragmentDomain != nil)
        let apex = origin ?? zone.records.first { $0.type == .soa }?.name
        if let server, let apex {
            let client = DNSClient()
            findings += await LiveZoneComparison.compare(zone, apex: apex, server: server, client: client)
            await client.shutdown()
        }
        findings.sort { $0.severity != $1.severity ? $0.severity > $1.severity : ($0.line ?? 0) < ($1.line ?? 0) }
        return Result(file: path, apex: apex, status: findings.map(\.severity).max() ?? .pass, findings: findings)
    }
}
