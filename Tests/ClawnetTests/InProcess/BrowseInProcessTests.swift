import CommandTestSupport
import DNSSD
import Discovery
import Foundation
import Host
import TestSupport
import Testing

@testable import Commands

/// browse run in-process with recorded discovery: the request its flags make, what it prints
/// for each format, and the exit status its result means. No Avahi, no DNS.
@Suite("browse in-process (recorded discovery)")
struct BrowseInProcessTests {
    static let domain = try! DomainName(validating: "openclaw.internal")

    static func beacon(_ name: String, domain: DomainName = .local, source: BeaconSource = .mdns) -> GatewayBeacon {
        GatewayBeacon(
            instance: try! InstanceName(decoded: name), serviceType: .gateway, domain: domain, source: source,
            interfaces: source == .mdns ? ["eth0"] : [], host: "studio.local.", port: 18789, addresses: [IPAddress("192.168.1.30")!],
            txt: try! TXTRecord(pairs: [("role", "gateway"), ("gatewayPort", "18789"), ("gatewayTls", "1")]))
    }

    static let found: [DiscoveryEvent] = [
        .added(beacon("Studio (OpenClaw)")), .added(beacon("Attic", domain: domain, source: .unicast)), .allForNow,
    ]

    @Test("--domain, --server, --no-local and --manual become the request; the config's port fills a manual target in")
    func request() async throws {
        let discovery = RecordedDiscovery(events: Self.found)
        var machine = RecordedMachine()
        machine.openclaw.gatewayPort = 18800
        let run = try await InProcessRun.run(
            ["browse", "--domain", "openclaw.internal", "--server", "127.0.0.1:5300", "--no-local", "--manual", "gw.example"],
            machine: machine, discovery: discovery)
        #expect(run.status == 0, "\(run.err)")
        let request = try #require(discovery.requests.first)
        #expect(discovery.requests.count == 1)
        #expect(!request.local && request.domains == [Self.domain])
        #expect(request.unicast.servers.map(\.description) == ["127.0.0.1#5300"])
        #expect(request.manual.map(\.port) == [18800] && request.manual.first?.host == "gw.example")
        #expect(request.unicast.tailscaleResolver == nil, "no Tailscale interface: Tailscale's resolver is not asked")
    }

    @Test("the table: one row per Gateway on stdout, decoded names first; exit 0")
    func table() async throws {
        let run = try await InProcessRun.run(["browse"], discovery: RecordedDiscovery(events: Self.found))
        #expect(run.status == 0)
        let rows = run.outLines
        #expect(rows.contains { $0.hasPrefix("Studio (OpenClaw)") && $0.contains("studio.local:18789") }, "\(run.out)")
        #expect(rows.contains { $0.hasPrefix("Attic") }, "\(run.out)")
        #expect(!run.out.contains("\u{1B}"), "a recorded terminal is not a TTY: no colour, no progress line")
    }

    @Test("--json: one clawnet.browse.v1 document with both beacons; jsonl: one event per line, allForNow last")
    func json() async throws {
        let document = try await InProcessRun.run(["browse", "--json"], discovery: RecordedDiscovery(events: Self.found))
        let parsed = try jsonObject(document.out)
        #expect(parsed["schema"] as? String == "clawnet.browse.v1")
        let instances = (parsed["beacons"] as? [[String: Any]])?.compactMap { $0["instance"] as? String }
        #expect(instances?.sorted() == ["Attic", "Studio (OpenClaw)"], "\(document.out)")

        let lines = try await InProcessRun.run(["browse", "--format", "jsonl"], discovery: RecordedDiscovery(events: Self.found))
        let events = try lines.outLines.map { try jsonObject($0)["event"] as? String }
        #expect(events == ["added", "added", "allForNow"], "\(lines.out)")
    }

    @Test("nothing found is exit 1; only mDNS asked and no avahi-daemon is exit 3, with the error and its fix on stderr")
    func statuses() async throws {
        let nothing = try await InProcessRun.run(["browse"], discovery: RecordedDiscovery(events: [.allForNow]))
        #expect(nothing.status == 1)
        let missing = DiscoveryIssue.noDaemon
        let noDaemon = try await InProcessRun.run(["browse"], discovery: RecordedDiscovery(events: [.error(missing), .allForNow]))
        #expect(noDaemon.status == 3, "\(noDaemon.err)")
        #expect(noDaemon.err.contains("error (mdns): avahi-daemon is not running") && noDaemon.err.contains("fix: start it"))
    }

    @Test("a discovery cut short by the timeout says so on stderr, with the timeout as typed")
    func timedOut() async throws {
        let run = try await InProcessRun.run(
            ["browse", "--timeout", "1500ms"], discovery: RecordedDiscovery(events: [.added(Self.beacon("Late"))], timesOut: true))
        #expect(run.status == 0)
        #expect(run.err.contains("note: stopped at the 1500ms timeout before every path reported everything"), "\(run.err)")
    }

    @Test("--server without a domain (none given, none configured) is a usage error, found while running: exit 2")
    func serverWithoutDomain() async throws {
        let run = try await InProcessRun.run(["browse", "--server", "127.0.0.1"], discovery: RecordedDiscovery(events: Self.found))
        #expect(run.status == 2)
        #expect(run.err.contains("--server needs a wide-area domain"), "\(run.err)")
    }
}
