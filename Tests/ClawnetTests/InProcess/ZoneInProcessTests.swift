import CommandTestSupport
import DNSSD
import Discovery
import Foundation
import Testing

@testable import Commands

/// zone generate, check and push run in-process: an inventory saved by an in-process browse,
/// this machine's Tailscale address recorded, the calendar fixed (the serial is known).
@Suite("zone commands in-process (recorded machine, fixed calendar)")
struct ZoneInProcessTests {
    static func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zone-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// What `browse --json` prints for `events`, saved as an inventory at `path`.
    static func inventory(_ events: [DiscoveryEvent], at path: String) async throws {
        let browse = try await InProcessRun.run(["browse", "--json"], discovery: RecordedDiscovery(events: events))
        try browse.out.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static let found: [DiscoveryEvent] = BrowseInProcessTests.found

    @Test("generate --inventory: the zone on stdout, ns1 at this machine's Tailscale address, today's first serial")
    func generateFromInventory() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await Self.inventory(Self.found, at: "\(directory)/fleet.json")
        let run = try await InProcessRun.run(
            ["zone", "generate", "--domain", "openclaw.internal", "--inventory", "\(directory)/fleet.json"], machine: .onTailnet())
        #expect(run.status == 0, "\(run.err)")
        let lines = run.outLines
        let head = [
            "$ORIGIN openclaw.internal.", "$TTL 60", "@ IN SOA ns1 hostmaster 2027010101 7200 3600 1209600 60", "@ IN NS ns1",
            "ns1 IN A 100.101.102.103",
        ]
        #expect(Array(lines.prefix(5)) == head, "\(run.out)")
        #expect(lines.contains(#"_openclaw-gw._tcp IN PTR Studio\032\(OpenClaw\)._openclaw-gw._tcp"#), "\(run.out)")
        #expect(lines.contains(#"_openclaw-gw._tcp IN PTR Attic._openclaw-gw._tcp"#), "\(run.out)")
    }

    @Test("generate --out: written once with the serial, then unchanged; a relative path starts in the working directory")
    func generateOut() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await Self.inventory(Self.found, at: "\(directory)/fleet.json")
        let arguments = ["zone", "generate", "--domain", "openclaw.internal", "--inventory", "\(directory)/fleet.json", "--out", "zone.db"]
        let first = try await InProcessRun.run(arguments, machine: .onTailnet(), workingDirectory: directory)
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.isEmpty && first.err.contains("wrote \(directory)/zone.db (serial 2027010101; 2 Gateways)\n"), "\(first.err)")
        let again = try await InProcessRun.run(arguments, machine: .onTailnet(), workingDirectory: directory)
        #expect(
            again.out.isEmpty && again.err.contains("unchanged: \(directory)/zone.db (serial 2027010101); nothing written\n"),
            "\(again.err)")
        let check = try await InProcessRun.run(
            ["zone", "check", "-", "--domain", "openclaw.internal"],
            standardInput: Array(try String(contentsOfFile: "\(directory)/zone.db", encoding: .utf8).utf8))
        #expect(check.status == 0, "\(check.out)")
    }

    @Test("generate --out with an inventory whose browse failed: exit 1, the notes and the error said, the zone left as it is")
    func generateRefused() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let failed = DiscoveryIssue(source: .unicast, kind: .dnsError, .resolvConf(problem: "127.0.0.1#5300 did not answer"))
        try await Self.inventory(
            [.added(BrowseInProcessTests.beacon("Studio")), .error(failed), .allForNow], at: "\(directory)/fleet.json")
        try "; the zone today\n".write(toFile: "\(directory)/zone.db", atomically: true, encoding: .utf8)
        let run = try await InProcessRun.run(
            ["zone", "generate", "--domain", "openclaw.internal", "--inventory", "\(directory)/fleet.json", "--out", "zone.db"],
            machine: .onTailnet(), workingDirectory: directory)
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        let source = "--inventory \(directory)/fleet.json"
        #expect(run.err.contains("note: \(source): the browse that wrote it reported unicast: 127.0.0.1#5300 did not answer"), "\(run.err)")
        #expect(run.err.contains("error: \(source) failed") && run.err.contains("so \(directory)/zone.db is left as it is"), "\(run.err)")
        #expect(try String(contentsOfFile: "\(directory)/zone.db", encoding: .utf8) == "; the zone today\n")
    }

    @Test("generate --corefile on a machine without a Tailscale address and without --bind: a usage error (exit 2), nothing written")
    func corefileNeedsAnAddress() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try await InProcessRun.run(
            [
                "zone", "generate", "--domain", "openclaw.internal", "--gateway", "host=studio,ip=10.0.0.5", "--ns-address", "10.0.0.5",
                "--out", "zone.db", "--corefile", "Corefile",
            ], workingDirectory: directory)
        #expect(run.status == 2, "only the user can give the address, as --ns-address: \(run.err)")
        #expect(run.err.contains("error: no address for CoreDNS to listen on") && run.err.contains("fix: give --bind IP"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/zone.db"))
    }

    @Test("push --from-browse --prune with a browse path that failed: exit 1 before the server is asked, the refusal said")
    func pushPruneRefused() async throws {
        let failed = DiscoveryIssue(source: .mdns, kind: .daemonLost, .daemonDisconnected(installed: true))
        let discovery = RecordedDiscovery(events: [.added(BrowseInProcessTests.beacon("Studio")), .error(failed), .allForNow])
        // 127.0.0.1:9 (discard): nothing answers there; the push must stop before asking.
        let run = try await InProcessRun.run(
            ["zone", "push", "--domain", "openclaw.internal", "--server", "127.0.0.1:9", "--from-browse", "--prune", "--timeout", "2s"],
            discovery: discovery)
        #expect(run.status == 1)
        #expect(run.err.contains("note: --from-browse: browse: lost the connection to avahi-daemon"), "\(run.err)")
        #expect(run.err.contains("error: --from-browse failed") && run.err.contains("every instance in openclaw.internal."), "\(run.err)")
        #expect(!run.out.contains("read "), "nothing was read from the server: \(run.out)")
        let request = try #require(discovery.requests.first)
        #expect(request.domains.isEmpty && request.local, "--from-browse browses local. and not the zone's own domain")
    }
}
