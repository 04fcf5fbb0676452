import Foundation
import Glibc
import TestSupport
import Testing
import Zones

/// This machine's host label, as `advertise --domain` publishes it.
func thisHostLabel() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    _ = gethostname(&buffer, buffer.count)
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return ZoneGateway.label(String(name.split(separator: ".").first ?? ""), fallback: "openclaw")
}

/// A primary that takes UPDATEs and transfers signed with `key`: BIND, or Knot with an ACL.
func updatablePrimary(_ kind: String, _ bed: TestBed, zone: String, on host: TestBed.Host = .node) async throws -> (
    TestDNSServer, TestTSIGKey
) {
    if kind == "knot" {
        let key = try await bed.makeTSIGKey(name: "knotkey", algorithm: "hmac-sha256", knotFormat: true)
        let knot = try await bed.startKnot(
            zones: ["openclaw.internal": zone], host: host,
            extra: key.knotSection + "acl:\n  - id: pusher\n    key: \(key.name)\n    action: [update, transfer]\n",
            zoneOptions: ["acl: pusher"])
        return (knot, key)
    }
    let key = try await bed.makeTSIGKey()
    return (
        try await bed.startBIND(
            zones: ["openclaw.internal": zone], host: host, keys: key.bindStatement,
            zoneOptions: "update-policy { grant \(key.name) zonesub ANY; }; allow-transfer { key \(key.name); };"),
        key
    )
}

/// Issue 18: a withdrawal takes out exactly what its registration put in; one the server
/// refuses fails the command and names what is left; --no-local needs neither D-Bus nor Avahi.
@Suite("advertise --domain: the withdrawal undoes exactly the registration", .testBed, .serialized)
struct WithdrawalTests {
    let host = thisHostLabel()

    /// advertise's arguments, and an environment whose ledger folder is the test's own.
    func advertise(_ name: String, _ dns: TestDNSServer, _ key: TestTSIGKey, state: String) -> ([String], [String: String]) {
        (
            [
                "advertise", "--name", name, "--port", String(testPort()), "--domain", "openclaw.internal", "--server", dns.endpoint,
                "--tsig-key", key.path, "--address", "127.0.0.1", "--no-local",
            ],
            ["XDG_STATE_HOME": state]
        )
    }

    /// advertise started, once its output says it registered `name`.
    func registered(_ name: String, _ launch: ([String], [String: String])) async throws -> ChildProcess {
        let (arguments, environment) = launch
        let advertiser = try TestBed.current().spawnClawnet(arguments, environment: environment)
        do { try await advertiser.waitForOutput("registered \"\(name)\"", timeout: .seconds(20)) } catch {
            advertiser.terminate()
            throw error
        }
        return advertiser
    }

    /// Stops advertise with SIGTERM (it withdraws) and waits for its last words; its exit status.
    func stopped(_ advertiser: ChildProcess) async throws -> Int32 {
        let status = try await advertiser.stop(signal: SIGTERM, timeout: .seconds(30))
        await advertiser.waitForOutputEnd()
        return status
    }

    func stateFolder(_ bed: TestBed) throws -> String {
        let folder = "\(bed.directory)/state-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test(
        "the host's A that was in the zone before stays; an A the registration replaced is put back (BIND and Knot)",
        arguments: [("bind", "127.0.0.1"), ("bind", "127.0.0.9"), ("knot", "127.0.0.1"), ("knot", "127.0.0.9")])
    func hostAddressKept(server: String, before address: String) async throws {
        let bed = try TestBed.current()
        let (dns, key) = try await updatablePrimary(server, bed, zone: openClawZone(["\(host) IN A \(address)"]))
        defer { dns.terminate() }
        let state = try stateFolder(bed)
        let before = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        let name = "Wide \(uniqueTag())"
        let advertiser = try await registered(name, advertise(name, dns, key, state: state))
        defer { advertiser.terminate() }
        if address != "127.0.0.1" {
            try await advertiser.waitForOutput("host \(host).openclaw.internal. replaces A \(address) with 127.0.0.1")
        }
        let during = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        #expect(during.contains { $0.contains("IN SRV") && $0.contains(" \(host).openclaw.internal.") }, "\(during)")
        #expect(try await stopped(advertiser) == 0, "\(advertiser.output)")
        #expect(advertiser.stderr.contains("withdrawn from openclaw.internal.: \(name)"), "\(advertiser.output)")
        let after = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        #expect(after == before, "the zone as it was before advertise ran: \(after)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state + "/clawnet").isEmpty, "the ledger is gone")
    }

    @Test(
        "an address RRset the registration removed whole (the AAAA when it gives only an A) is put back (BIND and Knot)",
        arguments: ["bind", "knot"], [["A 127.0.0.9", "AAAA fd00::99"], ["AAAA fd00::99"], ["A 127.0.0.1", "AAAA fd00::99"]])
    func removedAddressRRsetPutBack(server: String, before addresses: [String]) async throws {
        let bed = try TestBed.current()
        let (dns, key) = try await updatablePrimary(server, bed, zone: openClawZone(addresses.map { "\(host) IN \($0)" }))
        defer { dns.terminate() }
        let state = try stateFolder(bed)
        let before = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        let name = "Both \(uniqueTag())"
        let advertiser = try await registered(name, advertise(name, dns, key, state: state))
        defer { advertiser.terminate() }
        try await advertiser.waitForOutput("host \(host).openclaw.internal. removes AAAA fd00::99")
        let during = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        #expect(!during.contains { $0.contains("fd00::99") }, "\(during)")
        #expect(try await stopped(advertiser) == 0, "\(advertiser.output)")
        let after = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        #expect(after == before, "the zone as it was before advertise ran: \(after)\n\(advertiser.output)")
    }

    @Test("a host another Gateway's SRV points to keeps its address: the registration is refused, exit 1, the zone unchanged")
    func sharedHostNotMoved() async throws {
        let bed = try TestBed.current()
        let other = "other-\(uniqueTag())._openclaw-gw._tcp"
        let (dns, key) = try await updatablePrimary(
            "bind", bed,
            zone: openClawZone([
                "\(host) IN A 127.0.0.9", "_openclaw-gw._tcp IN PTR \(other)", "\(other) IN SRV 0 0 18790 \(host)",
                "\(other) IN TXT \"role=gateway\"",
            ]))
        defer { dns.terminate() }
        let before = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        let name = "Shared \(uniqueTag())"
        let (arguments, environment) = advertise(name, dns, key, state: try stateFolder(bed))
        let result = try await bed.clawnet(arguments, environment: environment, timeout: .seconds(30))
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("is the SRV target of another Gateway"), "\(result.stderr)")
        let after = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        #expect(after == before, "the zone as it was: \(after)")
    }

    @Test(
        "after a SIGKILL the next run adopts what the crashed run added and withdraws exactly that (BIND and Knot; A there before or not)",
        arguments: ["bind", "knot"], [true, false])
    func adoptionAfterCrash(server: String, addressBefore: Bool) async throws {
        let bed = try TestBed.current()
        let (dns, key) = try await updatablePrimary(
            server, bed, zone: openClawZone(addressBefore ? ["\(host) IN A 127.0.0.1"] : []))
        defer { dns.terminate() }
        let state = try stateFolder(bed)
        let before = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        let name = "Crash \(uniqueTag())"
        let (arguments, environment) = advertise(name, dns, key, state: state)
        let crashing = try bed.spawnClawnet(arguments, environment: environment)
        defer { crashing.terminate() }
        try await crashing.waitForOutput("registered \"\(name)\"", timeout: .seconds(20))
        _ = try await crashing.stop(signal: SIGKILL)
        #expect(try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key) != before, "the crash left the records")

        let restarted = try bed.spawnClawnet(arguments, environment: environment)
        defer { restarted.terminate() }
        try await restarted.waitForOutput("registered \"\(name)\"", timeout: .seconds(20))
        #expect(try await restarted.stop(signal: SIGTERM, timeout: .seconds(30)) == 0, "\(restarted.output)")
        await restarted.waitForOutputEnd()
        #expect(try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key) == before, "\(restarted.output)")
    }

    @Test(
        "a ledger another user could have written (nobody's file, one others can write, nobody's folder): ignored, never adopted or removed",
        arguments: ["nobody's file", "others can write", "nobody's folder"])
    func foreignLedgerIgnored(_ planted: String) async throws {
        let bed = try TestBed.current()
        let (dns, key) = try await updatablePrimary("bind", bed, zone: openClawZone(["victim IN A 127.0.0.9"]))
        defer { dns.terminate() }
        let state = try stateFolder(bed)
        let name = "Forged \(uniqueTag())"
        let launch = advertise(name, dns, key, state: state)
        let crashing = try await registered(name, launch)
        defer { crashing.terminate() }
        _ = try await crashing.stop(signal: SIGKILL)
        // The ledger the crashed run left, forged: it claims the victim's A, and an attacker's A to put back.
        let folder = state + "/clawnet"
        let path = folder + "/" + (try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first))
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        document["added"] = (document["added"] as? [String] ?? []) + ["victim.openclaw.internal. 3600 IN A 127.0.0.9"]
        document["replaced"] = (document["replaced"] as? [String] ?? []) + ["victim.openclaw.internal. 3600 IN A 10.66.6.6"]
        let forged = try JSONSerialization.data(withJSONObject: document)
        try forged.write(to: URL(fileURLWithPath: path))
        switch planted {
        case "nobody's file": #expect(chown(path, 65534, 65534) == 0)
        case "others can write": #expect(chmod(path, 0o666) == 0)
        default: #expect(chown(folder, 65534, 65534) == 0)
        }
        let before = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)

        let restarted = try await registered(name, launch)
        defer { restarted.terminate() }
        #expect(try await stopped(restarted) == 0, "\(restarted.output)")
        #expect(restarted.stderr.contains("warning: ignoring the ledger of an earlier run: "), "\(restarted.stderr)")
        let after = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        #expect(after.contains { $0.hasPrefix("victim.openclaw.internal.") && $0.hasSuffix("127.0.0.9") }, "the victim's A stays: \(after)")
        #expect(!after.contains { $0.contains("10.66.6.6") }, "no attacker's record: \(after)")
        #expect(after == before, "the crashed run's records were there before this run: they stay (\(after))")
        if planted != "others can write" {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == forged, "another user's ledger is left as it is")
        }
    }

    @Test("a Gateway zone push registered for this host and port, advertised under the same name: its records stay after the withdrawal")
    func pushedRecordsStay() async throws {
        let bed = try TestBed.current()
        let (dns, key) = try await updatablePrimary("bind", bed, zone: emptyZone)
        defer { dns.terminate() }
        let name = "Pushed \(uniqueTag())"
        let (arguments, environment) = advertise(name, dns, key, state: try stateFolder(bed))
        let port = arguments[arguments.firstIndex(of: "--port")! + 1]
        let pushed = try await push(bed, dns, key: key, ["--gateway", "host=\(host),ip=127.0.0.1,port=\(port),name=\(name)"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let before = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        let advertiser = try bed.spawnClawnet(arguments, environment: environment)
        defer { advertiser.terminate() }
        try await advertiser.waitForOutput("registered \"\(name)\"", timeout: .seconds(20))
        #expect(try await advertiser.stop(signal: SIGTERM, timeout: .seconds(30)) == 0, "\(advertiser.output)")
        await advertiser.waitForOutputEnd()
        #expect(try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key) == before, "\(advertiser.output)")
    }

    @Test("a withdrawal Knot refuses (the key lost its update right): exit 1, the records left are named, and they are still served")
    func refusedWithdrawal() async throws {
        let bed = try TestBed.current()
        let (knot, key) = try await updatablePrimary("knot", bed, zone: emptyZone)
        defer { knot.terminate() }
        let name = "Refused \(uniqueTag())"
        let (arguments, environment) = advertise(name, knot, key, state: try stateFolder(bed))
        let advertiser = try bed.spawnClawnet(arguments, environment: environment)
        defer { advertiser.terminate() }
        try await advertiser.waitForOutput("registered \"\(name)\"", timeout: .seconds(20))
        // The key loses its update right (transfers stay): the withdrawal's UPDATE is refused.
        let config = knot.directory + "/knot.conf"
        try (try String(contentsOfFile: config, encoding: .utf8)).replacingOccurrences(
            of: "action: [update, transfer]", with: "action: [transfer]"
        )
        .write(toFile: config, atomically: true, encoding: .utf8)
        let reload = try await bed.run(on: .node, ["knotc", "-c", config, "reload"])
        #expect(reload.status == 0, "\(reload.stdout) \(reload.stderr)")

        #expect(try await advertiser.stop(signal: SIGTERM, timeout: .seconds(40)) == 1, "\(advertiser.output)")
        await advertiser.waitForOutputEnd()
        #expect(advertiser.stderr.contains("could not withdraw \"\(name)\""), "\(advertiser.stderr)")
        #expect(advertiser.stderr.contains("to the UPDATE"), "the UPDATE itself was refused: \(advertiser.stderr)")
        #expect(advertiser.stderr.contains("still there:") && advertiser.stderr.contains("IN SRV 0 0"), "\(advertiser.stderr)")
        #expect(!advertiser.output.contains("withdrawn from"), "\(advertiser.output)")
        let (_, document, _) = try await browseJSON(bed, ["--no-local", "--domain", "openclaw.internal", "--server", knot.endpoint])
        // Knot lower-cases names inside RDATA.
        #expect(byInstance(beacons(document)).keys.contains { $0.lowercased() == name.lowercased() }, "still served: \(beacons(document))")
    }

    @Test("a withdrawal no server answers (BIND stopped): exit 1, the records left are named")
    func silentServer() async throws {
        let bed = try TestBed.current()
        let (dns, key) = try await updatablePrimary("bind", bed, zone: emptyZone)
        defer { dns.terminate() }
        let name = "Gone \(uniqueTag())"
        let (arguments, environment) = advertise(name, dns, key, state: try stateFolder(bed))
        let advertiser = try bed.spawnClawnet(arguments, environment: environment)
        defer { advertiser.terminate() }
        try await advertiser.waitForOutput("registered \"\(name)\"", timeout: .seconds(20))
        await dns.stop()
        #expect(try await advertiser.stop(signal: SIGTERM, timeout: .seconds(40)) == 1, "\(advertiser.output)")
        await advertiser.waitForOutputEnd()
        #expect(advertiser.stderr.contains("could not withdraw") && advertiser.stderr.contains("still there:"), "\(advertiser.stderr)")
        #expect(advertiser.stderr.contains("IN PTR") && advertiser.stderr.contains("IN A 127.0.0.1"), "\(advertiser.stderr)")
    }

    @Test("--no-local on a host without D-Bus or Avahi: registered, found, withdrawn (exit 0); without --no-local: exit 3")
    func noLocalOnBareHost() async throws {
        let bed = try TestBed.current()
        let (dns, key) = try await updatablePrimary("bind", bed, zone: emptyZone, on: .bare)
        defer { dns.terminate() }
        let name = "Bare \(uniqueTag())"
        let (arguments, environment) = advertise(name, dns, key, state: try stateFolder(bed))
        let advertiser = try bed.spawnClawnet(arguments, on: .bare, environment: environment)
        defer { advertiser.terminate() }
        try await advertiser.waitForOutput("registered \"\(name)\"", timeout: .seconds(20))
        let (_, document, _) = try await browseJSON(
            bed, ["--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint], on: .bare)
        #expect(byInstance(beacons(document))[name] != nil, "\(beacons(document))")
        #expect(try await advertiser.stop(signal: SIGTERM, timeout: .seconds(30)) == 0, "\(advertiser.output)")
        await advertiser.waitForOutputEnd()
        #expect(advertiser.stderr.contains("withdrawn from openclaw.internal.: \(name)"), "\(advertiser.output)")
        #expect(!advertiser.stderr.contains("D-Bus"), "\(advertiser.stderr)")

        let local = try await bed.clawnet(arguments.filter { $0 != "--no-local" }, on: .bare, environment: environment)
        #expect(local.status == 3, "mDNS needs D-Bus: \(local.stderr)")
    }
}

/// Issue 30's "advertise --serve under idle WebSockets": connections the stand-in cannot serve
/// are bounded, so the withdrawal on SIGTERM finds descriptors and takes the records out.
extension WithdrawalTests {
    @Test(
        "issue 30: 300 idle connections from 1 or 250 addresses, `ulimit -n 256`: a client still gets in, SIGTERM still withdraws",
        arguments: [1, 250])
    func floodThenWithdraw(addresses: Int) async throws {
        let bed = try TestBed.current()
        let (dns, key) = try await updatablePrimary("bind", bed, zone: openClawZone([]))
        defer { dns.terminate() }
        let before = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        let name = "Flooded \(uniqueTag())"
        let (arguments, environment) = advertise(name, dns, key, state: try stateFolder(bed))
        let port = try #require(arguments.firstIndex(of: "--port").map { arguments[$0 + 1] })
        let command = ([ClawnetBinary.path] + arguments + ["--serve", "--bind", "127.0.0.1"]).map { "'\($0)'" }.joined(separator: " ")
        let advertiser = try bed.spawn(on: .node, ["/bin/sh", "-c", "ulimit -n 256 && exec \(command)"], environment: environment)
        defer { advertiser.terminate() }
        try await advertiser.waitForOutput("registered \"\(name)\"", timeout: .seconds(20))
        let flood = try bed.spawn(
            on: .node,
            [bed.python, bed.scripts + "/peers/openclaw_clients.py", "flood", "127.0.0.1", port, "300", "40", String(addresses)])
        defer { flood.terminate() }
        try await flood.waitForOutput("flooding", timeout: .seconds(40))
        // Every place is taken by connections that never log in: a client that asks at once is served.
        let health = try await bed.run(
            on: .node, ["curl", "-sS", "--max-time", "10", "http://127.0.0.1:\(port)/healthz"], timeout: .seconds(20))
        #expect(health.status == 0, "GET /healthz during a flood from \(addresses) address(es): \(health.stderr)")
        #expect(try await stopped(advertiser) == 0, "\(advertiser.output)")
        #expect(advertiser.stderr.contains("withdrawn from openclaw.internal.: \(name)"), "\(advertiser.output)")
        let after = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        #expect(after == before, "the records are gone: \(after)\n\(advertiser.output)")
    }
}
