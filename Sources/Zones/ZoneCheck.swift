import DNSClient
import DNSSD
import DNSWire
import Host

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

    /// Fails only when the file cannot be read: it must be a regular file of at most
    /// `FileLimit.zone` bytes (a directory, /dev/zero or a FIFO is refused at once).
    public static func run(path: String, domain: DomainName?, server: DNSServer?, today: SerialPolicy.Day) async throws(RegularFile.Failure)
        -> Result
    {
        let origin = domain.flatMap { try? DNSName(instance: nil, type: nil, domain: $0) }
        let bytes = try RegularFile.read(path, limit: FileLimit.zone)
        let zone = ZoneFile.read(bytes: bytes, origin: origin, defaultTTL: UInt32(ZoneWriter.ttl))
        var findings = ZoneLinter.check(zone, domain: domain, today: today)
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
