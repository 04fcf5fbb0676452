import DNSClient
import DNSSD
import DNSUpdate
import DNSWire
import TestSupport
import Testing

/// A zone larger than clawnet holds, from a real server (BIND in the test bed): the transfer
/// stops at the bound with a failure that names it, and a push's read falls back to asking the
/// RRsets of the service type. The bound is lowered to 1,000 records so that a zone of 3,000
/// passes it in seconds; the real one (a million) is measured by scripts/bench-axfr-memory.
@Suite("Zone transfers past the bound, from BIND", .testBed)
struct TransferBoundTests {
    let zone = try! DNSName(presentation: "bound.internal.")
    let service = try! DNSName(presentation: "_openclaw-gw._tcp.bound.internal.")
    let instance = try! DNSName(presentation: #"Studio\032\(OpenClaw\)._openclaw-gw._tcp.bound.internal."#)
    let small = RecordStore.Bounds(records: 1_000, bytes: 64 << 20)

    func start(_ bed: TestBed) async throws -> (TestDNSServer, DNSServer) {
        var text = """
            $ORIGIN bound.internal.
            $TTL 60
            @ IN SOA ns1 hostmaster 2026112501 7200 3600 1209600 60
            @ IN NS ns1
            ns1 IN A 100.64.0.53
            _openclaw-gw._tcp IN PTR Studio\\032\\(OpenClaw\\)._openclaw-gw._tcp
            Studio\\032\\(OpenClaw\\)._openclaw-gw._tcp IN SRV 0 0 18789 studio
            Studio\\032\\(OpenClaw\\)._openclaw-gw._tcp IN TXT "role=gateway" "gatewayPort=18789"
            studio IN A 100.64.0.1

            """
        for index in 0..<3_000 { text += "t\(index) IN A 10.0.\(index / 256).\(index % 256)\n" }
        let dns = try await bed.startBIND(zones: ["bound.internal": text], zoneOptions: "allow-transfer { any; };")
        return (dns, DNSServer(address: IPAddress(dns.address)!, port: dns.port))
    }

    @Test("past the record bound: a failure naming the bound and what to do; within the default bound: the whole zone")
    func transferStopsAtTheBound() async throws {
        let bed = try TestBed.current()
        let (dns, server) = try await start(bed)
        defer { dns.terminate() }
        do {
            let zone = try await ZoneTransfer.run(zone: zone, server: server, key: nil, timeout: .seconds(20), bounds: small)
            Issue.record("a transfer of \(zone.records.count) records passed a bound of 1000")
        } catch {
            #expect(error.reason == .tooLarge, "\(error)")
            #expect(error.message.contains("holds more than 1000 records") && error.message.contains("(1000 records, 64 MiB)"), "\(error)")
            #expect(error.fix?.contains("zone check --server") == true, "\(error)")
        }
        let whole = try await ZoneTransfer.run(zone: zone, server: server, key: nil, timeout: .seconds(20))
        #expect(whole.records.count == 3_007 && whole.serial == 2_026_112_501, "\(whole.records.count) records")
    }

    @Test("a push's read falls back to the RRsets of the service type when the transfer passes the bound")
    func pushFallsBack() async throws {
        let bed = try TestBed.current()
        let (dns, server) = try await start(bed)
        defer { dns.terminate() }
        var registration = ServiceRegistration(zone: zone, service: service, server: server, key: nil, timeout: .seconds(20))
        registration.bounds = small
        let served = try await registration.read(for: [])
        let host = try DNSName(presentation: "studio.bound.internal.")
        guard case .queriesPastBound(let why) = served.source else {
            Issue.record("read by \(served.source), not by the RRsets after the bound")
            return
        }
        #expect(why.contains("more than 1000 records"), "\(why)")
        #expect(served.instances(of: service) == [instance])
        #expect(served.rrset(instance, .srv).count == 1 && served.rrset(host, .a).count == 1)
        #expect(served.records.count == 5, "SOA, PTR, SRV, TXT and the host's A: \(Array(served.records))")
    }
}
