import DNSSD
import DNSWire
import Foundation
import Testing

@testable import Zones

/// `zone push` registers ZoneWriter.serviceRecords; `zone generate` writes ZoneWriter.render.
/// They must be the same records, so a pushed zone is exactly a generated one.
@Suite("Service records for zone push")
struct ServiceRecordsTests {
    static let names = [
        "Studio (OpenClaw)", "Dots.In.Name v2.0", #"Quote "q" \ back"#, "$ORIGIN evil.", "semi;colon (x)", "@home",
        "Café Zürich", "🦞 Lobster Lab", String(repeating: "é", count: 31) + "x", "plain",
    ]

    @Test("the records equal those of the rendered zone read back with ldns, in the same order (SOA, NS and ns1 aside)")
    func sameAsRendered() throws {
        var gateways = try Self.names.enumerated().map { index, name in
            try GatewaySpec.parse(
                "host=h\(index % 4),ip=100.64.1.\(index % 4 + 1),ip=fd7a:115c:a1e0::\(index % 4 + 1),name=\(name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ",", with: "\\,")),tls=\(String(repeating: "d4", count: 32)),ssh=22"
            )
        }
        gateways.append(gateways[0])  // an identical duplicate is dropped by both
        let content = ZoneContent(domain: domain, gateways: gateways, nameServerAddresses: [IPAddress("100.64.0.53")!])
        let rendered = try ZoneWriter.render(content, serial: 2_026_112_201)
        let read = ZoneFile.read(text: rendered.text)
        #expect(read.problems.isEmpty, "\(read.problems)")
        let ns1 = try DNSName(presentation: "ns1.openclaw.internal.")
        let expected = read.records.filter { $0.type != .soa && $0.type != .ns && $0.name != ns1 }
        let records = try ZoneWriter.serviceRecords(content).records
        #expect(records.count == expected.count)
        for (index, (mine, theirs)) in zip(records, expected).enumerated() {
            #expect(mine == theirs, "record \(index): \(mine) vs \(theirs)")
            #expect(mine.name.description == theirs.name.description, "the same case too")
        }
    }

    @Test("limits are the same as for a file: an instance named '@' is a label like any other, sizes give the same notes")
    func limits() throws {
        let at = try GatewaySpec.parse("host=a,ip=100.64.0.1,name=@")
        let records = try ZoneWriter.serviceRecords(ZoneContent(domain: domain, gateways: [at], nameServerAddresses: [])).records
        let ptr = records.first { $0.type == .ptr }
        guard case .ptr(let target)? = ptr?.data else {
            Issue.record("no PTR in \(records)")
            return
        }
        #expect(target.labels.first == [UInt8(ascii: "@")], "\(target)")
        let many = try (0..<101).map { try GatewaySpec.parse("host=h\($0),ip=100.64.0.1") }
        let notes = try ZoneWriter.serviceRecords(ZoneContent(domain: domain, gateways: many, nameServerAddresses: [])).notes
        #expect(notes == [.bindRecordsPerType(instances: 101)], "\(notes)")
    }
}
