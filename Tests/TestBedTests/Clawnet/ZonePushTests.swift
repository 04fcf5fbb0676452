import Foundation
import TestSupport
import Testing

/// The zone the operator's server already has: SOA, NS, ns1 and nothing of OpenClaw's.
let emptyZone = openClawZone([])

/// BIND as a dynamic primary: the key may change anything in the zone and transfer it.
func dynamicBIND(_ bed: TestBed, key: TestTSIGKey, zone: String = emptyZone, policy: String? = nil, options: String = "") async throws
    -> TestDNSServer
{
    try await bed.startBIND(
        zones: ["openclaw.internal": zone], options: options, keys: key.bindStatement,
        zoneOptions: "update-policy { \(policy ?? "grant \(key.name) zonesub ANY;") }; allow-transfer { key \(key.name); };")
}

func push(_ bed: TestBed, _ server: TestDNSServer, key: TestTSIGKey?, _ arguments: [String]) async throws -> CommandResult {
    try await bed.clawnet(
        ["zone", "push", "--domain", "openclaw.internal", "--server", server.endpoint] + (key.map { ["--tsig-key", $0.path] } ?? [])
            + arguments)
}

/// Serialized: each test starts its own BIND or Knot (a secondary test three); one at a time keeps the
/// suite from crowding a loaded 2-core machine.
@Suite("clawnet zone push against BIND and Knot", .testBed, .serialized)
struct ZonePushTests {
    @Test("push → AXFR → browse: hostile names survive unchanged; a second push sends nothing; zone check --axfr passes")
    func pushToBIND() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key)
        defer { dns.terminate() }
        let specs = hostileSpecs().flatMap { ["--gateway", $0] }
        let first = try await push(bed, dns, key: key, specs)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("pushed \(hostileNames.count * 2) changes to \(dns.label) in 1 UPDATE"), "\(first.stderr)")
        #expect(!(first.stdout + first.stderr).contains(key.secret))

        let second = try await push(bed, dns, key: key, specs + ["--verbose"])
        #expect(second.status == 0)
        #expect(
            second.stderr.contains("unchanged: \(dns.label) serves these \(hostileNames.count) Gateways as they are; nothing sent"),
            "\(second.stderr)")
        #expect(!second.stderr.contains("UPDATE openclaw.internal."), "no UPDATE is sent: \(second.stderr)")
        #expect(!(second.stdout + second.stderr).contains(key.secret))

        let transferred = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        #expect(transferred.filter { $0.contains(" PTR ") }.count == hostileNames.count)

        let check = try await bed.clawnet([
            "zone", "check", "--axfr", "--domain", "openclaw.internal", "--server", dns.endpoint, "--tsig-key", key.path,
        ])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(!check.stdout.contains("FAIL"), "\(check.stdout)")

        let (_, document, _) = try await browseJSON(bed, ["--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint])
        let found = byInstance(beacons(document))
        #expect(Set(found.keys) == Set(hostileNames), "\(found.keys.sorted())")
        for name in hostileNames {
            let txt = try #require(found[name]?["txt"] as? [String: String])
            #expect(txt["displayName"] == name)
            #expect(txt["gatewayTlsSha256"] == String(repeating: "d4", count: 32))
        }
    }

    @Test("exactly what zone generate writes: the pushed records equal the generated zone's, name for name")
    func sameAsGenerate() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key)
        defer { dns.terminate() }
        let specs = hostileSpecs().prefix(4).flatMap { ["--gateway", $0] }
        let pushed0 = try await push(bed, dns, key: key, Array(specs))
        #expect(pushed0.status == 0, "\(pushed0.stderr)")
        let generated = try await bed.clawnet(
            ["zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.101.102.103"] + specs)
        let reference = try await bed.startBIND(
            zones: ["openclaw.internal": generated.stdout + "\n"], keys: key.bindStatement,
            zoneOptions: "allow-transfer { key \(key.name); };")
        defer { reference.terminate() }
        let pushed = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        let written = try await bed.kdigTransfer(reference, zone: "openclaw.internal", key: key)
        #expect(pushed == written)
    }

    @Test("Knot with an ACL and a key in keymgr's format: push, idempotence, prune")
    func pushToKnot() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey(name: "knotkey", algorithm: "hmac-sha512", knotFormat: true)
        let knot = try await bed.startKnot(
            zones: ["openclaw.internal": emptyZone],
            extra: key.knotSection + "acl:\n  - id: pusher\n    key: \(key.name)\n    action: [update, transfer]\n",
            zoneOptions: ["acl: pusher"])
        defer { knot.terminate() }
        let both = ["--gateway", "host=studio,ip=100.64.0.10,name=studio", "--gateway", "host=lab,ip=100.64.0.11,ip=fd7a:115c:a1e0::11"]
        let first = try await push(bed, knot, key: key, both)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("planned without reading"), "\(first.stderr)")
        let again = try await push(bed, knot, key: key, both)
        #expect(again.stderr.contains("nothing sent"), "\(again.stderr)")
        let pruned = try await push(bed, knot, key: key, ["--gateway", "host=lab,ip=100.64.0.11,ip=fd7a:115c:a1e0::11", "--prune"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(pruned.stderr.contains("- studio"), "\(pruned.stderr)")
        let records = try await bed.kdigTransfer(knot, zone: "openclaw.internal", key: key)
        #expect(
            records.filter { $0.contains(" PTR ") } == [
                "_openclaw-gw._tcp.openclaw.internal. 60 IN PTR lab-gateway._openclaw-gw._tcp.openclaw.internal."
            ])
        #expect(records.contains("lab.openclaw.internal. 60 IN AAAA fd7a:115c:a1e0::11"))
    }

    @Test(
        "every TSIG algorithm tsig-keygen makes signs and verifies against BIND",
        arguments: ["hmac-md5", "hmac-sha1", "hmac-sha224", "hmac-sha256", "hmac-sha384", "hmac-sha512"])
    func algorithms(algorithm: String) async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey(name: "k-\(algorithm)", algorithm: algorithm)
        let dns = try await dynamicBIND(bed, key: key)
        defer { dns.terminate() }
        let result = try await push(bed, dns, key: key, ["--gateway", "host=studio,ip=100.64.0.10"])
        #expect(result.status == 0, "\(algorithm): \(result.stderr)")
        #expect(result.stderr.contains("pushed"), "\(result.stderr)")
    }

    @Test("prune removes only instances of the type that are not in the sources: other types and names stay")
    func prune() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let zone = openClawZone([
            "www IN A 100.64.9.9", "alias IN CNAME www",
            "_ssh._tcp IN PTR box._ssh._tcp", "box._ssh._tcp IN SRV 0 0 22 www", "box._ssh._tcp IN TXT \"x=1\"",
        ])
        let dns = try await dynamicBIND(bed, key: key, zone: zone)
        defer { dns.terminate() }
        #expect(try await push(bed, dns, key: key, ["--gateway", "host=a,ip=100.64.0.1", "--gateway", "host=b,ip=100.64.0.2"]).status == 0)
        let before = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        let result = try await push(bed, dns, key: key, ["--gateway", "host=a,ip=100.64.0.1", "--prune"])
        #expect(result.status == 0, "\(result.stderr)")
        let after = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        let removed = Set(before).subtracting(after)
        #expect(
            removed == [
                "_openclaw-gw._tcp.openclaw.internal. 60 IN PTR b-gateway._openclaw-gw._tcp.openclaw.internal.",
                "b-gateway._openclaw-gw._tcp.openclaw.internal. 60 IN SRV 0 0 18789 b.openclaw.internal.",
                "b-gateway._openclaw-gw._tcp.openclaw.internal. 60 IN TXT \"displayName=b\" \"role=gateway\" \"transport=gateway\" \"gatewayPort=18789\"",
            ], "\(removed)")
        #expect(Set(after).isSubset(of: before), "prune adds nothing")
    }

    @Test("nsupdate as an independent peer: applying the dry run has the same effect as the push (compared by kdig AXFR)")
    func dryRunMatchesNsupdate() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let pushed = try await dynamicBIND(bed, key: key)
        defer { pushed.terminate() }
        let scripted = try await dynamicBIND(bed, key: key)
        defer { scripted.terminate() }
        let rounds = [
            hostileSpecs().flatMap { ["--gateway", $0] },
            hostileSpecs().prefix(3).map { $0.replacingOccurrences(of: "ssh=22", with: "ssh=2222") }.flatMap { ["--gateway", $0] } + [
                "--prune"
            ],
        ]
        for arguments in rounds {
            let dryRun = try await push(bed, scripted, key: key, arguments + ["--dry-run"])
            #expect(dryRun.status == 0, "\(dryRun.stderr)")
            #expect(!dryRun.stdout.contains(key.secret))
            let applied = try await bed.nsupdate(dryRun.stdout + "\n", key: key)
            #expect(applied.status == 0, "nsupdate: \(applied.stderr)\n\(dryRun.stdout)")
            #expect(try await push(bed, pushed, key: key, arguments).status == 0)
            let viaClawnet = try await bed.kdigTransfer(pushed, zone: "openclaw.internal", key: key)
            let viaNsupdate = try await bed.kdigTransfer(scripted, zone: "openclaw.internal", key: key)
            #expect(viaClawnet == viaNsupdate)
            #expect(viaClawnet.count > 5)
        }
    }

    @Test("errors name the RCODE and the cause: wrong secret (BADSIG), unknown key (BADKEY), no update rights (REFUSED); no secret printed")
    func refusals() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let other = try await bed.makeTSIGKey(name: "reader")
        let dns = try await bed.startBIND(
            zones: ["openclaw.internal": emptyZone], keys: key.bindStatement + "\n" + other.bindStatement,
            zoneOptions: "update-policy { grant \(key.name) zonesub ANY; }; allow-transfer { key \(key.name); key \(other.name); };")
        defer { dns.terminate() }
        let gateway = ["--gateway", "host=studio,ip=100.64.0.10"]
        let wrongSecret = try await bed.makeTSIGKey()
        let badSig = try await push(bed, dns, key: wrongSecret, gateway)
        #expect(badSig.status == 1)
        #expect(badSig.stderr.contains("NOTAUTH (BADSIG)") && badSig.stderr.contains("another secret"), "\(badSig.stderr)")
        let unknown = try await bed.makeTSIGKey(name: "stranger")
        let badKey = try await push(bed, dns, key: unknown, gateway)
        #expect(badKey.stderr.contains("NOTAUTH (BADKEY)") && badKey.stderr.contains("does not know key stranger."), "\(badKey.stderr)")
        let noRights = try await push(bed, dns, key: other, gateway)
        #expect(noRights.status == 1)
        #expect(noRights.stderr.contains("answered REFUSED") && noRights.stderr.contains("update-policy"), "\(noRights.stderr)")
        for result in [badSig, badKey, noRights] {
            for secret in [key.secret, other.secret, wrongSecret.secret, unknown.secret] {
                #expect(!(result.stdout + result.stderr).contains(secret))
            }
        }
    }

    @Test("transfers refused: push asks the RRsets of the type instead, converges, and prunes; zone check --axfr says why it cannot lint")
    func transferRefused() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await bed.startBIND(
            zones: ["openclaw.internal": emptyZone], keys: key.bindStatement,
            zoneOptions: "update-policy { grant \(key.name) zonesub ANY; }; allow-transfer { none; };")
        defer { dns.terminate() }
        let both = ["--gateway", "host=a,ip=100.64.0.1,name=A (OpenClaw)", "--gateway", "host=b,ip=100.64.0.2,ip=fd7a:115c:a1e0::2"]
        let first = try await push(bed, dns, key: key, both)
        #expect(first.status == 0, "\(first.stderr)")
        let again = try await push(bed, dns, key: key, both)
        #expect(again.stderr.contains("nothing sent"), "\(again.stderr)")
        // From another machine (no ledger): the UPDATE planned without reading is refused, and the zone is read by queries.
        let elsewhere = try await bed.clawnet(
            ["zone", "push", "--domain", "openclaw.internal", "--server", dns.endpoint, "--tsig-key", key.path] + both,
            environment: ["XDG_STATE_HOME": try temporaryDirectory(bed)])
        #expect(elsewhere.stderr.contains("AXFR refused (REFUSED); asked the RRsets of the service type"), "\(elsewhere.stderr)")
        #expect(elsewhere.stderr.contains("nothing sent") && elsewhere.status == 0, "\(elsewhere.stderr)")
        let pruned = try await push(bed, dns, key: key, ["--gateway", "host=b,ip=100.64.0.2,ip=fd7a:115c:a1e0::2", "--prune"])
        #expect(pruned.stderr.contains("- A (OpenClaw)"), "\(pruned.stderr)")
        let (_, document, _) = try await browseJSON(bed, ["--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint])
        #expect(Set(byInstance(beacons(document)).keys) == ["b-gateway"])
        let check = try await bed.clawnet([
            "zone", "check", "--axfr", "--domain", "openclaw.internal", "--server", dns.endpoint, "--tsig-key", key.path,
        ])
        #expect(check.status == 1)
        #expect(check.stdout.contains("refuses zone transfers"), "\(check.stdout)")
    }

    @Test("a zone transferred in many messages: every message's TSIG is verified (BIND and Knot)", arguments: ["bind", "knot"])
    func multiMessageTransfer(server: String) async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey(knotFormat: server == "knot")
        let specs = (0..<600).flatMap {
            [
                "--gateway",
                "host=h\($0),ip=100.64.\($0 / 250).\($0 % 250 + 1),name=Gateway \($0) with a longer name (OpenClaw),tls=\(String(repeating: "e5", count: 32)),ssh=22",
            ]
        }
        let generated = try await bed.clawnet(
            ["zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.101.102.103"] + specs)
        #expect(generated.status == 0, "\(generated.stderr)")
        let dns =
            server == "bind"
            ? try await bed.startBIND(
                zones: ["openclaw.internal": generated.stdout + "\n"], options: "max-records-per-type 0;", keys: key.bindStatement,
                zoneOptions: "update-policy { grant \(key.name) zonesub ANY; }; allow-transfer { key \(key.name); };")
            : try await bed.startKnot(
                zones: ["openclaw.internal": generated.stdout + "\n"],
                extra: key.knotSection + "acl:\n  - id: pusher\n    key: \(key.name)\n    action: [update, transfer]\n",
                zoneOptions: ["acl: pusher"])
        defer { dns.terminate() }
        let result = try await push(bed, dns, key: key, specs + ["--timeout", "30s"])
        #expect(result.status == 0, "\(result.stderr)")
        let messages = result.stderr.split(separator: " records in ").dropFirst().first?.split(separator: " ").first.flatMap { Int($0) }
        #expect((messages ?? 0) > 1, "\(result.stderr.prefix(300))")
        #expect(result.stderr.contains("nothing sent"), "the zone generate wrote is what push wants: \(result.stderr.prefix(600))")
        let wrong = try await bed.makeTSIGKey(knotFormat: server == "knot")
        let forged = try await push(bed, dns, key: wrong, specs)
        #expect(forged.status == 1 && forged.stderr.contains("BADSIG"), "\(forged.stderr)")
    }

    @Test(
        "bad key files that do not go together are usage errors (exit 2) that say why",
        arguments: [
            (
                [
                    "zone", "push", "--domain", "openclaw.internal", "--server", "127.0.0.1", "--gateway", "host=a,ip=100.64.0.1",
                    "--tsig-key",
                    "/dev/null",
                ], "/dev/null is a character device, not a regular file"
            ),
            (
                [
                    "zone", "push", "--domain", "openclaw.internal", "--server", "127.0.0.1", "--gateway", "host=a,ip=100.64.0.1",
                    "--tsig-key",
                    "/nonexistent.key",
                ], "cannot read /nonexistent.key: no such file"
            ),
            (["zone", "push", "--domain", "openclaw.internal", "--server", "127.0.0.1"], "say what to publish"),
            (["zone", "check", "--domain", "openclaw.internal", "--server", "127.0.0.1"], "--axfr with --server and --domain"),
            (["advertise", "--name", "X", "--domain", "openclaw.internal"], "--domain needs --server"),
            (["advertise", "--name", "X", "--refresh", "10s"], "go with --domain"),
        ])
    func usageErrors(arguments: [String], expected: String) async throws {
        let bed = try TestBed.current()
        let result = try await bed.clawnet(arguments, timeout: .seconds(20))
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
    }

    @Test("Knot without update rights for the key: the answer is named")
    func knotRefuses() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey(name: "readonly", knotFormat: true)
        let knot = try await bed.startKnot(
            zones: ["openclaw.internal": emptyZone],
            extra: key.knotSection + "acl:\n  - id: reader\n    key: \(key.name)\n    action: transfer\n",
            zoneOptions: ["acl: reader"])
        defer { knot.terminate() }
        let result = try await push(bed, knot, key: key, ["--gateway", "host=studio,ip=100.64.0.10"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("answered REFUSED") || result.stderr.contains("answered NOTAUTH"), "\(result.stderr)")
        #expect(!result.stderr.contains(key.secret))
    }

    @Test(
        "a primary with a secondary: the push reaches it by NOTIFY and IXFR, browse against the secondary finds it, zone check names a lagging one"
    )
    func secondary() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let secondaryPort = testPort()
        let primary = try await bed.startBIND(
            zones: ["openclaw.internal": emptyZone],
            options: "notify explicit; also-notify { 127.0.0.1 port \(secondaryPort) key \(key.name); };",
            keys: key.bindStatement,
            zoneOptions: "update-policy { grant \(key.name) zonesub ANY; }; allow-transfer { key \(key.name); }; ixfr-from-differences yes;"
        )
        defer { primary.terminate() }
        let secondary = try await bed.startBIND(
            zones: [:], port: secondaryPort, keys: key.bindStatement, zoneOptions: "allow-transfer { key \(key.name); };",
            secondaries: ["openclaw.internal": (primary: "127.0.0.1", port: primary.port, key: key.name)])
        defer { secondary.terminate() }
        // Another secondary the primary does not notify: it keeps the first serial.
        let unnotified = try await bed.startBIND(
            zones: [:], keys: key.bindStatement, zoneOptions: "allow-transfer { key \(key.name); };",
            secondaries: ["openclaw.internal": (primary: "127.0.0.1", port: primary.port, key: key.name)])
        defer { unnotified.terminate() }

        let from = secondary.process.lines.count
        let primaryFrom = primary.process.lines.count
        let result = try await push(bed, primary, key: key, ["--gateway", "host=studio,ip=100.64.0.10,name=Studio (OpenClaw)"])
        #expect(result.status == 0, "\(result.stderr)")
        try await secondary.process.waitForLine(from: from, timeout: .seconds(20), "the secondary's IXFR") {
            $0.text.contains("transferred serial 2026112202")
        }
        #expect(secondary.process.lines.dropFirst(from).contains { $0.text.contains("received notify") }, "\(secondary.process.outputTail)")
        try await primary.process.waitForLine(from: primaryFrom, timeout: .seconds(20), "the primary serving IXFR") {
            $0.text.contains("IXFR ended")
        }

        let (_, document, _) = try await browseJSON(bed, ["--no-local", "--domain", "openclaw.internal", "--server", secondary.endpoint])
        #expect(byInstance(beacons(document))["Studio (OpenClaw)"] != nil, "\(beacons(document))")

        let agree = try await bed.clawnet([
            "zone", "check", "--axfr", "--domain", "openclaw.internal", "--tsig-key", key.path, "--server", primary.endpoint, "--server",
            secondary.endpoint,
        ])
        #expect(agree.stdout.contains("serve openclaw.internal. with serial 2026112202 and the same"), "\(agree.stdout)")
        let lagging = try await bed.clawnet([
            "zone", "check", "--axfr", "--domain", "openclaw.internal", "--tsig-key", key.path,
            "--server", primary.endpoint, "--server", secondary.endpoint, "--server", unnotified.endpoint,
        ])
        #expect(lagging.status == 1)
        #expect(
            lagging.stdout.contains("\(unnotified.label) serves openclaw.internal. with serial 2026112201")
                && lagging.stdout.contains("\(unnotified.label) lags behind"), "\(lagging.stdout)")
    }

    @Test("advertise --domain: registered while it runs, withdrawn on SIGTERM; after a crash zone check --server finds it unreachable")
    func advertiseWideArea() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key)
        defer { dns.terminate() }
        let name = "Wide \(uniqueTag())"
        let port = testPort()
        let arguments = [
            "advertise", "--name", name, "--port", String(port), "--serve", "--bind", "127.0.0.1", "--domain", "openclaw.internal",
            "--server", dns.endpoint, "--tsig-key", key.path, "--address", "127.0.0.1", "--no-local",
        ]
        // The ledger of what it registered goes to the test bed, not to /var/lib/clawnet.
        let environment = ["XDG_STATE_HOME": "\(bed.directory)/state-\(uniqueTag())"]
        let advertiser = try bed.spawnClawnet(arguments, environment: environment)
        try await advertiser.waitForOutput("registered \"\(name)\" in openclaw.internal.", timeout: .seconds(20))
        let (_, document, _) = try await browseJSON(bed, ["--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint])
        #expect(byInstance(beacons(document))[name]?["port"] as? Int == port)
        let live = try await bed.clawnet([
            "zone", "check", "--axfr", "--domain", "openclaw.internal", "--server", dns.endpoint, "--tsig-key", key.path,
        ])
        #expect(live.stdout.contains("1 served Gateway accepts TCP on the SRV port"), "\(live.stdout)")

        #expect(try await advertiser.stop(signal: SIGTERM) == 0)
        #expect(advertiser.stderr.contains("withdrawn from openclaw.internal.: \(name)"), "\(advertiser.output)")
        let afterExit = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        #expect(!afterExit.contains { $0.contains("_openclaw-gw") || $0.contains("127.0.0.1") }, "\(afterExit)")

        let crashing = try bed.spawnClawnet(arguments, environment: environment)
        try await crashing.waitForOutput("registered \"\(name)\"", timeout: .seconds(20))
        _ = try await crashing.stop(signal: SIGKILL)
        let stale = try await bed.clawnet([
            "zone", "check", "--axfr", "--domain", "openclaw.internal", "--server", dns.endpoint, "--tsig-key", key.path,
        ])
        #expect(stale.status == 1)
        #expect(stale.stdout.contains("'\(name)' is served at") && stale.stdout.contains("connection refused"), "\(stale.stdout)")
    }
}
