import DNSSD
import TestSupport
import Testing

@testable import Discovery
@testable import Output

/// `BrowseReport.json()` writes the document directly; it must be the very bytes that
/// `JSONOutput.pretty` makes of `encode(to:)`, which the schema and the goldens describe.
@Suite("Browse JSON: the direct writer and Codable agree")
struct BrowseJSONTests {
    static func beacon(
        _ name: String, source: BeaconSource = .mdns, domain: DomainName? = .local, port: Int? = 18789, addresses: [String] = ["10.0.0.2"],
        txt: [[UInt8]]
    ) -> GatewayBeacon {
        GatewayBeacon(
            instance: try! InstanceName(bytes: Array(name.utf8)), serviceType: .gateway, domain: domain, source: source,
            interfaces: source == .mdns ? ["eth0"] : [], host: "studio.local.", port: port, addresses: addresses.map { IPAddress($0)! },
            txt: try! TXTRecord(strings: txt))
    }

    /// Beacons with every optional member present and absent, and text a JSON writer must escape.
    static func beacons() throws -> [GatewayBeacon] {
        let odd: [[UInt8]] = [
            Array("role=gateway".utf8), Array("displayName=Studio \"A\"\\ \u{1}\t\n\u{7F}\u{85}\u{202E}é😀 a/b".utf8),
            Array("tlsSha256=".utf8) + Array(repeating: UInt8(ascii: "a"), count: 64), Array("gatewayPort=18790".utf8),
            Array("Zeta=1".utf8), Array("binary=".utf8) + [0xFF, 0xFE, 0x41], Array("flag".utf8), Array("cliPath=/usr/bin/openclaw".utf8),
            Array("transport=gateway".utf8), Array("empty=".utf8),
        ]
        let mdns = beacon("Studio \u{1B}[31m (OpenClaw)", txt: odd)
        var unicast = beacon("Studio", source: .unicast, domain: try DomainName(validating: "openclaw.internal"), txt: odd)
        unicast.resolvers = ["127.0.0.1#53"]
        unicast.discoveryWarnings = ["2 SRV records; using priority 0 weight 0 (studio.local.:18789)"]
        var named = beacon("x", port: nil, addresses: [], txt: [])
        named.instance = try InstanceName(bytes: [0xC3, 0x28, 0x41])
        let manual = GatewayBeacon(
            instance: try InstanceName(decoded: "gw.example.test"), serviceType: .gateway, domain: nil, source: .manual,
            host: "gw.example.test", port: 443, addresses: [IPAddress("10.0.0.3")!, IPAddress("fd00::1")!], txt: .empty,
            requestedTLS: true)
        let merged = try #require(BeaconMerger.merge([mdns, unicast], id: "gateway-1"))
        return [merged, unicast, named, manual, beacon("plain", port: 0, txt: [Array("role=gateway".utf8)])]
    }

    static func issues() -> [DiscoveryIssue] {
        [
            DiscoveryIssue.noDaemon,
            DiscoveryIssue(
                source: .unicast, kind: .dnsError,
                .srvMissing(instance: "Studio", presentation: "Studio", type: "_openclaw-gw._tcp", explanation: "NXDOMAIN \"x\"\\"),
                domain: "openclaw.internal"),
        ]
    }

    static func report(beacons: [GatewayBeacon], issues: [DiscoveryIssue]) -> BrowseReport {
        var request = DiscoveryRequest()
        request.domains = [try! DomainName(validating: "openclaw.internal")]
        let snapshot = DiscoverySnapshot(beacons: beacons, issues: issues, timedOut: false, elapsed: .milliseconds(2345))
        return BrowseReport(request: request, snapshot: snapshot)
    }

    @Test("every kind of beacon and issue, and the empty document: the same bytes as JSONOutput.pretty")
    func sameBytes() throws {
        let beacons = try Self.beacons()
        for report in [Self.report(beacons: beacons, issues: Self.issues()), Self.report(beacons: [], issues: [])] {
            let direct = try report.json()
            let codable = try JSONOutput.pretty(report)
            let (directLines, codableLines) = (direct.split(separator: "\n"), codable.split(separator: "\n"))
            let first = zip(directLines, codableLines).enumerated().first { $0.element.0 != $0.element.1 }
            #expect(
                direct == codable,
                "line \(first.map { "\($0.offset + 1): \($0.element.0) | Codable: \($0.element.1)" } ?? "count differs")")
        }
        #expect(beacons[0].sightings.count == 2 && !beacons[0].aliases.isEmpty, "the merged beacon has sightings and aliases")
    }

    @Test("each beacon on its own: the same bytes as JSONOutput.pretty")
    func eachBeacon() throws {
        for beacon in try Self.beacons() {
            var json = PrettyJSON()
            beacon.write(to: &json)
            #expect(JSONOutput.escapingControls(json.bytes) == (try JSONOutput.pretty(beacon)), "\(beacon.instance)")
        }
    }
}
