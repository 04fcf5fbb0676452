import DNSSD
import DNSWire
import Testing

@testable import Zones

/// A zone is held within `RecordStore.Bounds.zone` whichever way it comes (a file, standard
/// input, a transfer), and what a check says of it stays bounded too: a million bad records
/// are a readable report, not a million findings. The bound is lowered here so that the zones
/// stay small; scripts/bench-axfr-memory measures the real one.
@Suite("zone check: bounded zones, bounded reports")
struct ZoneBoundsTests {
    static let header = """
        $ORIGIN openclaw.internal.
        $TTL 60
        @ IN SOA ns1 hostmaster 2026112201 7200 3600 1209600 60
        @ IN NS ns1
        ns1 IN A 100.101.102.103

        """

    @Test("a zone file past the record bound: a failure on the line where it passes, naming the bound; what came before is read")
    func fileRecordBound() {
        let text = Self.header + (0..<150).map { "h\($0) IN A 10.0.0.\($0)" }.joined(separator: "\n")
        let zone = ZoneFile.read(text: text, bounds: .init(records: 100, bytes: 1 << 20))
        #expect(zone.records.count == 100)
        #expect(
            zone.problems.map(\.line) == [103] && zone.problems.first?.message.contains("more than 100 records") == true, "\(zone.problems)"
        )
        let findings = ZoneLinter.check(zone, domain: nil, today: SerialPolicy.Day(year: 2026, month: 11, day: 22))
        #expect(
            findings.first?.code == .syntax && findings.first?.values.first?.contains("more than 100 records") == true, "\(findings.first!)"
        )
    }

    @Test("5,000 records with TTL 0 and 5,000 outside the zone: 200 findings of each kind listed, the rest counted")
    func reportBound() {
        let text =
            Self.header + (0..<5_000).map { "h\($0) 0 IN A 10.0.0.1" }.joined(separator: "\n") + "\n"
            + (0..<5_000).map { "o\($0).elsewhere. IN A 10.0.0.2" }.joined(separator: "\n")
        let findings = ZoneLinter.check(ZoneFile.read(text: text), domain: nil, today: SerialPolicy.Day(year: 2026, month: 11, day: 22))
        let ttl = findings.filter { $0.code == .ttlZero }
        let outside = findings.filter { $0.code == .outsideZone }
        #expect(ttl.count == FindingList.limit && outside.count == FindingList.limit, "\(ttl.count), \(outside.count)")
        #expect(ttl.first?.line == 6 && outside.first?.line == 5_006, "the first lines are the ones listed")
        #expect(
            findings.contains {
                $0.severity == .warn && $0.detail == .notListed(more: 4800, of: .warn, listed: 200)
            }
        )
        #expect(
            findings.contains {
                $0.severity == .fail && $0.detail == .notListed(more: 4800, of: .fail, listed: 200)
            }
        )
        #expect(findings.count < 500, "\(findings.count) findings")
    }

    @Test("a service whose PTR RRset lists 5,000 instances without SRV: each checked, 200 failures listed")
    func largeRRset() {
        let text =
            Self.header + (0..<5_000).map { "_openclaw-gw._tcp IN PTR gw\($0)._openclaw-gw._tcp" }.joined(separator: "\n") + "\n"
            + "_openclaw-gw._tcp IN PTR gw7._openclaw-gw._tcp\ngw9._openclaw-gw._tcp IN TXT \"role=gateway\"\n"
            + "lost._openclaw-gw._tcp IN SRV 0 0 18789 ns1\n"
        let findings = ZoneLinter.check(ZoneFile.read(text: text), domain: nil, today: SerialPolicy.Day(year: 2026, month: 11, day: 22))
        #expect(findings.filter { $0.code == .srvMissing }.count == FindingList.limit)
        #expect(
            findings.contains { $0.detail == .notListed(more: 4800, of: .fail, listed: 200) },
            "\(findings.filter { $0.code == .notListed })")
        #expect(findings.contains { $0.code == .instanceListedTwice && $0.values.contains("gw7._openclaw-gw._tcp.openclaw.internal.") })
        let unlisted = findings.filter { $0.code == .instanceUnlisted }
        #expect(unlisted.count == 1 && unlisted.first?.values.contains("lost._openclaw-gw._tcp.openclaw.internal.") == true, "\(unlisted)")
        #expect(
            findings.contains { $0.code == .ptrTooLarge && $0.values.first == "5000" })
    }
}
