import DNSClient
import DNSSD
import DNSUpdate
import DNSWire
import Foundation
import Glibc
import Testing

@testable import Zones

/// zone push's ledger on disk: read back as written, and only when it is this push's (its
/// server, zone and service; this user's file, no one else's to write).
@Suite("zone push's ledger file")
struct PushLedgerFileTests {
    let server = DNSServer(address: IPAddress("127.0.0.1")!, port: 5353)
    let zone = try! DNSName(presentation: "openclaw.internal.")
    let service = try! DNSName(presentation: "_openclaw-gw._tcp.openclaw.internal.")

    func file(_ state: String, server: DNSServer? = nil, zone: DNSName? = nil) -> PushLedgerFile {
        PushLedgerFile(server: server ?? self.server, zone: zone ?? self.zone, service: service, environment: ["XDG_STATE_HOME": state])
    }

    var ledger: PushLedger {
        let instance = try! DNSName(presentation: #"Name\032(OpenClaw)._openclaw-gw._tcp.openclaw.internal."#)
        let host = try! DNSName(presentation: "studio.openclaw.internal.")
        return PushLedger(
            zone: zone, service: service, serial: 2_026_112_203,
            records: [
                DNSRecord(name: service, type: .ptr, ttl: 60, data: .ptr(instance)),
                DNSRecord(name: instance, type: .srv, ttl: 60, data: .srv(priority: 0, weight: 0, port: 18789, target: host)),
                DNSRecord(name: instance, type: .txt, ttl: 60, data: .txt(try! TXTRecord(strings: [Array("displayName=a \"b\"".utf8)]))),
                DNSRecord(name: host, type: .aaaa, ttl: 60, data: .aaaa(IPAddress("fd7a:115c:a1e0::1")!)),
            ])
    }

    @Test("saved and loaded: the same records and serial, in a 0600 file of a 0700 folder")
    func roundTrip() throws {
        let state = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let kept = file(state)
        #expect(try kept.load() == nil, "no ledger yet")
        try kept.save(ledger)
        let loaded = try #require(try kept.load())
        #expect(loaded.serial == ledger.serial)
        #expect(loaded.records.map(\.data) == ledger.records.map(\.data) && loaded.records.map(\.name) == ledger.records.map(\.name))
        var status = stat()
        #expect(stat(kept.path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(stat(state + "/clawnet", &status) == 0 && status.st_mode & 0o777 == 0o700)
        #expect(kept.path.hasPrefix(state + "/clawnet/zone-push-") && kept.path.hasSuffix(".json"), "\(kept.path)")
        kept.remove()
        #expect(try kept.load() == nil)
    }

    @Test("names a zone file's text cannot carry come back as they were: a 63-byte label of \\DDD, '@', '$ORIGIN evil.'")
    func hostileNames() throws {
        let state = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let host = try DNSName(presentation: "h.openclaw.internal.")
        let labels = [String(repeating: "é", count: 31) + "x", "@", "$ORIGIN evil.", #"Quote "q" \ back"#]
        var records: [DNSRecord] = []
        for label in labels {
            let instance = try DNSName(labels: [Array(label.utf8)] + service.labels)
            records += [
                DNSRecord(name: service, type: .ptr, ttl: 60, data: .ptr(instance)),
                DNSRecord(name: instance, type: .srv, ttl: 60, data: .srv(priority: 0, weight: 0, port: 18789, target: host)),
                DNSRecord(name: instance, type: .txt, ttl: 60, data: .txt(try TXTRecord(strings: [Array("displayName=\(label)".utf8)]))),
            ]
        }
        // More records than one message holds, to cross from one to the next.
        records += (0..<PushLedgerFile.recordsPerMessage).map {
            DNSRecord(name: host, type: .a, ttl: 60, data: .a(IPAddress("100.64.\($0 / 250).\($0 % 250 + 1)")!))
        }
        let kept = file(state)
        try kept.save(PushLedger(zone: zone, service: service, serial: 5, records: records))
        let loaded = try #require(try kept.load())
        #expect(loaded.records.count == records.count)
        for (read, written) in zip(loaded.records, records) where !read.sameRecord(as: written) || read.ttl != written.ttl {
            Issue.record("read back \(read), wrote \(written)")
        }
    }

    @Test("another server's or zone's ledger, or one that does not parse, is no ledger")
    func notThisPush() throws {
        let state = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let kept = file(state)
        try kept.save(ledger)
        let otherServer = file(state, server: DNSServer(address: IPAddress("127.0.0.1")!, port: 53))
        let otherZone = file(state, zone: try DNSName(presentation: "eu.openclaw.internal."))
        #expect(otherServer.path != kept.path && otherZone.path != kept.path)
        // A file of another push copied over this one's name: it names its own server and zone.
        try FileManager.default.removeItem(atPath: kept.path)
        try otherServer.save(ledger)
        #expect(rename(otherServer.path, kept.path) == 0)
        #expect(try kept.load() == nil, "a ledger of another server is not this push's")
        let badRecord =
            #"{"schema":"clawnet.push-ledger.v1","server":"127.0.0.1#5353","zone":"openclaw.internal.","#
            + #""service":"_openclaw-gw._tcp.openclaw.internal.","serial":1,"records":["x 60 IN A not-an-address"]}"#
        for text in ["{}", "not json", #"{"schema":"clawnet.push-ledger.v1","server":"127.0.0.1#5353"}"#, badRecord] {
            try text.write(toFile: kept.path, atomically: false, encoding: .utf8)
            #expect(try kept.load() == nil, "\(text)")
        }
    }

    @Test("a ledger file others can write is refused with the reason, and neither used nor removed", .enabled(if: geteuid() == 0))
    func othersCanWrite() throws {
        let state = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: state) }
        let kept = file(state)
        try kept.save(ledger)
        #expect(chmod(kept.path, 0o666) == 0)
        #expect(throws: (any Error).self) { _ = try kept.load() }
        kept.remove()
        #expect(FileManager.default.fileExists(atPath: kept.path), "another's file stays")
    }
}
