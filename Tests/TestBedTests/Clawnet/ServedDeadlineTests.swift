import DNSSD
import DNSWire
import Foundation
import TestSupport
import Testing
import Zones

/// Issue 18: zone check's --timeout bounds what comes after the servers' answers too: past the
/// command's deadline the zone as served is not checked, and a failure says so.
@Suite("zone check --server: the deadline after the reads", .testBed)
struct ServedDeadlineTests {
    func run(_ dns: TestDNSServer, deadline: ContinuousClock.Instant?) async throws -> [Finding] {
        let server = DNSServer(address: try #require(IPAddress(dns.address)), port: dns.port)
        return await ServedZoneChecks.run(
            servers: [server], zone: try DNSName(presentation: "openclaw.internal."), key: nil, transfer: false,
            timeout: .seconds(10), deadline: deadline, today: SerialPolicy.Day(year: 2026, month: 11, day: 26))
    }

    @Test("read in time but past the deadline: one failure naming --timeout, nothing linted or probed; within it: checked")
    func pastTheDeadline() async throws {
        let bed = try TestBed.current()
        let dns = try await bed.startBIND(zones: ["openclaw.internal": studioZone])
        defer { dns.terminate() }
        let late = try await run(dns, deadline: .now - .seconds(1))
        #expect(late.count == 1 && late[0].severity == .fail, "\(late.map(\.detail))")
        #expect(late.first?.code == .timeoutAfterRead, "\(late.map(\.code))")
        let server = DNSServer(address: try #require(IPAddress(dns.address)), port: dns.port)
        let zone = try DNSName(presentation: "openclaw.internal.")
        #expect(late.first?.detail == .timeoutAfterRead(zone: zone, servers: [server], skipped: .lint), "\(late.map(\.detail))")
        let inTime = try await run(dns, deadline: .now + .seconds(30))
        #expect(!inTime.contains { $0.code == .timeoutAfterRead }, "\(inTime.map(\.detail))")
        #expect(!inTime.isEmpty, "the zone as served was checked")
    }
}
