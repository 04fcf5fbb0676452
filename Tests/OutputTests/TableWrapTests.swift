import DNSSD
import Discovery
import Testing

@testable import Output

/// Tables wrap to a terminal's width (issue 21): browse's rows and warnings, browse --watch's
/// event lines, watch's lines; piped (no width), every row stays one line for grep.
@Suite("tables wrap to the terminal's width and stay whole when piped")
struct TableWrapTests {
    /// A Gateway whose row is about 110 columns: two addresses, a pinned TLS fingerprint, an interface.
    static func wideBeacon() -> GatewayBeacon {
        var beacon = GatewayBeacon(
            instance: try! InstanceName(decoded: "Studio Gateway (OpenClaw)"), serviceType: .gateway, domain: .local, source: .mdns,
            host: "studio-gateway.local.", port: 18789, addresses: [IPAddress("192.168.100.200")!, IPAddress("fd00:1234:5678::200")!],
            txt: try! TXTRecord(pairs: [("role", "gateway"), ("gatewayTls", "1"), ("gatewayTlsSha256", String(repeating: "ab", count: 32))])
        )
        beacon.interfaces = ["enp3s0"]
        beacon.discoveryWarnings = ["this Gateway answered on two interfaces with different addresses; nodes may pick either of them"]
        return beacon
    }

    @Test("TextTable: at 40 columns no line is wider, every word is kept in order; without a width each row is one line")
    func textTable() {
        let table = TextTable(
            header: ["NAME", "WHERE", "NOTE"],
            rows: [["alpha", "10.0.0.1, 10.0.0.2, fd00::1", "reachable over TCP and TLS"], ["b", "-", "ok"]])
        let whole = table.renderRows(width: nil)
        #expect(whole.allSatisfy { $0.count == 1 }, "\(whole)")
        #expect(whole[1][0] == "alpha  10.0.0.1, 10.0.0.2, fd00::1  reachable over TCP and TLS", "\(whole)")
        let wrapped = table.renderRows(width: 40)
        let lines = wrapped.flatMap { $0 }
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(lines)")
        #expect(wrapped[1].count > 1 && wrapped[2].count == 1, "\(wrapped)")
        let words = { (text: String) in text.split(separator: " ").map(String.init) }
        #expect(wrapped[1].flatMap(words).sorted() == whole[1].flatMap(words).sorted(), "\(wrapped[1])")
        #expect(table.renderRows(width: 200) == whole, "a table that fits is as it was")
    }

    @Test("browse's table: at COLUMNS=80 no line over 80, rows and warnings wrapped; piped, one line each")
    func browseTable() {
        var report = ReportTests.browse(beacons: [Self.wideBeacon()])
        let piped = report.table(ReportTests.plain).out
        #expect(piped.count == 3 && piped[1].count > 80, "one line for the row, one for the warning: \(piped)")
        report.width = 80
        let wrapped = report.table(ReportTests.plain).out
        #expect(wrapped.count > 3 && wrapped.allSatisfy { $0.count <= 80 }, "\(wrapped)")
        #expect(wrapped[1].hasPrefix("Studio ") && wrapped.joined().contains("sha256"), "\(wrapped)")
    }

    @Test("browse --watch's event lines: at 80 columns they go on under the first cell; piped, one line")
    func browseEventLines() {
        let event = DiscoveryEventLine(.added(Self.wideBeacon()), elapsed: .zero)
        let piped = event.table(ReportTests.plain, collection: BeaconCollection()).out
        #expect(piped.count == 1 && piped[0].hasPrefix("+  Studio Gateway (OpenClaw)"), "\(piped)")
        let wrapped = event.table(ReportTests.plain, collection: BeaconCollection(), width: 80).out
        #expect(wrapped.count > 1 && wrapped.allSatisfy { $0.count <= 80 }, "\(wrapped)")
        #expect(wrapped.dropFirst().allSatisfy { $0.hasPrefix("   ") }, "\(wrapped)")
    }

    @Test("browse's table at 80 columns: the URL doctor takes, no root dot, every address whole (IPv6 too), the other paths' hosts")
    func browseTableKeepsAddressesWhole() throws {
        var lan = Self.wideBeacon()
        lan.discoveryWarnings = []
        lan.addresses = ["192.168.100.200", "fd00:1234:5678:9abc:def0:1234:5678:200", "fe80::1234:5678:9abc:def0%enp3s0"].map {
            IPAddress($0)!
        }
        var wan = lan
        wan.instance = try InstanceName(decoded: "studio-gateway")
        wan.domain = try DomainName(validating: "openclaw.internal")
        wan.sources = [.unicast]
        wan.host = BeaconHost("studio.openclaw.internal.")
        var merged = lan
        merged.sources = [.mdns, .unicast]
        merged.sightings = [lan, wan]
        var report = ReportTests.browse(beacons: [merged])
        report.width = 80
        let wrapped = report.table(ReportTests.plain).out
        let text = wrapped.joined(separator: "\n")
        #expect(wrapped.allSatisfy { $0.count <= 80 }, "\(text)")
        #expect(wrapped[0].contains("URL") && text.contains("wss://studio-gateway.local:18789"), "\(text)")
        #expect(!text.contains("local.:") && text.contains("also") && text.contains("studio.openclaw.internal"), "\(text)")
        #expect(text.contains("  addresses 192.168.100.200,"), "the addresses under the row when they do not fit beside it: \(text)")
        let words = Set(text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," }).map(String.init))
        for address in merged.addresses.map(\.description) {
            #expect(words.contains(address), "\(address) whole on one line:\n\(text)")
        }
    }
}
