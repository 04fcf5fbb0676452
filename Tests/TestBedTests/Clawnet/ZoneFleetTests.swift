import Foundation
import TestSupport
import Testing

/// The servers fleets already run, tried as an operator would: Knot with a key that may update
/// but not transfer, NSD (no dynamic updates), PowerDNS Authoritative with and without
/// `8bit-dns`. Serialized like ZonePushTests: each test starts its own servers.
@Suite("zone push, zone check and advertise against the servers fleets run", .testBed, .serialized)
struct ZoneFleetTests {
    static let studio = ["--gateway", "host=studio,ip=100.64.0.10,name=Studio (OpenClaw)", "--gateway", "host=plain,ip=100.64.0.11"]

    @Test("Knot's least-privilege ACL (update, no transfer): AXFR answered NOTAUTH (BADKEY), push reads the RRsets instead, sends nothing")
    func knotUpdateOnly() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey(name: "pusher", knotFormat: true)
        let knot = try await bed.startKnot(
            zones: ["openclaw.internal": emptyZone],
            extra: key.knotSection + "acl:\n  - id: pusher\n    key: \(key.name)\n    action: update\n", zoneOptions: ["acl: pusher"])
        defer { knot.terminate() }
        #expect(try await push(bed, knot, key: key, Self.studio).status == 0)
        // With no ledger of that push (another machine), the UPDATE planned without reading is refused and the zone is read.
        let first = try await bed.clawnet(
            ["zone", "push", "--domain", "openclaw.internal", "--server", knot.endpoint, "--tsig-key", key.path] + Self.studio,
            environment: ["XDG_STATE_HOME": try temporaryDirectory(bed)])
        #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
        #expect(first.stderr.contains("AXFR refused (NOTAUTH (BADKEY)); asked the RRsets of the service type"), "\(first.stderr)")
        #expect(!(first.stdout + first.stderr).contains("does not know"), "a refused transfer is not an unknown key: \(first.stderr)")
        #expect(first.stderr.contains("nothing sent"), "\(first.stdout)\n\(first.stderr)")
        let check = try await bed.clawnet([
            "zone", "check", "--axfr", "--domain", "openclaw.internal", "--server", knot.endpoint, "--tsig-key", key.path,
        ])
        #expect(check.status == 1)
        #expect(
            check.stdout.contains(
                "refuses zone transfers of openclaw.internal. (it answered NOTAUTH (BADKEY): a Knot acl without `transfer`)"),
            "\(check.stdout)")
        #expect(!(first.stdout + first.stderr + check.stdout + check.stderr).contains(key.secret))
    }

    @Test("NSD takes no dynamic updates: NOTIMP is named with what it means, and the fix is a primary that takes them or the file")
    func nsdNotImplemented() async throws {
        let bed = try TestBed.current()
        let nsd = try await bed.startNSD(zones: ["openclaw.internal": emptyZone])
        defer { nsd.terminate() }
        let result = try await push(bed, nsd, key: nil, Self.studio)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("answered NOTIMP (not implemented) to the UPDATE")
                && result.stderr.contains("this server takes no dynamic updates at all"), "\(result.stderr)")
        #expect(result.stderr.contains("zone generate --out"), "\(result.stderr)")
        #expect(!result.stderr.contains("secondary"), "NSD is not called a secondary: \(result.stderr)")
    }

    @Test(
        "PowerDNS without 8bit-dns: push works (one UPDATE, then nothing), but browse, zone check and doctor name the cause of the SERVFAIL"
    )
    func powerDNSWithout8bit() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let pdns = try await bed.startPowerDNS(zones: ["openclaw.internal": emptyZone], key: key)
        defer { pdns.terminate() }
        let first = try await push(bed, pdns, key: key, Self.studio)
        #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)\n\(pdns.process.outputTail)")
        #expect(first.stderr.contains("pushed 4 changes to \(pdns.label) in 1 UPDATE"), "\(first.stderr)")
        let again = try await push(bed, pdns, key: key, Self.studio)
        #expect(again.stderr.contains("nothing sent"), "\(again.stdout)\n\(again.stderr)")

        let (_, document, _) = try await browseJSON(bed, ["--no-local", "--domain", "openclaw.internal", "--server", pdns.endpoint])
        #expect(Set(byInstance(beacons(document)).keys) == ["plain-gateway"], "\(beacons(document))")
        let issue = errors(document).first { $0["kind"] as? String == "eightBitNames" }
        #expect((issue?["message"] as? String)?.contains("'Studio (OpenClaw)' is listed by PTR, but its SRV question got SERVFAIL") == true)
        #expect((issue?["fix"] as? String)?.contains("8bit-dns=yes") == true, "\(errors(document))")
        #expect(!errors(document).contains { ($0["message"] as? String)?.contains("has no SRV record") == true }, "\(errors(document))")

        let check = try await bed.clawnet([
            "zone", "check", "--axfr", "--domain", "openclaw.internal", "--server", pdns.endpoint, "--tsig-key", key.path, "--format",
            "json",
        ])
        #expect(check.status == 1)
        let findings = try jsonObject(check.stdout)["findings"] as? [[String: Any]] ?? []
        let refused = findings.first { $0["code"] as? String == "eightBitNamesRefused" }
        #expect((refused?["fix"] as? String)?.contains("8bit-dns=yes") == true, "\(check.stdout)")

        let doctor = try await bed.clawnet([
            "doctor", "--no-local", "--domain", "openclaw.internal", "--server", pdns.endpoint, "--check", "dns.widearea", "--no-color",
        ])
        #expect(doctor.stdout.contains("8bit-dns=yes"), "\(doctor.stdout)")
    }

    @Test("PowerDNS with 8bit-dns: push, browse, zone check --axfr and advertise --domain (registered, then withdrawn on SIGTERM)")
    func powerDNSPrimary() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let pdns = try await bed.startPowerDNS(zones: ["openclaw.internal": emptyZone], key: key, eightBitDNS: true)
        defer { pdns.terminate() }
        let specs = hostileSpecs().prefix(4).flatMap { ["--gateway", $0] }
        let first = try await push(bed, pdns, key: key, Array(specs))
        #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
        #expect(first.stderr.contains("in 1 UPDATE"), "\(first.stderr)")
        let again = try await push(bed, pdns, key: key, Array(specs))
        #expect(again.stderr.contains("nothing sent"), "\(again.stdout)\n\(again.stderr)")
        let (_, document, _) = try await browseJSON(bed, ["--no-local", "--domain", "openclaw.internal", "--server", pdns.endpoint])
        #expect(byInstance(beacons(document)).count == 4, "\(beacons(document))\n\(errors(document))")
        let check = try await bed.clawnet([
            "zone", "check", "--axfr", "--domain", "openclaw.internal", "--server", pdns.endpoint, "--tsig-key", key.path,
        ])
        #expect(!check.stdout.contains("FAIL"), "\(check.stdout)")
        #expect(
            check.stdout.contains("4 instances of _openclaw-gw._tcp.openclaw.internal. with SRV, TXT and addresses"), "\(check.stdout)")

        let name = "Wide \(uniqueTag()) (OpenClaw)"
        let port = testPort()
        let advertiser = try bed.spawnClawnet(
            [
                "advertise", "--name", name, "--port", String(port), "--serve", "--bind", "127.0.0.1", "--domain", "openclaw.internal",
                "--server", pdns.endpoint, "--tsig-key", key.path, "--address", "127.0.0.1", "--no-local",
            ], environment: ["XDG_STATE_HOME": "\(bed.directory)/state-\(uniqueTag())"])
        try await advertiser.waitForOutput("registered \"\(name)\" in openclaw.internal.", timeout: .seconds(20))
        let (_, live, _) = try await browseJSON(bed, ["--no-local", "--domain", "openclaw.internal", "--server", pdns.endpoint])
        #expect(byInstance(beacons(live))[name]?["port"] as? Int == port, "\(beacons(live))")
        #expect(try await advertiser.stop(signal: SIGTERM) == 0)
        #expect(advertiser.stderr.contains("withdrawn from openclaw.internal.: \(name)"), "\(advertiser.output)")
        let (_, after, _) = try await browseJSON(bed, ["--no-local", "--domain", "openclaw.internal", "--server", pdns.endpoint])
        #expect(byInstance(beacons(after))[name] == nil && byInstance(beacons(after)).count == 4, "\(beacons(after))")
    }

    @Test("zone generate --coredns auto and secondary write the Corefile forms; secondary needs --primary")
    func corefileForms() async throws {
        let bed = try TestBed.current()
        let directory = "\(bed.directory)/coredns-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let base = [
            "zone", "generate", "--domain", "openclaw.internal", "--gateway", "host=studio,ip=100.64.0.10", "--bind", "100.64.0.53",
            "--ns-address", "100.64.0.53",
        ]
        let auto = try await bed.clawnet(
            base + ["--out", "\(directory)/openclaw.internal.db", "--corefile", "\(directory)/Corefile.auto", "--coredns", "auto"])
        #expect(auto.status == 0, "\(auto.stderr)")
        let autoText = try String(contentsOfFile: "\(directory)/Corefile.auto", encoding: .utf8)
        #expect(autoText.contains("  auto {\n    directory \(directory) ^([^.].*)\\.db$ {1}\n    reload 10s\n  }"), "\(autoText)")
        let secondary = try await bed.clawnet(
            base + [
                "--out", "\(directory)/openclaw.internal.db", "--corefile", "\(directory)/Corefile.secondary", "--coredns", "secondary",
                "--primary", "100.64.0.1", "--primary", "100.64.0.2:5353",
            ])
        #expect(secondary.status == 0, "\(secondary.stderr)")
        let secondaryText = try String(contentsOfFile: "\(directory)/Corefile.secondary", encoding: .utf8)
        #expect(secondaryText.contains("  secondary {\n    transfer from 100.64.0.1 100.64.0.2:5353\n  }"), "\(secondaryText)")
        #expect(secondary.stderr.contains("the primary must allow AXFR from CoreDNS's address"), "\(secondary.stderr)")
        let missing = try await bed.clawnet(
            base + ["--out", "\(directory)/x.db", "--corefile", "\(directory)/C", "--coredns", "secondary"])
        #expect(missing.status == 2 && missing.stderr.contains("--coredns secondary needs --primary"), "\(missing.stderr)")
    }
}
