import DNSClient
import DNSSD
import DNSUpdate
import DNSWire
import Foundation
import TestSupport
import Testing
import Zones

/// zone push without reading (issue 34): a first push into an empty zone and every push while
/// the zone's serial is the ledger's read nothing; a zone that is not what clawnet knew (someone
/// changed it, wrote under the same name, a ledger lost or wrong) fails a prerequisite or moves
/// the serial, and then the push reads, plans again and converges. Against BIND, whose log
/// says whether a transfer was asked. Each test keeps its ledgers in a folder of its own.
@Suite("zone push plans from its ledger and reads only when the zone is not what it knew", .testBed, .serialized)
struct ZonePushLedgerTests {
    static let studio = "host=studio,ip=100.64.0.10,name=Studio (OpenClaw)"
    static let lab = "host=lab,ip=100.64.0.11,ip=fd7a:115c:a1e0::11"

    /// `zone push` with the ledger folder `state`.
    static func push(_ bed: TestBed, _ dns: TestDNSServer, _ key: TestTSIGKey, state: String, _ gateways: [String], _ extra: [String] = [])
        async throws -> CommandResult
    {
        try await bed.clawnet(
            ["zone", "push", "--domain", "openclaw.internal", "--server", dns.endpoint, "--tsig-key", key.path]
                + gateways.flatMap { ["--gateway", $0] } + extra, environment: ["XDG_STATE_HOME": state])
    }

    static func transfers(_ dns: TestDNSServer) -> Int {
        dns.process.lines.filter { $0.text.contains("AXFR started") }.count
    }

    /// The one ledger file in `state`.
    static func ledgerPath(_ state: String) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: state + "/clawnet").filter { $0.hasPrefix("zone-push-") }
        try #require(names.count == 1, "\(names)")
        return state + "/clawnet/" + names[0]
    }

    @Test("a first push reads nothing; the same push again asks only the serial and sends nothing; a change goes from the ledger")
    func withoutReading() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key)
        defer { dns.terminate() }
        let state = try temporaryDirectory(bed)
        let first = try await Self.push(bed, dns, key, state: state, [Self.studio, Self.lab])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stderr.contains("no ledger of a push of openclaw.internal. to \(dns.label): planned without reading"), "\(first.stderr)")
        #expect(first.stderr.contains("pushed 4 changes to \(dns.label) in 1 UPDATE"), "\(first.stderr)")
        let again = try await Self.push(bed, dns, key, state: state, [Self.studio, Self.lab])
        #expect(
            again.stderr.contains("planned from the ledger of the last push of openclaw.internal. to \(dns.label) (serial 2026112202"),
            "\(again.stderr)")
        #expect(again.stderr.contains("nothing sent"), "\(again.stderr)")
        let moved = try await Self.push(bed, dns, key, state: state, [Self.studio.replacingOccurrences(of: ".10", with: ".12"), Self.lab])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stderr.contains("~ host studio: replaces A 100.64.0.10 with 100.64.0.12"), "\(moved.stderr)")
        #expect(moved.stderr.contains("planned from the ledger") && moved.stderr.contains("in 1 UPDATE"), "\(moved.stderr)")
        #expect(Self.transfers(dns) == 0, "no zone transfer was asked: \(dns.process.outputTail)")
        let records = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        #expect(records.contains("studio.openclaw.internal. 60 IN A 100.64.0.12"), "\(records)")
        #expect(!records.contains { $0.contains("100.64.0.10") }, "\(records)")
        #expect(records.contains("lab.openclaw.internal. 60 IN AAAA fd7a:115c:a1e0::11"), "\(records)")
        #expect(!(first.stderr + again.stderr + moved.stderr).contains(key.secret))
    }

    @Test("someone changed the zone between pushes: the serial moved, the push reads, keeps their instance, then plans from the ledger")
    func changedBetweenPushes() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key)
        defer { dns.terminate() }
        let state = try temporaryDirectory(bed)
        #expect(try await Self.push(bed, dns, key, state: state, [Self.studio]).status == 0)
        let theirs = try await bed.nsupdate(
            """
            server \(dns.address) \(dns.port)
            zone openclaw.internal.
            update add theirs._openclaw-gw._tcp.openclaw.internal. 60 IN SRV 0 0 18789 box.openclaw.internal.
            update add _openclaw-gw._tcp.openclaw.internal. 60 IN PTR theirs._openclaw-gw._tcp.openclaw.internal.
            send

            """, key: key)
        #expect(theirs.status == 0, "\(theirs.stderr)")
        let second = try await Self.push(bed, dns, key, state: state, [Self.studio, Self.lab])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            second.stderr.contains("openclaw.internal. changed since the last push (serial 2026112202 then, 2026112203 now): reading it"),
            "\(second.stderr)")
        #expect(second.stderr.contains("by AXFR") && second.stderr.contains("+ lab-gateway"), "\(second.stderr)")
        let third = try await Self.push(bed, dns, key, state: state, [Self.studio, Self.lab])
        #expect(third.stderr.contains("planned from the ledger") && third.stderr.contains("nothing sent"), "\(third.stderr)")
        let ptr = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key).filter { $0.contains(" PTR ") }
        #expect(ptr.count == 3 && ptr.contains { $0.hasSuffix("PTR theirs._openclaw-gw._tcp.openclaw.internal.") }, "\(ptr)")
    }

    @Test("records someone else wrote under the same names, no ledger: YXRRSET, the push reads, and replaces them naming each")
    func someoneElsesRecords() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key, zone: studioZone)
        defer { dns.terminate() }
        let state = try temporaryDirectory(bed)
        let result = try await Self.push(bed, dns, key, state: state, [Self.studio])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("answered YXRRSET to the UPDATE planned without reading"), "\(result.stderr)")
        #expect(result.stderr.contains("read openclaw.internal. from \(dns.label) by AXFR (serial 2026112201"), "\(result.stderr)")
        #expect(
            result.stderr.contains("~ host studio: replaces A 100.101.102.103 with 100.64.0.10; removes AAAA fd7a:115c:a1e0::1"),
            "\(result.stderr)")
        // The TXT values someone else wrote at the instance clawnet now writes are named too.
        #expect(
            result.stderr.contains(#"removes TXT "#) && result.stderr.contains(#""cliPath=/usr/local/bin/openclaw""#), "\(result.stderr)")
        let records = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        #expect(records.contains { $0.hasSuffix("PTR lab-gateway._openclaw-gw._tcp.openclaw.internal.") }, "another instance stays")
        let again = try await Self.push(bed, dns, key, state: state, [Self.studio])
        #expect(again.stderr.contains("planned from the ledger") && again.stderr.contains("nothing sent"), "\(again.stderr)")
    }

    @Test("a TXT value another writer put on clawnet's own instance, a bidi override in it: the push that replaces it names it, escaped")
    func foreignTXTValueNamed() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key)
        defer { dns.terminate() }
        let state = try temporaryDirectory(bed)
        #expect(try await Self.push(bed, dns, key, state: state, [Self.studio]).status == 0)
        // Another writer (nsupdate with the same key) adds a TXT record beside clawnet's: U+202E in UTF-8.
        let script = [
            "server \(dns.address) \(dns.port)", "zone openclaw.internal.",
            #"update add Studio\032\(OpenClaw\)._openclaw-gw._tcp.openclaw.internal. 60 TXT "note=\226\128\174evil""#, "send", "",
        ].joined(separator: "\n")
        let update = try await bed.nsupdate(script, key: key)
        #expect(update.status == 0, "nsupdate: \(update.stderr)")
        let again = try await Self.push(bed, dns, key, state: state, [Self.studio])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains(#"changed since the last push"#), "\(again.stderr)")
        let named = #"~ Studio (OpenClaw): TXT; removes TXT "note=\226\128\174evil""#
        #expect(again.stderr.contains(named), "the foreign value named: \(again.stderr)")
        #expect(!again.stderr.contains("\u{202E}"), "never raw")
        let after = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        #expect(!after.contains { $0.contains("note=") }, "\(after)")
    }

    @Test("a ledger lost, or wrong at the same serial: the prerequisite fails (YXRRSET, NXRRSET), the push reads and converges")
    func ledgerLostOrWrong() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key)
        defer { dns.terminate() }
        let state = try temporaryDirectory(bed)
        #expect(try await Self.push(bed, dns, key, state: state, [Self.studio, Self.lab]).status == 0)
        try FileManager.default.removeItem(atPath: try Self.ledgerPath(state))
        let lost = try await Self.push(bed, dns, key, state: state, [Self.studio, Self.lab])
        #expect(lost.stderr.contains("answered YXRRSET to the UPDATE planned without reading"), "\(lost.stderr)")
        #expect(lost.stderr.contains("nothing sent") && lost.status == 0, "\(lost.stderr)")

        // The ledger says studio's A is 100.64.0.99; the server, at the same serial, has 100.64.0.10.
        let file = PushLedgerFile(
            server: DNSServer(address: IPAddress(dns.address)!, port: dns.port), zone: try DNSName(presentation: "openclaw.internal."),
            service: try DNSName(presentation: "_openclaw-gw._tcp.openclaw.internal."), environment: ["XDG_STATE_HOME": state])
        #expect(file.path == (try Self.ledgerPath(state)))
        let kept = try #require(try file.load())
        let studioA = DNSRecord(
            name: try DNSName(presentation: "studio.openclaw.internal."), type: .a, ttl: 60, data: .a(IPAddress("100.64.0.10")!))
        #expect(kept.records.contains { $0.sameRecord(as: studioA) }, "\(kept.records)")
        let wrongA = DNSRecord(name: studioA.name, type: .a, ttl: 60, data: .a(IPAddress("100.64.0.99")!))
        let wrongRecords = kept.records.map { $0.sameRecord(as: studioA) ? wrongA : $0 }
        try file.save(PushLedger(zone: kept.zone, service: kept.service, serial: kept.serial, records: wrongRecords))
        let wrong = try await Self.push(bed, dns, key, state: state, [Self.studio.replacingOccurrences(of: ".10", with: ".12"), Self.lab])
        #expect(wrong.status == 0, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("answered NXRRSET to the UPDATE planned without reading"), "\(wrong.stderr)")
        #expect(wrong.stderr.contains("~ host studio: replaces A 100.64.0.10 with 100.64.0.12"), "what was read: \(wrong.stderr)")
        let records = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        #expect(records.contains("studio.openclaw.internal. 60 IN A 100.64.0.12"), "\(records)")
    }

    @Test("a push killed after its UPDATE and before its ledger: the next push finds another serial, reads, and sends nothing")
    func killedBeforeLedger() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key)
        defer { dns.terminate() }
        let state = try temporaryDirectory(bed)
        #expect(try await Self.push(bed, dns, key, state: state, [Self.studio]).status == 0)
        let path = try Self.ledgerPath(state)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try await Self.push(bed, dns, key, state: state, [Self.studio, Self.lab]).status == 0)
        try before.write(to: URL(fileURLWithPath: path))  // as if the second push had died before writing its ledger
        let rerun = try await Self.push(bed, dns, key, state: state, [Self.studio, Self.lab])
        #expect(rerun.stderr.contains("changed since the last push (serial 2026112202 then, 2026112203 now)"), "\(rerun.stderr)")
        #expect(rerun.stderr.contains("nothing sent") && rerun.status == 0, "\(rerun.stderr)")
        let last = try await Self.push(bed, dns, key, state: state, [Self.studio, Self.lab])
        #expect(last.stderr.contains("planned from the ledger") && last.stderr.contains("nothing sent"), "\(last.stderr)")
    }

    @Test("Knot: a first push without reading, then from the ledger; a change and --prune too")
    func knot() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey(name: "knotkey", algorithm: "hmac-sha512", knotFormat: true)
        let knot = try await bed.startKnot(
            zones: ["openclaw.internal": emptyZone],
            extra: key.knotSection + "acl:\n  - id: pusher\n    key: \(key.name)\n    action: [update, transfer]\n",
            zoneOptions: ["acl: pusher"])
        defer { knot.terminate() }
        let state = try temporaryDirectory(bed)
        let first = try await Self.push(bed, knot, key, state: state, [Self.studio, Self.lab])
        #expect(first.status == 0 && first.stderr.contains("planned without reading"), "\(first.stderr)")
        let again = try await Self.push(bed, knot, key, state: state, [Self.studio, Self.lab])
        #expect(again.stderr.contains("planned from the ledger") && again.stderr.contains("nothing sent"), "\(again.stderr)")
        let pruned = try await Self.push(bed, knot, key, state: state, [Self.lab], ["--prune"])
        #expect(pruned.status == 0 && pruned.stderr.contains("- Studio (OpenClaw)"), "\(pruned.stderr)")
        #expect(pruned.stderr.contains("planned from the ledger"), "\(pruned.stderr)")
        let ptr = try await bed.kdigTransfer(knot, zone: "openclaw.internal", key: key).filter { $0.contains(" PTR ") }
        #expect(ptr == ["_openclaw-gw._tcp.openclaw.internal. 60 IN PTR lab-gateway._openclaw-gw._tcp.openclaw.internal."], "\(ptr)")
    }

    @Test("PowerDNS: a first push without reading; again, from the ledger or (a serial moved otherwise) from a read: nothing sent")
    func powerDNS() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let pdns = try await bed.startPowerDNS(zones: ["openclaw.internal": emptyZone], key: key, eightBitDNS: true)
        defer { pdns.terminate() }
        let state = try temporaryDirectory(bed)
        let first = try await Self.push(bed, pdns, key, state: state, [Self.studio, Self.lab])
        #expect(first.status == 0, "\(first.stderr)\n\(pdns.process.outputTail)")
        #expect(first.stderr.contains("planned without reading") && first.stderr.contains("in 1 UPDATE"), "\(first.stderr)")
        for _ in 0..<2 {
            let again = try await Self.push(bed, pdns, key, state: state, [Self.studio, Self.lab])
            #expect(again.status == 0 && again.stderr.contains("nothing sent"), "\(again.stderr)")
        }
        let moved = try await Self.push(bed, pdns, key, state: state, [Self.studio.replacingOccurrences(of: ".10", with: ".12"), Self.lab])
        #expect(moved.status == 0 && moved.stderr.contains("replaces A 100.64.0.10 with 100.64.0.12"), "\(moved.stderr)")
        let records = try await bed.kdigTransfer(pdns, zone: "openclaw.internal", key: key)
        #expect(records.contains("studio.openclaw.internal. 60 IN A 100.64.0.12"), "\(records)")
    }
}
