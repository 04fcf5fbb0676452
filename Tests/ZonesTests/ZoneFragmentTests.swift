import DNSSD
import DNSWire
import Foundation
import Testing

@testable import Zones

/// `doctor --emit-zone` writes records to add to a zone: the same writer, no SOA or NS, and a
/// first line that tells `zone check` it is a fragment.
@Suite("zone fragments")
struct ZoneFragmentTests {
    static let domain = try! DomainName(validating: "openclaw.internal")

    static func gateway() throws -> ZoneGateway {
        try GatewaySpec.parse("host=studio,ip=10.98.0.1,port=18789,name=Studio (OpenClaw),tls=\(String(repeating: "ab", count: 32))")
    }

    @Test("a fragment is the zone's records for the Gateways, without SOA, NS or ns1")
    func fragment() throws {
        let content = ZoneContent(domain: Self.domain, gateways: [try Self.gateway()], nameServerAddresses: [])
        let fragment = try ZoneWriter.fragment(content).text
        let whole = try ZoneWriter.render(
            ZoneContent(domain: Self.domain, gateways: [try Self.gateway()], nameServerAddresses: [IPAddress("10.98.0.1")!]), serial: 1
        )
        .text
        let records = fragment.split(separator: "\n").dropFirst(3)
        #expect(!records.contains { $0.contains("SOA") || $0.contains(" NS ") || $0.contains("ns1") }, "\(fragment)")
        #expect(records.allSatisfy { whole.contains($0) }, "the same writer writes the same records")
        #expect(ZoneWriter.fragmentDomain(fragment) == Self.domain)
        #expect(ZoneWriter.fragmentDomain(whole) == nil)
    }

    @Test("zone check accepts a fragment (no SOA or NS), and still finds its faults")
    func checked() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fragment-\(UUID().uuidString).db").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let content = ZoneContent(domain: Self.domain, gateways: [try Self.gateway()], nameServerAddresses: [])
        try ZoneWriter.fragment(content).text.write(toFile: path, atomically: true, encoding: .utf8)
        let today = SerialPolicy.Day(year: 2026, month: 11, day: 22)
        let result = try await ZoneCheck.run(ZoneCheck.Request(path: path, domain: nil), today: today)
        #expect(result.status == .pass, "\(result.findings.filter { $0.severity != .pass })")
        #expect(result.findings.contains { $0.code == .fragment })
        let broken = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
            of: "\"gatewayPort=18789\"", with: "\"gatewayPort=1\"")
        try broken.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try await ZoneCheck.run(ZoneCheck.Request(path: path, domain: nil), today: today).status == .fail)
    }
}
