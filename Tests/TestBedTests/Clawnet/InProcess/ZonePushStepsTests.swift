import DNSClient
import DNSSD
import DNSUpdate
import DNSWire
import Foundation
import TestSupport
import Testing
import Zones

/// zone push's steps (`ZonePush`: plan, send, keep the ledger) driven apart against real BIND,
/// to stop where a crash would, or to change the zone where another writer would.
@Suite("zone push's steps driven apart against BIND", .testBed, .serialized)
struct ZonePushStepsTests {
    let zone = try! DNSName(presentation: "openclaw.internal.")

    func gateway(_ label: String, _ address: String) throws -> ZoneGateway {
        ZoneGateway(
            instance: try InstanceName(decoded: "\(label) (OpenClaw)"), hostLabel: label, addresses: [IPAddress(address)!], port: 18789,
            txt: try TXTRecord(strings: [Array("role=gateway".utf8)]))
    }

    func zonePush(_ dns: TestDNSServer, _ key: TestTSIGKey, state: String, _ gateways: [ZoneGateway]) throws -> ZonePush {
        let tsig = try TSIGKeyFile.parse(String(contentsOfFile: key.path, encoding: .utf8), file: key.path)
        let server = DNSServer(address: IPAddress(dns.address)!, port: dns.port)
        let registrar = try Registrar(domain: try DomainName(validating: "openclaw.internal"), server: server, key: tsig)
        let ledgerFile = PushLedgerFile(server: server, zone: zone, service: registrar.service, environment: ["XDG_STATE_HOME": state])
        return ZonePush(registrar: registrar, records: try registrar.records(for: gateways).records, keeping: [], ledgerFile: ledgerFile)
    }

    var deadline: ContinuousClock.Instant { .now + .seconds(20) }

    @Test("a crash between read and send changes nothing, the ledger included; the rerun converges, the next plans from its ledger")
    func crashBetweenReadAndSend() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key, zone: studioZone)
        defer { dns.terminate() }
        let state = try temporaryDirectory(bed)
        let before = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        let push = try zonePush(dns, key, state: state, [try gateway("studio", "100.64.0.10"), try gateway("attic", "100.64.0.11")])
        var problems: [ZonePush.LedgerProblem] = []
        // A dry run's first step reads (there is no ledger); the process dies before it sends.
        let planned = try await push.plan(prune: false, send: false, until: deadline, problems: &problems)
        #expect(planned.served.wasRead && !planned.plan.isEmpty && problems.isEmpty)
        #expect(try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key) == before, "nothing was sent")
        #expect(try push.ledgerFile?.load() == nil, "no ledger was written")

        let rerun = await push.run(prune: false, send: true, until: deadline)
        #expect(rerun.failure == nil && rerun.applied == 1, "\(String(describing: rerun.failure))")
        #expect(rerun.push?.served.wasRead == true, "the UPDATE planned without reading was refused: studio's records are there")
        let next = await push.run(prune: false, send: true, until: deadline)
        #expect(next.push?.served.source == .ledger && next.push?.plan.isEmpty == true && next.applied == 0)
    }

    @Test("another change lands between the serial question and the UPDATE: the UPDATE applies, and the next push reads")
    func changeBeforeTheUpdate() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key)
        defer { dns.terminate() }
        let state = try temporaryDirectory(bed)
        let push = try zonePush(dns, key, state: state, [try gateway("studio", "100.64.0.10")])
        var problems: [ZonePush.LedgerProblem] = []
        let planned = try await push.plan(prune: false, send: true, until: deadline, problems: &problems)
        #expect(planned.served.source == .assumedEmpty && planned.served.serial == 2_026_112_201)
        let other = try await bed.nsupdate(
            "server \(dns.address) \(dns.port)\nzone openclaw.internal.\nupdate add www.openclaw.internal. 60 IN A 100.64.9.9\nsend\n",
            key: key)
        #expect(other.status == 0, "\(other.stderr)")
        let (applied, failure) = await push.send(planned, until: deadline)
        #expect(applied == 1 && failure == nil, "\(String(describing: failure))")
        #expect(push.keepLedger(planned, applied: applied) == nil)
        #expect(try push.ledgerFile?.load()?.serial == 2_026_112_202, "the serial it would have if no one else had changed the zone")
        let next = await push.run(prune: false, send: true, until: deadline)
        guard case .serialMoved(let ledger, let served)? = next.push?.readBecause else {
            Issue.record("the next push did not read for a moved serial: \(String(describing: next.push?.readBecause))")
            return
        }
        #expect(ledger == 2_026_112_202 && served == 2_026_112_203)
        #expect(next.push?.plan.isEmpty == true && next.failure == nil)
    }
}
