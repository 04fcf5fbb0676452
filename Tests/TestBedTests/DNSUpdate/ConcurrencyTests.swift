import DNSClient
import DNSSD
import DNSUpdate
import DNSWire
import Foundation
import TestSupport
import Testing

/// Read and update driven apart against real BIND: what happens in between decides.
@Suite("Concurrent changes and clock skew against BIND", .testBed, .serialized)
struct ConcurrencyTests {
    let zone = try! DNSName(presentation: "openclaw.internal.")
    let service = try! DNSName(presentation: "_openclaw-gw._tcp.openclaw.internal.")

    func records(_ instance: String, host: String, address: String) throws -> [DNSRecord] {
        let instanceName = try DNSName(presentation: "\(instance)._openclaw-gw._tcp.openclaw.internal.")
        let hostName = try DNSName(presentation: "\(host).openclaw.internal.")
        return [
            DNSRecord(name: hostName, type: .a, ttl: 60, data: .a(IPAddress(address)!)),
            DNSRecord(name: service, type: .ptr, ttl: 60, data: .ptr(instanceName)),
            DNSRecord(name: instanceName, type: .srv, ttl: 60, data: .srv(priority: 0, weight: 0, port: 18789, target: hostName)),
            DNSRecord(name: instanceName, type: .txt, ttl: 60, data: .txt(try TXTRecord(strings: [Array("role=gateway".utf8)]))),
        ]
    }

    func start(_ bed: TestBed, _ key: TestTSIGKey) async throws -> (TestDNSServer, ServiceRegistration) {
        let dns = try await bed.startBIND(
            zones: [
                "openclaw.internal":
                    "$ORIGIN openclaw.internal.\n$TTL 60\n@ IN SOA ns1 hostmaster 2026112201 7200 3600 1209600 60\n@ IN NS ns1\nns1 IN A 100.101.102.103\n"
            ],
            keys: key.bindStatement, zoneOptions: "update-policy { grant \(key.name) zonesub ANY; }; allow-transfer { key \(key.name); };")
        let tsig = try TSIGKeyFile.parse(String(contentsOfFile: key.path, encoding: .utf8), file: key.path)
        let registration = ServiceRegistration(
            zone: zone, service: service, server: DNSServer(address: IPAddress(dns.address)!, port: dns.port), key: tsig,
            timeout: .seconds(5))
        return (dns, registration)
    }

    @Test("a change between read and update fails the PTR prerequisite (YXRRSET: someone else changed it); a rerun converges")
    func concurrentChange() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let (dns, registration) = try await start(bed, key)
        defer { dns.terminate() }
        let ours = try records("ours", host: "a", address: "100.64.0.1")
        let read = try await registration.read(for: ours)
        let plan = try registration.planner.publish(ours, served: read, prune: false)

        // Someone else registers a Gateway after our read, before our update.
        let theirs = try await bed.nsupdate(
            """
            server \(dns.address) \(dns.port)
            zone openclaw.internal.
            update add theirs._openclaw-gw._tcp.openclaw.internal. 60 IN SRV 0 0 18789 b.openclaw.internal.
            update add _openclaw-gw._tcp.openclaw.internal. 60 IN PTR theirs._openclaw-gw._tcp.openclaw.internal.
            send

            """, key: key)
        #expect(theirs.status == 0, "\(theirs.stderr)")

        let (applied, failure) = await registration.send(plan)
        #expect(applied == 0)
        let refused = try #require(failure)
        #expect(refused.reason == .prerequisiteFailed)
        #expect(refused.rcode == .yxRRSet, "the PTR RRset was absent when read: \(refused)")
        #expect(refused.message.contains("someone else changed") && refused.fix?.contains("run again") == true)

        // The rerun reads the new state and keeps their instance.
        let again = try registration.planner.publish(ours, served: try await registration.read(for: ours), prune: false)
        #expect(await registration.send(again).failure == nil)
        let final = try await registration.read(for: ours)
        #expect(
            Set(final.instances(of: service).map(\.description)) == [
                "ours._openclaw-gw._tcp.openclaw.internal.", "theirs._openclaw-gw._tcp.openclaw.internal.",
            ])
        #expect(try registration.planner.publish(ours, served: final, prune: false).isEmpty)
    }

    @Test("two pushes that read the same state: exactly one wins, the other gets YXRRSET or NXRRSET")
    func racingPushes() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let (dns, registration) = try await start(bed, key)
        defer { dns.terminate() }
        let first = try records("first", host: "a", address: "100.64.0.1")
        let second = try records("second", host: "b", address: "100.64.0.2")
        let state = try await registration.read(for: first + second)
        let planA = try registration.planner.publish(first, served: state, prune: true)
        let planB = try registration.planner.publish(second, served: state, prune: true)
        async let a = registration.send(planA)
        async let b = registration.send(planB)
        let results = await [a.failure, b.failure]
        #expect(results.filter { $0 == nil }.count == 1, "\(results)")
        #expect(results.compactMap { $0?.rcode }.allSatisfy { $0 == .nxRRSet || $0 == .yxRRSet }, "\(results)")
        let final = try await registration.read(for: [])
        #expect(final.instances(of: service).count == 1, "never a PTR set that mixes both")
    }

    @Test("a clock an hour off: BIND answers BADTIME and the message says clock skew")
    func clockSkew() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        var (dns, registration) = try await start(bed, key)
        defer { dns.terminate() }
        registration.clock = { unixNow() - 3600 }
        do {
            _ = try await registration.read(for: [])
            Issue.record("a transfer signed an hour ago was accepted")
        } catch {
            #expect(error.reason == .clockSkew)
            #expect(error.rcode == .notAuth)
            #expect(error.message.contains("BADTIME") && error.message.contains("clock skew"), "\(error.message)")
            // The server's clock against ours, in whole seconds and on a loaded machine: about an hour.
            let skew = error.message.split(separator: "differ by ").dropFirst().first?.split(separator: " ").first.flatMap { Int($0) }
            #expect(skew.map { (3500...3700).contains($0) } == true, "\(error.message)")
        }
    }
}
