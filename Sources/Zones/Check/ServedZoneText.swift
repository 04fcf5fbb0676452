import DNSSD
import DNSUpdate
import DNSWire

/// A wide-area zone as a server serves it, as text for `clawnet report`: the whole zone by
/// AXFR where the server allows it, else the Gateways' RRsets by queries (as `zone check
/// --server` reads it). Bounded in records, bytes and time; every name and string is in
/// presentation format, escaped, so nothing from the zone reaches the archive raw.
package enum ServedZoneText {
    /// Less than `zone check` holds: a report carries the zone to be read by a person.
    static let bounds = RecordStore.Bounds(records: 20_000, bytes: 4 << 20)

    /// The zone's text from the first of `servers` that answers within `timeout` (each), or
    /// why none did.
    package static func read(_ domain: DomainName, servers: [DNSServer], timeout: Duration) async -> Result<String, UpdateFailure> {
        let zone: DNSName
        let service: DNSName
        do {
            zone = try DNSName(instance: nil, type: nil, domain: domain)
            service = try DNSName(instance: nil, type: .gateway, domain: domain)
        } catch {
            return .failure(UpdateFailure(.notZone, "\(domain) is not a name a zone can have"))
        }
        var failures: [String] = []
        for server in servers {
            var registration = ServiceRegistration(zone: zone, service: service, server: server, key: nil, timeout: timeout)
            registration.bounds = bounds
            do throws(UpdateFailure) {
                return .success(text(try await registration.read(for: [], transfer: true)))
            } catch {
                failures.append("\(server): \(error.message)")
            }
        }
        let tried = failures.isEmpty ? "no DNS server to ask" : failures.joined(separator: "; ")
        return .failure(UpdateFailure(.transport, tried))
    }

    /// A comment saying where the records came from, then one `NAME TTL IN TYPE RDATA` line each.
    static func text(_ served: ServedRecords) -> String {
        let how: String
        switch served.source {
        case .transfer: how = "by AXFR"
        case .queries(let refused): how = "by queries for its Gateways' RRsets (AXFR \(refused.map { "refused: \($0)" } ?? "not asked"))"
        case .queriesPastBound(let why): how = "by queries for its Gateways' RRsets (the transfer passed a bound: \(why))"
        case .ledger: how = "from the ledger of clawnet's last push"
        case .assumedEmpty: how = "not at all (nothing known)"
        }
        var lines = ["; \(served.zone) as \(served.server) serves it, read \(how); serial \(served.serial.map(String.init) ?? "unknown")"]
        var undecoded = 0
        for record in served.records {
            guard let line = LedgerFile.line(record) else {
                undecoded += 1
                continue
            }
            lines.append(line)
        }
        if undecoded > 0 { lines.append("; \(undecoded) records of types clawnet does not decode are left out") }
        return lines.joined(separator: "\n") + "\n"
    }
}
