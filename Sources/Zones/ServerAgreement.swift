import DNSSD
import DNSWire

/// Several servers of one zone (a primary and its secondaries): the same serial and the same
/// records, or which one lags behind.
public enum ServerAgreement {
    public struct Served: Sendable {
        public let server: String
        public let serial: UInt32?
        /// Every record but the SOA (a transfer), or the RRsets asked one by one.
        public let records: [DNSRecord]

        public init(server: String, serial: UInt32?, records: [DNSRecord]) {
            self.server = server
            self.serial = serial
            self.records = records.filter { $0.type != .soa }
        }
    }

    public static func compare(_ servers: [Served], zone: DNSName) -> [ZoneFinding] {
        guard servers.count > 1 else { return [] }
        let serials = servers.compactMap(\.serial)
        guard let newest = serials.first(where: { candidate in !serials.contains { SerialPolicy.isNewer($0, than: candidate) } }) else {
            return []
        }
        var findings: [ZoneFinding] = []
        let leaders = servers.filter { $0.serial == newest }
        for lagging in servers where lagging.serial != newest {
            let serial = lagging.serial.map { "serial \($0)" } ?? "no SOA"
            findings.append(
                ZoneFinding(
                    .fail,
                    "\(lagging.server) serves \(zone) with \(serial), \(leaders.map(\.server).joined(separator: ", ")) with \(newest): "
                        + "\(lagging.server) lags behind",
                    fix:
                        "on the primary: `notify yes;` and `allow-transfer` for \(lagging.server) (Knot: `notify:` and an acl with "
                        + "`action: transfer`); on \(lagging.server): the zone is `type secondary` with the primary in `primaries`; "
                        + "its log says why the transfer failed"
                ))
        }
        if let reference = leaders.first {
            let expected = Set(reference.records)
            for other in leaders.dropFirst() {
                let actual = Set(other.records)
                guard actual != expected else { continue }
                let missing = expected.subtracting(actual)
                let extra = actual.subtracting(expected)
                let example = (missing.map { "missing \($0)" } + extra.map { "extra \($0)" }).sorted().first ?? ""
                findings.append(
                    ZoneFinding(
                        .fail,
                        "\(other.server) and \(reference.server) both serve serial \(newest) of \(zone) but differ in "
                            + "\(missing.count + extra.count) record(s) (\(other.server): \(example))",
                        fix:
                            "the zone changed without a serial bump somewhere: bump the serial on the primary (dynamic updates do it) and "
                            + "let the secondaries transfer again"
                    ))
            }
        }
        if findings.isEmpty {
            findings.append(
                ZoneFinding(
                    .pass,
                    "\(servers.map(\.server).joined(separator: ", ")) serve \(zone) with serial \(newest) and the same "
                        + "\(servers[0].records.count) records"
                ))
        }
        return findings
    }
}
