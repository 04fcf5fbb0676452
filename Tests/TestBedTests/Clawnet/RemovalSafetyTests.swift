import Foundation
import TestSupport
import Testing

/// A node without a system bus: browsing local. fails the way it fails with no D-Bus.
let noBus = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/clawnet-test-no-bus"]

/// A zone of its own to browse from (a LAN mirrored into another domain), with one Gateway.
let lanZone = openClawZone(
    [
        "a IN A 100.64.0.1", "_openclaw-gw._tcp IN PTR A-Gw._openclaw-gw._tcp", "A-Gw._openclaw-gw._tcp IN SRV 0 0 18789 a",
        #"A-Gw._openclaw-gw._tcp IN TXT "displayName=A-Gw" "role=gateway" "transport=gateway" "gatewayPort=18789""#,
    ], domain: "lan.internal")

/// Issue 18: "Nothing lost that clawnet did not write". A command that removes Gateways
/// (zone push --prune, zone generate --out) removes nothing on the word of a source that
/// failed, wholly or in part, or gave nothing; a replaced address is announced.
@Suite("Nothing removed on the word of a failed or empty source", .testBed, .serialized)
struct RemovalSafetyTests {
    /// BIND serving openclaw.internal (dynamic, holding A-Gw and B-Gw) and lan.internal (A-Gw only).
    func twoGateways(_ bed: TestBed, key: TestTSIGKey) async throws -> TestDNSServer {
        let dns = try await bed.startBIND(
            zones: ["openclaw.internal": emptyZone, "lan.internal": lanZone], keys: key.bindStatement,
            zoneOptions: "update-policy { grant \(key.name) zonesub ANY; }; allow-transfer { key \(key.name); };")
        let pushed = try await push(
            bed, dns, key: key, ["--gateway", "host=a,ip=100.64.0.1,name=A-Gw", "--gateway", "host=b,ip=100.64.0.2,name=B-Gw"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        return dns
    }

    @Test("zone push --from-browse --prune without D-Bus: exit 1 naming the failure, nothing sent, both Gateways stay (also --dry-run)")
    func pruneWithoutBus() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await twoGateways(bed, key: key)
        defer { dns.terminate() }
        let before = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        for extra in [[], ["--dry-run"]] {
            let result = try await bed.clawnet(
                [
                    "zone", "push", "--domain", "openclaw.internal", "--server", dns.endpoint, "--tsig-key", key.path, "--from-browse",
                    "--prune",
                ]
                    + extra, environment: noBus)
            #expect(result.status == 1, "\(extra): \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("--from-browse failed") && result.stderr.contains("D-Bus"), "\(result.stderr)")
            #expect(result.stderr.contains("every instance in openclaw.internal. is left as it is"), "\(result.stderr)")
            #expect(!result.stdout.contains("update delete") && !result.stderr.contains("pushed"), "\(result.stdout)")
        }
        #expect(try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key) == before)
    }

    @Test("one browse domain of two refused: prune stops (exit 1), the other domain's Gateway stays; with both working it is pruned")
    func partialBrowse() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await twoGateways(bed, key: key)
        defer { dns.terminate() }
        let before = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        let browse = ["--from-browse", "--no-local", "--browse-domain", "lan.internal", "--browse-server", dns.endpoint, "--prune"]
        // BIND does not serve other.internal: it answers REFUSED.
        let partial = try await push(bed, dns, key: key, browse + ["--browse-domain", "other.internal"])
        #expect(partial.status == 1, "\(partial.stdout) \(partial.stderr)")
        #expect(partial.stderr.contains("--from-browse failed") && partial.stderr.contains("other.internal"), "\(partial.stderr)")
        #expect(try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key) == before)

        let whole = try await push(bed, dns, key: key, browse)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stderr.contains("- B-Gw"), "the same browse without the failing domain prunes: \(whole.stderr)")
    }

    @Test("a browse server that never answers: prune stops (exit 1), every Gateway stays")
    func silentBrowseServer() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await twoGateways(bed, key: key)
        defer { dns.terminate() }
        let port = testPort()
        let silent = try bed.spawn(on: .node, [bed.python, bed.scripts + "/peers/hostile_peer.py", "udp-silent", "--port", String(port)])
        defer { silent.terminate() }
        try await silent.waitForOutput("ready")
        let before = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        let result = try await push(
            bed, dns, key: key,
            ["--from-browse", "--no-local", "--browse-domain", "lan.internal", "--browse-server", "127.0.0.1:\(port)", "--prune"])
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("--from-browse failed"), "\(result.stderr)")
        #expect(try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key) == before)
    }

    @Test(
        "an inventory that is empty, or whose browse saved errors, prunes nothing: exit 1, the zone as it was",
        arguments: [
            #"[]"#,
            #"[{"source":"mdns","kind":"busMissing","message":"the D-Bus system bus is not running"}]"#,
        ])
    func inventories(errors: String) async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await twoGateways(bed, key: key)
        defer { dns.terminate() }
        let before = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        let beacons =
            errors == "[]"
            ? ""
            : #"{"instance":"A-Gw","host":"a.local.","port":18789,"addresses":["100.64.0.1"],"txt":{"role":"gateway","displayName":"A-Gw"}}"#
        let file = "\(bed.directory)/fleet-\(uniqueTag()).json"
        try #"{"schema":"clawnet.browse.v1","domains":["local."],"elapsedMs":5,"beacons":[\#(beacons)],"errors":\#(errors)}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try await push(bed, dns, key: key, ["--inventory", file, "--prune"])
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("--inventory \(file)"), "\(result.stderr)")
        #expect(try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key) == before)
    }

    @Test("zone generate --from-browse --out without D-Bus: exit 1, the zone file as it was")
    func generateWithoutBus() async throws {
        let bed = try TestBed.current()
        let directory = try temporaryDirectory(bed)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let zone = directory + "/openclaw.internal.db"
        let base = ["zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--out", zone]
        #expect(try await bed.clawnet(base + ["--gateway", "host=a,ip=100.64.0.1,name=A-Gw"]).status == 0)
        let before = try String(contentsOfFile: zone, encoding: .utf8)
        let result = try await bed.clawnet(base + ["--from-browse"], environment: noBus)
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("--from-browse failed") && result.stderr.contains("\(zone) is left as it is"), "\(result.stderr)")
        #expect(try String(contentsOfFile: zone, encoding: .utf8) == before)
    }

    @Test("zone push replacing a host's address says so in its plan and in --dry-run, and the dry run's script says it too")
    func replacementAnnounced() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key, zone: openClawZone(["studio IN A 100.64.0.5"]))
        defer { dns.terminate() }
        let spec = ["--gateway", "host=studio,ip=100.64.0.7,name=Studio"]
        let dry = try await push(bed, dns, key: key, spec + ["--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr.contains("~ host studio: replaces A 100.64.0.5 with 100.64.0.7"), "\(dry.stderr)")
        #expect(dry.stdout.contains("; host studio.openclaw.internal. replaces A 100.64.0.5 with 100.64.0.7"), "\(dry.stdout)")
        let real = try await push(bed, dns, key: key, spec)
        #expect(real.status == 0, "\(real.stderr)")
        #expect(real.stderr.contains("~ host studio: replaces A 100.64.0.5 with 100.64.0.7"), "\(real.stderr)")
    }
}
