import DNSSD
import Foundation
import Glibc
import TestSupport
import Testing

/// Against the real validators and a real BIND: zone check refuses what they refuse, and any
/// instance name survives browse JSON → `zone generate --inventory` → zone → BIND → browse.
@Suite("zones against BIND, Knot and browse: agreement and exact names", .testBed)
struct ZoneExactnessTests {
    static let head = """
        $ORIGIN openclaw.internal.
        $TTL 60
        @ IN SOA ns1 hostmaster 2026112201 7200 3600 1209600 60
        @ IN NS ns1
        ns1 IN A 100.101.102.103

        """

    /// Zones that differ in one value: bad and good TTLs, and TXT records around the limits.
    static func cases() -> [(String, String)] {
        let ttls = [
            "abc", "99999999999", "4294967296", "1x", "60 extra", "1h30", "0x10", "1.5", "1hh", "7102w", "60", "1w2d", "1h30m", "0",
            "2147483648", "4294967295",
        ]
        let rest = head.split(separator: "\n").dropFirst(2).joined(separator: "\n") + "\n"
        var cases = ttls.map { ("$TTL \($0)", "$ORIGIN openclaw.internal.\n$TTL \($0)\n" + rest) }
        cases += ["99999999999", "1x", "4294967296", "2147483648", "3600"].map {
            ("record TTL \($0)", head + "h \($0) IN A 100.64.0.1\n")
        }
        func txt(_ count: Int, tail: Int) -> String {
            (0..<count).map { "\"k\(String(format: "%03d", $0))=" + String(repeating: "x", count: 240) + "\"" }.joined(separator: " ")
                + (tail > 0 ? " \"" + String(repeating: "y", count: tail) + "\"" : "")
        }
        // RDATA 300 x 246 = 73,800; 266 x 246 = 65,436 plus a string of 81 bytes (65,517: BIND refuses, Knot loads);
        // 266 x 246 (both load); 100 x 246.
        cases += [(300, 0), (266, 80), (266, 0), (100, 0)].map {
            ("TXT \($0.0) strings + \($0.1)", head + "t IN TXT \(txt($0.0, tail: $0.1))\n")
        }
        // BIND reads a label starting with \[ as a bitstring label; \091 is the same byte.
        cases += [("label \\[", head + "\\[x IN A 100.64.0.1\n"), ("label \\091", head + "\\091x IN A 100.64.0.1\n")]
        return cases
    }

    @Test("zone check fails exactly the zones named-checkzone or kzonecheck refuse (bad TTLs, oversized TXT)")
    func agreesWithValidators() async throws {
        let bed = try TestBed.current()
        let directory = try temporaryDirectory(bed)
        var disagreements: [String] = []
        for (index, (label, text)) in Self.cases().enumerated() {
            let path = "\(directory)/c\(index).db"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let bind = try await runCommand("/usr/bin/env", ["named-checkzone", "openclaw.internal", path])
            let knot = try await runCommand("/usr/bin/env", ["kzonecheck", "-o", "openclaw.internal.", path])
            let clawnet = try await bed.clawnet(["zone", "check", path, "--format", "json"])
            let refused = bind.status != 0 || knot.status != 0
            let findings = (try? jsonObject(clawnet.stdout))?["findings"] as? [[String: Any]] ?? []
            let failed = clawnet.status != 0 && findings.contains { $0["status"] as? String == "fail" }
            if refused != failed {
                disagreements.append(
                    "\(label): named-checkzone \(bind.status), kzonecheck \(knot.status), clawnet \(clawnet.status): "
                        + "\(clawnet.stdout.split(separator: "\n").filter { $0.contains("message") }.prefix(3))")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
    }

    @Test("any instance name (1 to 63 random bytes, all 256 values) and TXT value comes back from BIND exactly (property)")
    func exactRoundTrip() async throws {
        let bed = try TestBed.current()
        var random = SeededRandom()
        var names = Set<InstanceName>([try InstanceName(decoded: "@"), try InstanceName(decoded: "a\\001b"), try InstanceName(bytes: [1])])
        while names.count < 150 { names.insert(try InstanceName(bytes: random.bytes(Int.random(in: 1...63, using: &random)))) }
        var values: [[UInt8]: [UInt8]] = [:]
        let originals = try names.enumerated().map { index, name in
            let value = random.bytes(Int.random(in: 0...40, using: &random))
            values[name.bytes] = value
            return GatewayBeacon(
                instance: name, serviceType: .gateway, domain: .local, source: .mdns, host: "h\(index).local.", port: 18789,
                addresses: [IPAddress("100.64.\(index / 200).\(index % 200 + 1)")!],
                txt: try TXTRecord(strings: [Array("role=gateway".utf8), Array("note=".utf8) + value]))
        }
        // browse JSON, as `browse --format json` writes it.
        let directory = try temporaryDirectory(bed)
        let document: [String: Any] = [
            "schema": "clawnet.browse.v1", "domains": ["local."], "elapsedMs": 0, "errors": [] as [Any],
            "beacons": try originals.map { try JSONSerialization.jsonObject(with: JSONEncoder().encode($0)) },
        ]
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: "\(directory)/fleet.json"))
        let path = "\(directory)/exact.internal.db"
        let generated = try await bed.clawnet([
            "zone", "generate", "--domain", "exact.internal", "--ns-address", "100.64.0.53", "--inventory", "\(directory)/fleet.json",
            "--out", path,
        ])
        #expect(generated.status == 0, "\(generated.stderr) \(random.seedNote)")
        let dns = try await bed.startBIND(
            zones: ["exact.internal": try String(contentsOfFile: path, encoding: .utf8)], options: "max-records-per-type 0;")
        defer { dns.terminate() }
        let browsed = try await bed.clawnet(
            ["browse", "--format", "json", "--no-local", "--domain", "exact.internal", "--server", dns.endpoint, "--timeout", "30s"],
            timeout: .seconds(60))
        struct Document: Decodable { let beacons: [GatewayBeacon] }
        let found = try JSONDecoder().decode(Document.self, from: Data(browsed.stdout.utf8)).beacons
        let foundNames = Set(found.map(\.instance.bytes))
        let missing = names.filter { !foundNames.contains($0.bytes) }.map { SafeText.display($0.bytes) }
        let seen = "generate: \(generated.stderr.prefix(1000)); browse: \(browsed.status) \(browsed.stderr.prefix(1000))"
        #expect(
            missing.isEmpty && found.count == names.count,
            "\(missing.count) names did not come back, e.g. \(missing.prefix(5)); \(seen); \(random.seedNote)")
        for beacon in found {
            #expect(beacon.attributes["note"]?.value == values[beacon.instance.bytes], "\(beacon.instance.displayName) \(random.seedNote)")
        }
    }

    @Test("--from-browse: hostile beacons ('@', a contradicting port) do not stop the others; LAN addresses and silent Gateways named")
    func fromBrowseNotes() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let at = try await bed.avahiPublish(name: "@", txt: ["role=gateway", "gatewayPort=18789"])
        defer { at.terminate() }
        let other = try await bed.avahiPublish(name: "Mirror \(tag)", txt: ["role=gateway", "gatewayPort=18789"])
        defer { other.terminate() }
        // A port in TXT that contradicts the SRV: zone check would fail it, so it is skipped.
        let contradicting = try await bed.avahiPublish(name: "Contradicts \(tag)", txt: ["role=gateway", "gatewayPort=1"])
        defer { contradicting.terminate() }
        let directory = try temporaryDirectory(bed)
        let path = "\(directory)/lan.db"
        let result = try await bed.clawnet([
            "zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--from-browse", "--out", path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("Mirror\\032\(tag)._openclaw-gw._tcp IN SRV") && text.contains("\\064._openclaw-gw._tcp IN SRV"), "\(text)")
        #expect(result.stderr.contains("'Mirror \(tag)' is published with non-tailnet address(es) 10.99.0.1"), "\(result.stderr)")
        #expect(result.stderr.contains("'Mirror \(tag)' did not answer on port 18789"), "\(result.stderr)")
        #expect(result.stderr.contains("skipped 'Contradicts \(tag)': TXT gatewayPort 1 differs from SRV port 18789"), "\(result.stderr)")
        #expect(!text.contains("Contradicts"))
        let check = try await runCommand("/usr/bin/env", ["named-checkzone", "openclaw.internal", path])
        #expect(check.status == 0, "\(check.stdout)")

        let tailnetOnly = try await bed.clawnet([
            "zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--from-browse", "--tailnet-only",
        ])
        #expect(tailnetOnly.status == 0, "\(tailnetOnly.stderr)")
        #expect(tailnetOnly.stderr.contains("skipped 'Mirror \(tag)': it has no tailnet address"), "\(tailnetOnly.stderr)")
        #expect(!tailnetOnly.stdout.contains("Mirror"))
    }
}

/// File and address reproducers that need a machine of the test bed (the node has no
/// Tailscale address; advertise must not listen outside the test bed).
@Suite("files and addresses on test-bed machines", .testBed)
struct TestBedFileTests {
    @Test("--this-host on a machine without a Tailscale address: exit 1, nothing written (no dangling SRV)")
    func thisHostWithoutAddress() async throws {
        let bed = try TestBed.current()
        let directory = try temporaryDirectory(bed)
        let result = try await bed.clawnet([
            "zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--this-host", "--out", "\(directory)/z.db",
        ])
        #expect(result.status == 1 && result.stderr.contains("no Tailscale address"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/z.db"))
    }

    @Test("advertise --tls-dir whose certificate is a FIFO: an error at once, not a hang")
    func tlsDirectoryFIFO() async throws {
        let bed = try TestBed.current()
        let directory = try temporaryDirectory(bed)
        #expect(mkfifo("\(directory)/gateway-cert.pem", 0o600) == 0)
        try "key".write(toFile: "\(directory)/gateway-key.pem", atomically: true, encoding: .utf8)
        let result = try await bed.clawnet(
            ["advertise", "--name", "FIFO \(uniqueTag())", "--serve", "--tls-dir", directory], timeout: .seconds(20))
        #expect(result.status == 1 && result.stderr.contains("is a FIFO"), "\(result.status) \(result.stderr)")
    }
}
