import Foundation
import TestSupport
import Testing

/// Instance names that must survive a zone file: spaces, dots, quotes, backslashes, zone-file
/// syntax, non-ASCII, emoji, 63 bytes.
let hostileNames = [
    "Studio (OpenClaw)", "Dots.In.Name v2.0", #"Quote "q" \ back"#, "$ORIGIN evil.", "$INCLUDE /etc/passwd",
    "semi;colon (x)", "@home", "Café Zürich", "🦞 Lobster Lab", "comma, slash/ tilde~ pipe|", String(repeating: "é", count: 31) + "x",
]

/// `--gateway` specs for the hostile names (commas escaped), with a full TXT each.
func hostileSpecs() -> [String] {
    hostileNames.enumerated().map { index, name in
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ",", with: "\\,")
        return
            "host=h\(index),ip=100.64.1.\(index + 1),name=\(escaped),display=\(escaped),tls=\(String(repeating: "d4", count: 32)),tailnet=h\(index).tail.ts.net,ssh=22,cli=/opt/openclaw/bin/openclaw"
    }
}

func temporaryDirectory(_ bed: TestBed) throws -> String {
    let directory = "\(bed.directory)/zones-\(uniqueTag())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return directory
}

@Suite("clawnet zone generate and check", .testBed)
struct ZoneCommandTests {
    @Test("named-checkzone, kzonecheck and ldns-read-zone accept every zone written, hostile names included")
    func validatorsAccept() async throws {
        let bed = try TestBed.current()
        let directory = try temporaryDirectory(bed)
        var zones: [String] = []
        for (index, spec) in hostileSpecs().enumerated() {
            let path = "\(directory)/z\(index).db"
            let result = try await bed.clawnet([
                "zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--gateway", spec, "--out", path,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            zones.append(path)
        }
        let all = "\(directory)/all.db"
        let combined = try await bed.clawnet(
            [
                "zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--ns-address", "fd7a:115c:a1e0::53",
                "--browse-records", "--out", all,
            ] + hostileSpecs().flatMap { ["--gateway", $0] })
        #expect(combined.status == 0, "\(combined.stderr)")
        zones.append(all)
        for zone in zones {
            let bind = try await runCommand("/usr/bin/env", ["named-checkzone", "openclaw.internal", zone])
            #expect(bind.status == 0, "named-checkzone \(zone): \(bind.stdout)")
            let knot = try await runCommand("/usr/bin/env", ["kzonecheck", "-o", "openclaw.internal.", zone])
            #expect(knot.status == 0, "kzonecheck \(zone): \(knot.stderr)")
            let ldns = try await runCommand("/usr/bin/env", ["ldns-read-zone", zone])
            #expect(ldns.status == 0 && ldns.stderr.isEmpty, "ldns-read-zone \(zone): \(ldns.stderr)")
            let check = try await bed.clawnet(["zone", "check", zone])
            #expect(check.status == 0, "clawnet zone check \(zone): \(check.stdout)")
        }
    }

    @Test("round trip: generate, serve with BIND, browse back: same names and TXT values")
    func roundTripThroughBIND() async throws {
        let bed = try TestBed.current()
        let directory = try temporaryDirectory(bed)
        let path = "\(directory)/openclaw.internal.db"
        let generated = try await bed.clawnet(
            ["zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--out", path]
                + hostileSpecs().flatMap { ["--gateway", $0] })
        #expect(generated.status == 0, "\(generated.stderr)")
        let dns = try await bed.startBIND(zones: ["openclaw.internal": try String(contentsOfFile: path, encoding: .utf8)])
        defer { dns.terminate() }
        let (_, document, _) = try await browseJSON(bed, ["--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint])
        let found = byInstance(beacons(document))
        #expect(Set(found.keys) == Set(hostileNames), "\(found.keys.sorted())")
        for (index, name) in hostileNames.enumerated() {
            let beacon = try #require(found[name])
            let txt = try #require(beacon["txt"] as? [String: String])
            #expect(txt["displayName"] == name)
            #expect(txt["gatewayTlsSha256"] == String(repeating: "d4", count: 32))
            #expect(txt["tailnetDns"] == "h\(index).tail.ts.net")
            #expect(txt["cliPath"] == "/opt/openclaw/bin/openclaw")
            #expect(beacon["host"] as? String == "h\(index).openclaw.internal.")
            #expect(beacon["addresses"] as? [String] == ["100.64.1.\(index + 1)"])
            #expect(strings(beacon["warnings"]).isEmpty, "\(name): \(strings(beacon["warnings"]))")
        }
    }

    @Test("browse --format json > fleet.json; zone generate --inventory fleet.json: the LAN beacons, unchanged, in a zone")
    func inventoryFromMDNS() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let names = ["Inventory \(tag) (OpenClaw)", "Inv.Dots \(tag)", "Café \(tag) 🦞"]
        var publishers: [ChildProcess] = []
        for name in names {
            publishers.append(
                try await bed.avahiPublish(
                    name: name,
                    txt: [
                        "displayName=\(name)", "role=gateway", "transport=gateway", "gatewayPort=18789", "sshPort=22", "custom=kept as is",
                    ]))
        }
        defer { publishers.forEach { $0.terminate() } }
        let directory = try temporaryDirectory(bed)
        let fleet = try await bed.clawnet(["browse", "--format", "json"])
        try fleet.stdout.write(toFile: "\(directory)/fleet.json", atomically: true, encoding: .utf8)
        #expect(byInstance(beacons(try jsonObject(fleet.stdout))).keys.filter { $0.contains(tag) }.count == 3)

        let path = "\(directory)/lan.internal.db"
        let generated = try await bed.clawnet([
            "zone", "generate", "--domain", "lan.internal", "--ns-address", "10.99.0.2", "--inventory", "\(directory)/fleet.json", "--out",
            path,
        ])
        #expect(generated.status == 0, "\(generated.stderr)")
        let dns = try await bed.startBIND(
            zones: ["lan.internal": try String(contentsOfFile: path, encoding: .utf8)], options: "max-records-per-type 0;")
        defer { dns.terminate() }
        let (_, document, _) = try await browseJSON(bed, ["--no-local", "--domain", "lan.internal", "--server", dns.endpoint])
        let found = byInstance(beacons(document))
        for name in names {
            let beacon = try #require(found[name], "\(found.keys.sorted())")
            let txt = try #require(beacon["txt"] as? [String: String])
            #expect(
                txt == [
                    "displayName": name, "role": "gateway", "transport": "gateway", "gatewayPort": "18789", "sshPort": "22",
                    "custom": "kept as is",
                ])
            #expect(beacon["host"] as? String == "gw.lan.internal.")
            #expect((beacon["addresses"] as? [String])?.contains("10.99.0.1") == true)
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("fe80"), "link-local addresses stay out of a wide-area zone")
    }

    @Test("--from-browse mirrors what mDNS finds now")
    func fromBrowse() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let publisher = try await bed.avahiPublish(name: "Mirror \(tag)", txt: ["role=gateway", "gatewayPort=18789"])
        defer { publisher.terminate() }
        let result = try await bed.clawnet([
            "zone", "generate", "--domain", "openclaw.internal", "--ns-address", "10.99.0.2", "--from-browse",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("_openclaw-gw._tcp IN PTR Mirror\\032\(tag)._openclaw-gw._tcp"), "\(result.stdout)")
        #expect(result.stdout.contains("Mirror\\032\(tag)._openclaw-gw._tcp IN SRV 0 0 18789 gw"))
    }

    @Test("--this-host on a tailnet machine: hostname, Tailscale addresses, port and the certificate's fingerprint (checked with openssl)")
    func thisHost() async throws {
        let bed = try TestBed.current()
        let home = try temporaryDirectory(bed)
        try FileManager.default.createDirectory(atPath: "\(home)/.openclaw/gateway/tls", withIntermediateDirectories: true)
        try "{ gateway: { port: 18790, tls: { enabled: true } } }".write(
            toFile: "\(home)/.openclaw/openclaw.json", atomically: true, encoding: .utf8)
        let cert = "\(home)/.openclaw/gateway/tls/gateway-cert.pem"
        let made = try await runCommand(
            "/usr/bin/env",
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(home)/key.pem",
                "-out", cert, "-days", "30", "-subj", "/CN=openclaw-gateway",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let der = try await runCommand("/bin/sh", ["-c", "openssl x509 -in \(cert) -noout -fingerprint -sha256"])
        let expected = der.stdout.split(separator: "=").last!.replacingOccurrences(of: ":", with: "").lowercased().trimmingCharacters(
            in: .whitespacesAndNewlines)

        let result = try await bed.clawnet(
            ["zone", "generate", "--domain", "openclaw.internal", "--this-host"], on: .ts, environment: ["HOME": home])
        #expect(result.status == 0, "\(result.stderr)")
        let host = String(ProcessInfo.processInfo.hostName.split(separator: ".").first ?? "").lowercased()
        #expect(result.stdout.contains("ns1 IN A 100.101.102.5"), "ns1 defaults to the Tailscale address")
        #expect(result.stdout.contains("IN AAAA fd7a:115c:a1e0::5"))
        #expect(result.stdout.contains("\(host)-gateway._openclaw-gw._tcp IN SRV 0 0 18790"), "\(result.stdout)")
        #expect(result.stdout.contains("\"gatewayTls=1\" \"gatewayTlsSha256=\(expected)\""), "fingerprint \(expected) in \(result.stdout)")
    }

    @Test("generating twice leaves the file untouched; the Corefile comes with next steps, once")
    func idempotentWithCorefile() async throws {
        let bed = try TestBed.current()
        let directory = try temporaryDirectory(bed)
        let zone = "\(directory)/openclaw.internal.db"
        let corefile = "\(directory)/Corefile"
        let arguments = [
            "zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--gateway", "host=studio,ip=100.64.0.10",
            "--out", zone, "--corefile", corefile, "--bind", "100.64.0.53",
        ]
        let first = try await bed.clawnet(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("wrote \(zone) (serial "))
        #expect(first.stderr.contains("Restrict to domain") && first.stderr.contains("coredns -conf \(corefile)"))
        let stanza = try String(contentsOfFile: corefile, encoding: .utf8)
        #expect(
            stanza.hasPrefix(
                "# clawnet zone generate: openclaw.internal (begin; clawnet rewrites the lines up to the end marker)\n"
                    + "openclaw.internal:53 {\n  bind 100.64.0.53\n  file \(zone) {\n    reload 10s\n  }"), "\(stanza)")
        let modified = try FileManager.default.attributesOfItem(atPath: zone)[.modificationDate] as? Date

        let second = try await bed.clawnet(arguments)
        #expect(second.stderr.contains("unchanged: \(zone)"))
        #expect(second.stderr.contains("unchanged: \(corefile)"))
        #expect(!second.stderr.contains("Restrict to domain"), "the next steps once, not on every run: \(second.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: zone)[.modificationDate] as? Date == modified)

        let changed = try await bed.clawnet(arguments + ["--gateway", "host=lab,ip=100.64.0.11"])
        #expect(changed.stderr.contains("wrote \(zone) (serial "))
        #expect(changed.stderr.contains(", was "))
    }

    @Test("zone check: exit 1 and JSON findings for a broken zone, 0 for a good one")
    func checkCommand() async throws {
        let bed = try TestBed.current()
        let directory = try temporaryDirectory(bed)
        let good = "\(directory)/good.db"
        let broken = "\(directory)/broken.db"
        _ = try await bed.clawnet([
            "zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--gateway", "host=studio,ip=100.64.0.10",
            "--out", good,
        ])
        let ok = try await bed.clawnet(["zone", "check", good])
        #expect(ok.status == 0, "\(ok.stdout)")
        #expect(ok.stdout.contains("PASS"))
        try (try String(contentsOfFile: good, encoding: .utf8)).replacingOccurrences(of: "studio IN A 100.64.0.10\n", with: "")
            .write(toFile: broken, atomically: true, encoding: .utf8)
        let bad = try await bed.clawnet(["zone", "check", broken, "--format", "json"])
        #expect(bad.status == 1)
        let report = try jsonObject(bad.stdout)
        #expect(report["schema"] as? String == "clawnet.zonecheck.v3")
        #expect(report["status"] as? String == "fail")
        let finding = try #require((report["findings"] as? [[String: Any]])?.first)
        #expect(finding["code"] as? String == "srvTargetWithoutAddress", "\(finding)")
        #expect(finding["line"] as? Int == 8, "the SRV line, once the host line is gone (under the content-hash line)")
        let missing = try await bed.clawnet(["zone", "check", "\(directory)/none.db"])
        #expect(missing.status == 2 && missing.stderr.contains("no such file"), "a named file that is missing is a usage error")
    }

    @Test("a stale server is detected: same serial with other content, and a serial it has not loaded")
    func staleServer() async throws {
        let bed = try TestBed.current()
        let directory = try temporaryDirectory(bed)
        let path = "\(directory)/openclaw.internal.db"
        let base = [
            "zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--gateway", "host=studio,ip=100.64.0.10",
            "--out", path,
        ]
        _ = try await bed.clawnet(base)
        let dns = try await bed.startBIND(zones: ["openclaw.internal": try String(contentsOfFile: path, encoding: .utf8)])
        defer { dns.terminate() }
        let fresh = try await bed.clawnet(["zone", "check", path, "--server", dns.endpoint])
        #expect(fresh.status == 0, "\(fresh.stdout)")
        #expect(fresh.stdout.contains("serves serial") && fresh.stdout.contains("the same 1 instance"))

        // Edited by hand, serial not bumped: the server keeps the old zone.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try
            (text
            + "_openclaw-gw._tcp IN PTR extra._openclaw-gw._tcp\nextra._openclaw-gw._tcp IN SRV 0 0 18789 studio\nextra._openclaw-gw._tcp IN TXT \"role=gateway\"\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let sameSerial = try await bed.clawnet(["zone", "check", path, "--server", dns.endpoint])
        #expect(sameSerial.status == 1)
        #expect(sameSerial.stdout.contains("like the file, but other content"), "\(sameSerial.stdout)")

        // Regenerated with a bumped serial, but the server was not reloaded.
        _ = try await bed.clawnet(base + ["--gateway", "host=lab,ip=100.64.0.11"])
        let notLoaded = try await bed.clawnet(["zone", "check", path, "--server", dns.endpoint])
        #expect(notLoaded.status == 1)
        #expect(notLoaded.stdout.contains("the server has not loaded this file"), "\(notLoaded.stdout)")
    }
}
