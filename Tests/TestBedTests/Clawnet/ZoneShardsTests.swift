import Foundation
import TestSupport
import Testing

/// `zone push` with several `--domain`: a fleet in shards, pushed in one run into the zones of
/// one BIND primary, each Gateway into the zone its inventory beacon names.
@Suite("zone push into several zones of one primary", .testBed, .serialized)
struct ZoneShardsTests {
    static let zones = ["eu.openclaw.internal", "us.openclaw.internal"]

    /// A browse document whose beacons name their zone (`domain`).
    static func inventory(_ beacons: [(instance: String, domain: String, address: String)]) -> String {
        let items = beacons.map { beacon in
            #"{"instance":"\#(beacon.instance)","serviceType":"_openclaw-gw._tcp","domain":"\#(beacon.domain)","sources":["mdns"],"#
                + #""host":"\#(beacon.instance.lowercased().filter(\.isLetter)).local.","port":18789,"addresses":["\#(beacon.address)"],"#
                + #""txt":{"role":"gateway","transport":"gateway","gatewayPort":"18789"}}"#
        }
        return #"{"schema":"clawnet.browse.v1","beacons":[\#(items.joined(separator: ","))]}"#
    }

    func startPrimary(_ bed: TestBed, key: TestTSIGKey) async throws -> TestDNSServer {
        try await bed.startBIND(
            zones: Dictionary(uniqueKeysWithValues: Self.zones.map { ($0, openClawZone([], domain: $0)) }), keys: key.bindStatement,
            zoneOptions: "update-policy { grant \(key.name) zonesub ANY; }; allow-transfer { key \(key.name); };")
    }

    func write(_ text: String, in bed: TestBed) throws -> String {
        let path = "\(bed.directory)/shards-\(uniqueTag()).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func pushZones(
        _ bed: TestBed, _ server: TestDNSServer, key: TestTSIGKey, _ inventory: String, zones: [String] = zones, _ extra: [String] = []
    ) async throws -> CommandResult {
        try await bed.clawnet(
            ["zone", "push", "--server", server.endpoint, "--tsig-key", key.path, "--inventory", inventory]
                + zones.flatMap { ["--domain", $0] } + extra)
    }

    @Test("each Gateway lands in the zone its beacon names; beacons of other domains are named and go nowhere; a rerun sends nothing")
    func eachInItsZone() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await startPrimary(bed, key: key)
        defer { dns.terminate() }
        let inventory = try write(
            Self.inventory([
                ("Paris (OpenClaw)", "eu.openclaw.internal.", "100.64.1.1"), ("Berlin (OpenClaw)", "eu.openclaw.internal.", "100.64.1.2"),
                ("Denver (OpenClaw)", "us.openclaw.internal.", "100.64.2.1"), ("Kitchen (OpenClaw)", "local.", "192.168.1.20"),
            ]), in: bed)
        let first = try await pushZones(bed, dns, key: key, inventory)
        let seen = "status \(first.status)\nstdout:\n\(first.stdout)\nstderr:\n\(first.stderr)"
        #expect(first.status == 0, "\(seen)")
        #expect(first.stderr.contains("pushed 4 changes to \(dns.label) in 1 UPDATE for eu.openclaw.internal."), "\(seen)")
        #expect(first.stderr.contains("pushed 2 changes to \(dns.label) in 1 UPDATE for us.openclaw.internal."), "\(seen)")
        #expect(first.stderr.contains("1 Gateway of local. in --inventory \(inventory) is in no zone of --domain"), "\(seen)")
        #expect(!(first.stdout + first.stderr).contains(key.secret))

        let eu = try await bed.kdigTransfer(dns, zone: "eu.openclaw.internal", key: key).filter { $0.contains(" PTR ") }
        let us = try await bed.kdigTransfer(dns, zone: "us.openclaw.internal", key: key).filter { $0.contains(" PTR ") }
        #expect(eu.count == 2 && eu.contains { $0.contains("Paris") } && eu.contains { $0.contains("Berlin") }, "\(eu)")
        #expect(us.count == 1 && us.contains { $0.contains("Denver") }, "\(us)")
        #expect(!(eu + us).contains { $0.contains("Kitchen") }, "a local. beacon is in no zone: \(eu + us)")

        let again = try await pushZones(bed, dns, key: key, inventory, ["--verbose"])
        #expect(again.status == 0, "\(again.stdout)\n\(again.stderr)")
        #expect(again.stderr.components(separatedBy: "nothing sent").count - 1 == 2, "\(again.stderr)")
        #expect(!again.stderr.contains("UPDATE eu.") && !again.stderr.contains("UPDATE us."), "no UPDATE is sent: \(again.stderr)")
    }

    @Test("a zone the primary does not serve is named with its error (exit 1); the other zones still get theirs")
    func unservedZoneNamed() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await startPrimary(bed, key: key)
        defer { dns.terminate() }
        let inventory = try write(
            Self.inventory([
                ("Paris (OpenClaw)", "eu.openclaw.internal.", "100.64.1.1"), ("Lima (OpenClaw)", "sa.openclaw.internal.", "100.64.3.1"),
            ]),
            in: bed)
        let result = try await pushZones(bed, dns, key: key, inventory, zones: ["sa.openclaw.internal", "eu.openclaw.internal"])
        let seen = "status \(result.status)\nstdout:\n\(result.stdout)\nstderr:\n\(result.stderr)"
        #expect(result.status == 1, "\(seen)")
        #expect(result.stderr.contains("error: sa.openclaw.internal.: "), "\(seen)")
        #expect(result.stderr.contains("pushed 2 changes to \(dns.label) in 1 UPDATE for eu.openclaw.internal."), "\(seen)")
        let eu = try await bed.kdigTransfer(dns, zone: "eu.openclaw.internal", key: key)
        #expect(eu.contains { $0.contains(" PTR ") && $0.contains("Paris") }, "\(eu)")
    }

    @Test(
        "several --domain: the same zone twice, or a source that names no zone, is a usage error (exit 2)",
        arguments: [
            (
                ["--domain", "eu.openclaw.internal", "--domain", "EU.openclaw.internal.", "--inventory", "-"],
                "--domain eu.openclaw.internal. is given twice"
            ),
            (
                ["--domain", "eu.openclaw.internal", "--domain", "us.openclaw.internal", "--gateway", "host=a,ip=100.64.0.1"],
                "name no zone"
            ),
            (["--domain", "eu.openclaw.internal", "--domain", "us.openclaw.internal", "--this-host"], "name no zone"),
            (["--inventory", "-"], "Missing expected argument '--domain <DOMAIN>'"),
        ])
    func usage(arguments: [String], expected: String) async throws {
        let bed = try TestBed.current()
        let result = try await bed.clawnet(["zone", "push", "--server", "127.0.0.1"] + arguments, timeout: .seconds(20))
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
    }
}
