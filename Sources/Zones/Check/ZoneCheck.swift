import DNSClient
import DNSSD
import DNSUpdate
import DNSWire
import Host

/// `zone check`: a zone file linted the way DNS-SD clients use it, and, with a server,
/// compared with what that server serves.
package enum ZoneCheck {
    /// What the served checks get when comparing the file took the whole --timeout: enough
    /// for a server on this network to answer, little enough to stay near the bound.
    static let leastServerTimeout = Duration.milliseconds(200)

    package struct Result: Sendable {
        /// The zone file, when one was checked.
        package let file: String?
        /// The servers asked, as `address#port`.
        package let servers: [String]
        /// The zone's apex: --domain, else the owner of its SOA; nil when neither is known.
        package let apex: DNSName?
        package let status: Finding.Severity
        /// Failures first, then warnings, then passes; within each, by line.
        package let findings: [Finding]
    }

    /// What to check: a file, the servers that serve the zone, or both.
    package struct Request: Sendable {
        /// The zone file; `-` with `text` for standard input.
        package var path: String?
        /// The zone's bytes when they did not come from a file.
        package var text: [UInt8]?
        package var domain: DomainName?
        package var servers: [DNSServer] = []
        /// Read the zone by AXFR and lint it as served.
        package var transfer = false
        package var key: TSIGKey?
        /// Bound for all the servers' answers (each query, and the checks together).
        package var timeout: Duration = .seconds(5)

        package init(path: String?, domain: DomainName?) {
            self.path = path
            self.domain = domain
        }
    }

    /// Fails only when the file cannot be read: it must be a regular file of at most
    /// `FileLimit.zone` bytes, or a pipe (a directory or /dev/zero is refused at once).
    package static func run(_ request: Request, today: SerialPolicy.Day) async throws(RegularFile.Failure) -> Result {
        // One bound for all that is asked of the servers: the file's comparison, then the rest.
        let deadline = ContinuousClock.now + request.timeout
        var bytes = request.text
        if bytes == nil, let path = request.path { bytes = try RegularFile.readInput(path, limit: FileLimit.zone).bytes }
        // A fragment (`doctor --emit-zone`) names its zone on its first line (ZoneWriter.fragment).
        let fragmentDomain = bytes.flatMap { ZoneWriter.fragmentDomain(String(decoding: $0.prefix(512), as: UTF8.self)) }
        let domain = request.domain ?? fragmentDomain
        let origin = domain.flatMap { try? DNSName(instance: nil, type: nil, domain: $0) }
        var findings: [Finding] = []
        var apex = origin
        // A server that did not answer the file's comparison is one failure: not asked again.
        var servers = request.servers
        if let bytes {
            let zone = ZoneFile.read(bytes: bytes, origin: origin, defaultTTL: UInt32(ZoneWriter.ttl))
            findings += ZoneLinter.check(zone, domain: domain, today: today, fragment: fragmentDomain != nil)
            apex = origin ?? zone.records.first { $0.type == .soa }?.name
            if let apex, !request.servers.isEmpty {
                let client = DNSClient(options: .init(within: request.timeout))
                for server in request.servers {
                    let comparison = await LiveZoneComparison.compare(zone, apex: apex, server: server, client: client)
                    findings += comparison.findings
                    if !comparison.answered { servers.removeAll { $0 == server } }
                }
                await client.shutdown()
            }
        }
        if let apex, !servers.isEmpty {
            findings += await ServedZoneChecks.run(
                servers: servers, zone: apex, key: request.key, transfer: request.transfer,
                timeout: max(deadline - .now, Self.leastServerTimeout), deadline: deadline, today: today)
        }
        findings.sort { $0.severity != $1.severity ? $0.severity > $1.severity : ($0.line ?? 0) < ($1.line ?? 0) }
        return Result(
            file: request.path, servers: request.servers.map(\.description), apex: apex, status: findings.map(\.severity).max() ?? .pass,
            findings: findings)
    }
}
