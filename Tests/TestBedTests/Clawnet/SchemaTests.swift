import Foundation
import TestSupport
import Testing

/// Checks `output` against a schema in docs/schemas with python-jsonschema, strictly: every
/// field clawnet prints must be documented there (scripts/peers/validate_schema.py).
func expectMatches(_ output: String, _ schema: String, lines: Bool = false, _ what: String, bed: TestBed) async throws {
    let file = "\(bed.directory)/schema-\(uniqueTag()).json"
    try output.write(toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    let arguments = ["\(packageRoot)/scripts/peers/validate_schema.py", "--strict"] + (lines ? ["--lines"] : []) + [schema, file]
    let result = try await runCommand(bed.python, arguments)
    #expect(
        result.status == 0, "\(what) does not match \(schema):\n\(result.stdout)\(result.stderr)\n--- the output:\n\(output.prefix(3000))")
}

/// Real output of the binary against the published schemas: browse (document and events),
/// doctor, preflight, zone check, in the situations that fill their optional fields.
@Suite("JSON output matches docs/schemas (python-jsonschema, strict)", .testBed)
struct SchemaTests {
    @Test("the schemas are valid JSON Schema 2020-12")
    func metaschema() async throws {
        let bed = try TestBed.current()
        let result = try await runCommand(bed.python, ["\(packageRoot)/scripts/peers/validate_schema.py", "--check-schemas"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// A Gateway seen by mDNS and in a zone (merged: aliases, resolvers, interfaces), a manual
    /// target (domain null), and a domain that does not exist (an error with its domain).
    func browseArguments(_ bed: TestBed, _ body: ([String], String) async throws -> Void) async throws {
        let tag = uniqueTag()
        let name = "Schema Studio \(tag) (OpenClaw)"
        let escaped = name.replacingOccurrences(of: " ", with: "\\032").replacingOccurrences(of: "(", with: "\\(").replacingOccurrences(
            of: ")", with: "\\)")
        // A port and a fingerprint of this test's own: tests running beside it publish on the same
        // host, and one listener (address and port) or one certificate is one Gateway.
        let port = testPort()
        let tagHex = tag.utf8.map { String($0, radix: 16) }.joined()
        let fingerprint = String((tagHex + String(repeating: "5c", count: 32)).prefix(64))
        let txt = [
            "displayName=Schema Studio \(tag)", "role=gateway", "transport=gateway", "gatewayPort=\(port)", "gatewayTls=1",
            "gatewayTlsSha256=\(fingerprint)", "sshPort=22",
        ]
        let zone = openClawZone([
            "gw IN A \(bed.ip(.gw))",
            "_openclaw-gw._tcp IN PTR \(escaped)._openclaw-gw._tcp",
            "\(escaped)._openclaw-gw._tcp IN SRV 0 0 \(port) gw",
            "\(escaped)._openclaw-gw._tcp IN TXT \(txt.map { "\"\($0)\"" }.joined(separator: " "))",
        ])
        let dns = try await bed.startBIND(zones: ["openclaw.internal": zone])
        defer { dns.terminate() }
        let publisher = try await bed.avahiPublish(name: name, port: port, txt: txt)
        defer { publisher.terminate() }
        try await body(
            [
                "--domain", "openclaw.internal", "--domain", "absent-\(tag).internal", "--server", dns.endpoint,
                "--manual", "127.0.0.1:1", "--timeout", "10s",
            ], name)
    }

    @Test("browse --format json: merged, unicast, manual beacons and errors")
    func browseDocument() async throws {
        let bed = try TestBed.current()
        try await browseArguments(bed) { arguments, name in
            let result = try await bed.clawnet(["browse", "--format", "json"] + arguments, timeout: .seconds(30))
            #expect(result.status == 0, "\(result.stderr)")
            try await expectMatches(result.stdout, "clawnet.browse.v1", "browse --format json", bed: bed)
            // The optional parts were really there to be checked.
            let document = try jsonObject(result.stdout)
            let merged = beacons(document).first { $0["instance"] as? String == name }
            // Every beacon in brief when they did not merge: which path lost its addresses.
            let seen = beacons(document).map { "\($0["id"] ?? "?") \($0["sources"] ?? "?") \($0["addresses"] ?? "?")" }
            #expect(
                merged?["aliases"] != nil && merged?["resolvers"] != nil && strings(merged?["interfaces"]) == ["eth0"],
                "\(String(describing: merged))\nbeacons: \(seen)\nerrors: \(errors(document))")
            #expect(beacons(document).contains { $0["domain"] is NSNull }, "a manual beacon")
            #expect(errors(document).contains { $0["domain"] is String }, "an error about a domain: \(errors(document))")
        }
    }

    @Test("browse --format jsonl: every line is a clawnet.browse-event.v1")
    func browseEvents() async throws {
        let bed = try TestBed.current()
        try await browseArguments(bed) { arguments, _ in
            let result = try await bed.clawnet(["browse", "--format", "jsonl"] + arguments, timeout: .seconds(30))
            #expect(result.status == 0, "\(result.stderr)")
            try await expectMatches(result.stdout, "clawnet.browse-event.v1", lines: true, "browse --format jsonl", bed: bed)
            let events = Set(try result.stdout.split(separator: "\n").map { try jsonObject(String($0))["event"] as? String ?? "" })
            #expect(events.isSuperset(of: ["added", "error", "allForNow"]), "\(events)")
        }
    }

    @Test("browse on a machine without D-Bus: the errors, exit 3")
    func browseWithoutDBus() async throws {
        let bed = try TestBed.current()
        let result = try await bed.clawnet(["browse", "--format", "json"], on: .bare)
        #expect(result.status == 3, "\(result.stderr)")
        try await expectMatches(result.stdout, "clawnet.browse.v1", "browse on bare", bed: bed)
    }

    @Test("doctor --format json: a stand-in Gateway found by mDNS, every layer probed")
    func doctorWithGateway() async throws {
        let bed = try TestBed.current()
        let name = "Schema Gateway \(uniqueTag())"
        let port = testPort()
        let gateway = try bed.spawnClawnet(["advertise", "--name", name, "--port", String(port), "--serve", "--tls"], on: .gw)
        defer { gateway.terminate() }
        try await gateway.waitForOutput("established: \(name)", timeout: .seconds(20))
        try await bed.waitUntilHeard(name: name, from: .gw)
        // 15 s: discovery has half of it to find the name by mDNS, which a loaded machine needs.
        let result = try await bed.clawnet(["doctor", name, "--format", "json", "--timeout", "15s"], timeout: .seconds(60))
        try await expectMatches(result.stdout, "clawnet.doctor.v1", "doctor with a Gateway", bed: bed)
        let document = try jsonObject(result.stdout)
        let entry = (document["gateways"] as? [[String: Any]])?.first
        #expect(entry?["beacon"] != nil, "the Gateway's beacon is in the document: \(result.stdout.prefix(2000))")
        #expect((entry?["checks"] as? [[String: Any]])?.count == 9, "gw.dns through gw.connect")
    }

    @Test("doctor --format json on a machine without D-Bus: failures, fixes, a diagnosis")
    func doctorWithoutDBus() async throws {
        let bed = try TestBed.current()
        let result = try await bed.clawnet(["doctor", "--format", "json", "--timeout", "3s"], on: .bare, timeout: .seconds(40))
        #expect(result.status == 1)
        try await expectMatches(result.stdout, "clawnet.doctor.v1", "doctor on bare", bed: bed)
        #expect(((try jsonObject(result.stdout))["diagnosis"] as? [[String: Any]])?.isEmpty == false)
    }

    @Test(
        "preflight --format json: passing, failing, and missing prerequisites",
        arguments: [
            (TestBed.Host.node, ["--require", "mdns"], Int32(0)),
            (TestBed.Host.bare, ["--require", "mdns", "--require", "wide-area"], Int32(3)),
            (TestBed.Host.bare, ["--require", "gateway"], Int32(1)),
        ])
    func preflight(host: TestBed.Host, requirements: [String], exitCode: Int32) async throws {
        let bed = try TestBed.current()
        let result = try await bed.clawnet(["preflight", "--format", "json"] + requirements, on: host, timeout: .seconds(30))
        #expect(result.status == exitCode, "\(result.stdout)\(result.stderr)")
        try await expectMatches(result.stdout, "clawnet.preflight.v2", "preflight \(requirements) on \(host)", bed: bed)
        #expect((try jsonObject(result.stdout))["exitCode"] as? Int == Int(exitCode))
    }

    @Test("zone check --format json: a good zone from standard input, a broken file, and a live server")
    func zoneCheck() async throws {
        let bed = try TestBed.current()
        let generate =
            "\(ClawnetBinary.path) zone generate --domain openclaw.internal --gateway host=studio,ip=100.101.102.103 --ns-address 100.101.102.103"
        let piped = try await runCommand("/bin/sh", ["-c", "\(generate) 2>/dev/null | \(ClawnetBinary.path) zone check - --format json"])
        #expect(piped.status == 0, "\(piped.stderr)")
        try await expectMatches(piped.stdout, "clawnet.zonecheck.v3", "zone check - (a zone clawnet wrote)", bed: bed)
        #expect((try jsonObject(piped.stdout))["file"] as? String == "-")

        let broken = "\(bed.directory)/broken-\(uniqueTag()).db"
        try openClawZone(["_openclaw-gw._tcp IN PTR ghost._openclaw-gw._tcp", "this line is not a record"]).write(
            toFile: broken, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let dns = try await bed.startBIND(zones: ["openclaw.internal": studioZone])
        defer { dns.terminate() }
        let result = try await bed.clawnet(["zone", "check", broken, "--format", "json", "--server", dns.endpoint])
        #expect(result.status == 1)
        try await expectMatches(result.stdout, "clawnet.zonecheck.v3", "zone check of a broken zone", bed: bed)
        let findings = (try jsonObject(result.stdout))["findings"] as? [[String: Any]] ?? []
        #expect(findings.contains { $0["line"] is Int } && findings.contains { $0["line"] is NSNull }, "\(findings)")
        let codes = Set(findings.compactMap { $0["code"] as? String })
        #expect(codes.isSuperset(of: ["syntax", "srvMissing"]), "\(findings)")
    }
}
