import Foundation
import Probes
import TestSupport
import Testing

/// What OpenClaw users hit (issue 20), end to end on the lab LAN: the stand-in on lgw plays a
/// published protocol-3 Gateway, a starting one, and each pairing refusal; doctor runs on lnode
/// as a probe and as a node (--as-device), and reads device identities the way OpenClaw's node
/// host keeps them. Each test is named after the OpenClaw issue it comes from.
extension DoctorLabTests {
    /// doctor on lnode as JSON with its own --timeout and environment (HOME included).
    func doctorJSON(_ arguments: [String], timeout: String = "3s", environment: [String: String] = [:]) async throws -> (
        status: Int32, document: [String: Any], output: String
    ) {
        let bed = try TestBed.current()
        let result = try await bed.clawnet(
            ["doctor", "--json", "--timeout", timeout] + arguments, on: .lnode,
            environment: ["HOME": bed.directory].merging(environment) { $1 }, timeout: .seconds(60))
        return (result.status, try jsonObject(result.stdout), result.stdout + result.stderr)
    }

    /// A device identity file as OpenClaw's node host writes it (mode 0600), and its device id.
    func deviceFile() throws -> (path: String, id: String) {
        let identity = DeviceIdentity.generate()
        return (try secretFile(identity.storedJSON(), name: "device"), identity.deviceId)
    }

    /// Runs `body` against a stand-in, and stops the stand-in whatever happens.
    func withStandIn(_ extra: [String], _ body: (ServeOnly) async throws -> Void) async throws {
        let gateway = try await serveOnly(extra)
        var failure: (any Error)?
        do { try await body(gateway) } catch { failure = error }
        _ = try? await gateway.process.stop()
        if let failure { throw failure }
    }

    // MARK: Wrong today: the protocol range

    @Test(
        "openclaw#83736: a published protocol-3 Gateway answers the probe's 3…4 (no mismatch), with a token hello-ok on v3: an older Gateway"
    )
    func openclaw83736ProtocolThreeProbe() async throws {
        let token = try secretFile("p3-\(uniqueTag())-token")
        try await withStandIn(["--connect", "protocol-3", "--token-file", token]) { gateway in
            // Without credentials it asks for them, as any Gateway does: no protocol mismatch any more.
            let (bare, bareDocument, _) = try await doctorJSON([gateway.url, "--no-local", "--pin", gateway.fingerprint])
            let asked = try gatewayCheck(bareDocument, "gw.connect", port: gateway.port)
            #expect(asked["status"] as? String == "pass" && bare == 0, "\(asked)")
            #expect((asked["message"] as? String)?.contains("asks for a token") == true, "\(asked)")

            let (status, document, _) = try await doctorJSON([
                gateway.url, "--no-local", "--pin", gateway.fingerprint, "--token-file", token,
            ])
            let connect = try gatewayCheck(document, "gw.connect", port: gateway.port)
            let message = connect["message"] as? String ?? ""
            #expect(connect["status"] as? String == "warn", "\(connect)")
            #expect(
                message.contains("hello-ok: protocol 3 (offered v3…v4)") && message.contains("older than OpenClaw's current v4"),
                "\(message)")
            #expect((connect["fix"] as? String)?.contains("`openclaw update`") == true, "\(connect)")
            #expect((connect["detail"] as? [String: String])?["protocol"] == "3", "\(connect)")
            #expect(diagnosisIDs(document) == ["gateway-protocol-older"], "\(diagnosisIDs(document))")
            #expect(status == 0, "a warning only: \(notPassing(document))")
        }
    }

    @Test(
        "openclaw#83736: a node host shown to a protocol-3 Gateway: refused at v4 with expectedProtocol only, then hello-ok in the v3 envelope"
    )
    func openclaw83736ProtocolThreeNode() async throws {
        let device = try deviceFile()
        try await withStandIn(["--connect", "protocol-3", "--paired-device", device.id]) { gateway in
            let (_, document, _) = try await doctorJSON([
                gateway.url, "--no-local", "--as-device", device.path, "--pin", gateway.fingerprint,
            ])
            let connect = try gatewayCheck(document, "gw.connect", port: gateway.port)
            let message = connect["message"] as? String ?? ""
            #expect(message.contains("hello-ok: protocol 3 (offered v3)") && message.contains("released v3 node envelope"), "\(message)")
            #expect((connect["detail"] as? [String: String])?["tries"] == "2", "\(connect)")
            // The stand-in saw the node host's two requests: v4 first, then v3.
            _ = try await gateway.process.waitForOutput("protocol v4…v4", timeout: .seconds(5))
            _ = try await gateway.process.waitForOutput("protocol v3…v3", timeout: .seconds(5))
            #expect(diagnosisIDs(document) == ["gateway-protocol-older"], "\(diagnosisIDs(document))")
        }
    }

    @Test("openclaw#83736: a Gateway newer than the node (expectedProtocol 5): the node is older, both versions named")
    func openclaw83736NodeOlder() async throws {
        try await withStandIn(["--connect", "protocol-mismatch"]) { gateway in
            let (status, document, _) = try await doctorJSON([gateway.url, "--no-local", "--pin", gateway.fingerprint])
            let connect = try gatewayCheck(document, "gw.connect", port: gateway.port)
            let message = connect["message"] as? String ?? ""
            #expect(
                message.contains("the node is older than its Gateway") && message.contains("v5") && message.contains("v3…v4"), "\(message)")
            #expect((connect["fix"] as? String)?.contains("update OpenClaw on the nodes") == true)
            #expect(diagnosisIDs(document) == ["protocol-mismatch"] && status == 1)
        }
    }

    // MARK: Wrong today: a starting Gateway

    @Test("openclaw#72929: a Gateway starting for 1.5 s: doctor waits retryAfterMs and asks again within --timeout, then passes")
    func openclaw72929StartingThenReady() async throws {
        try await withStandIn(["--starting-for", "1500ms"]) { gateway in
            let (status, document, _) = try await doctorJSON([gateway.url, "--no-local", "--pin", gateway.fingerprint], timeout: "10s")
            let connect = try gatewayCheck(document, "gw.connect", port: gateway.port)
            let message = connect["message"] as? String ?? ""
            #expect(connect["status"] as? String == "pass", "\(connect)")
            #expect(message.contains("that it was starting (startup-sidecars)"), "\(message)")
            #expect(Int((connect["detail"] as? [String: String])?["tries"] ?? "") ?? 0 >= 2, "\(connect)")
            #expect(status == 0 && diagnosisIDs(document).isEmpty, "\(notPassing(document))")
        }
    }

    @Test("openclaw#72929: a Gateway still starting when --timeout runs out: a warning with details.reason, named as the cause")
    func openclaw72929StillStarting() async throws {
        try await withStandIn(["--connect", "starting"]) { gateway in
            let (status, document, _) = try await doctorJSON([gateway.url, "--no-local", "--pin", gateway.fingerprint], timeout: "3s")
            let connect = try gatewayCheck(document, "gw.connect", port: gateway.port)
            #expect(connect["status"] as? String == "warn", "\(connect)")
            #expect((connect["message"] as? String)?.contains("still starting after") == true, "\(connect)")
            #expect((connect["fix"] as? String)?.contains("startup-sidecars") == true, "\(connect)")
            #expect(diagnosisIDs(document) == ["gateway-starting"] && status == 0, "\(diagnosisIDs(document))")
        }
    }

    // MARK: Case 1: pairing loops

    static let pairingReasons: [(String, String, String)] = [
        ("pairing-required", "the Gateway has not approved this device", "openclaw devices approve "),
        ("pairing-role-upgrade", "a role upgrade waits for approval", "review the upgrade"),
        ("pairing-scope-upgrade", "a scope upgrade waits for approval", "review the scopes"),
        ("pairing-metadata-upgrade", "its platform or device family differs", "give each machine its own"),
    ]

    @Test(
        "openclaw#97957, openclaw#59889: PAIRING_REQUIRED per details.reason; asked twice, the Gateway keeps one requestId for the device",
        arguments: pairingReasons)
    func openclaw97957PairingReasons(outcome: String, words: String, fix: String) async throws {
        let device = try deviceFile()
        try await withStandIn(["--connect", outcome]) { gateway in
            let (status, document, _) = try await doctorJSON([
                gateway.url, "--no-local", "--as-device", device.path, "--pin", gateway.fingerprint,
            ])
            let connect = try gatewayCheck(document, "gw.connect", port: gateway.port)
            let message = connect["message"] as? String ?? ""
            #expect(message.contains(words), "\(outcome): \(message)")
            #expect(message.contains("kept the same request for this device"), "\(outcome): \(message)")
            #expect((connect["fix"] as? String)?.contains(fix) == true, "\(outcome): \(connect)")
            #expect((connect["detail"] as? [String: String])?["deviceId"] == device.id, "\(outcome): \(connect)")
            #expect(diagnosisIDs(document) == ["pairing-required"] && status == 1, "\(outcome): \(diagnosisIDs(document))")
        }
    }

    // MARK: Case 1: the device identity the node host keeps

    /// A HOME of a node (gateway.mode remote) whose identity/device.json holds `identity`.
    func nodeHome(identity: String?, mode: Int = 0o600) throws -> String {
        let bed = try TestBed.current()
        let home = "\(bed.directory)/home-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: "\(home)/.openclaw/identity", withIntermediateDirectories: true)
        try "{ gateway: { mode: 'remote' } }".write(toFile: "\(home)/.openclaw/openclaw.json", atomically: true, encoding: .utf8)
        if let identity {
            let path = "\(home)/.openclaw/identity/device.json"
            try identity.write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, mode_t(mode))
        }
        return home
    }

    func identityCheck(_ environment: [String: String]) async throws -> (check: [String: Any], diagnosis: [String]) {
        let (_, document, _) = try await doctorJSON(["--no-local", "--check", "openclaw.identity"], environment: environment)
        let check = try #require(checks(document).first { $0["id"] as? String == "openclaw.identity" }, "\(checks(document))")
        return (check, diagnosisIDs(document))
    }

    @Test("openclaw#21647: identity/device.json the node host cannot use is a new device at every start: named, with the file and the fix")
    func openclaw21647BrokenIdentity() async throws {
        let home = try nodeHome(identity: #"{"version":1,"deviceId":"abc","publicKeyPem":"x","privateKeyPem":"y"}"#)
        let (check, diagnosis) = try await identityCheck(["HOME": home])
        #expect(check["status"] as? String == "fail", "\(check)")
        #expect((check["message"] as? String)?.contains("\(home)/.openclaw/identity/device.json") == true, "\(check)")
        #expect((check["message"] as? String)?.contains("a new key at every start") == true, "\(check)")
        #expect((check["fix"] as? String)?.contains(".broken") == true, "\(check)")
        #expect(diagnosis == ["device-identity-unstable"], "\(diagnosis)")
    }

    @Test("openclaw#21647: a usable identity passes with its device id; readable by others it warns (chmod 600)")
    func openclaw21647UsableIdentity() async throws {
        let identity = DeviceIdentity.generate()
        let goodHome = try nodeHome(identity: identity.storedJSON())
        let good = try await identityCheck(["HOME": goodHome])
        #expect(good.check["status"] as? String == "pass", "\(good.check)")
        #expect((good.check["detail"] as? [String: String])?["deviceId"] == identity.deviceId, "\(good.check)")
        let exposedHome = try nodeHome(identity: identity.storedJSON(), mode: 0o644)
        let exposed = try await identityCheck(["HOME": exposedHome])
        #expect(exposed.check["status"] as? String == "warn" && (exposed.check["fix"] as? String)?.contains("chmod 600") == true)
    }

    @Test("openclaw#21647: under sudo the node reads root's HOME, not the user's: two devices to the Gateway, each reader named")
    func openclaw21647SudoHome() async throws {
        // SUDO_USER names a real account (nobody): its own node would read its HOME, this shell reads HOME.
        let home = try nodeHome(identity: DeviceIdentity.generate().storedJSON())
        let (check, diagnosis) = try await identityCheck(["HOME": home, "SUDO_USER": "nobody"])
        let message = check["message"] as? String ?? ""
        #expect(check["status"] as? String == "warn", "\(check)")
        #expect(message.contains("nobody's node") && message.contains("`openclaw node` run here as root"), "\(message)")
        #expect(diagnosis == ["device-identity-elsewhere"], "\(diagnosis)")
    }

    @Test("openclaw#21647: a systemd user unit with its own OPENCLAW_STATE_DIR reads another identity (the unit file, not systemd)")
    func openclaw21647ServiceUnit() async throws {
        let home = try nodeHome(identity: DeviceIdentity.generate().storedJSON())
        let units = "\(home)/.config/systemd/user"
        try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
        try "[Service]\nEnvironment=OPENCLAW_STATE_DIR=\(home)/service-state\nExecStart=/usr/bin/openclaw node run\n".write(
            toFile: "\(units)/openclaw-node.service", atomically: true, encoding: .utf8)
        let (check, diagnosis) = try await identityCheck(["HOME": home])
        let message = check["message"] as? String ?? ""
        #expect(
            message.contains("systemd unit openclaw-node") && message.contains("\(home)/service-state/identity/device.json"), "\(message)")
        #expect(diagnosis == ["device-identity-elsewhere"], "\(diagnosis)")
    }
}

// MARK: Case 5: several Gateways

extension DoctorLabTests {
    /// A beacon published by avahi-daemon on lgw (`advertise` without --serve), once Avahi says
    /// it is established.
    func publishBeacon(_ name: String, port: Int, txt: [String] = []) async throws -> ChildProcess {
        let bed = try TestBed.current()
        let process = try bed.spawnClawnet(
            ["advertise", "--name", name, "--port", String(port)] + txt.flatMap { ["--txt", $0] }, on: .lgw)
        _ = try await process.waitForOutput("established: \(name)", timeout: .seconds(20))
        try await bed.waitUntilHeard(name: name, from: .lgw)
        return process
    }

    /// Stops the publishers and waits until lnode has seen each beacon go.
    func withdraw(_ beacons: [(name: String, process: ChildProcess)]) async {
        let bed = try? TestBed.current()
        let watcher = try? bed?.spawnClawnet(["browse", "--watch", "--format", "jsonl"], on: .lnode)
        for beacon in beacons {
            _ = try? await watcher?.waitForLine(timeout: .seconds(10), "added \(beacon.name)") {
                $0.text.contains("\"added\"") && $0.text.contains(beacon.name)
            }
        }
        for beacon in beacons { _ = try? await beacon.process.stop() }
        for beacon in beacons {
            _ = try? await watcher?.waitForLine(timeout: .seconds(10), "removed \(beacon.name)") {
                $0.text.contains("\"removed\"") && $0.text.contains(beacon.name)
            }
        }
        watcher?.terminate()
    }

    func gatewaysCheck() async throws -> (check: [String: Any], diagnosis: [String]) {
        let (_, document, _) = try await doctorJSON(["--check", "discovery.gateways"], timeout: "4s")
        let check = try #require(checks(document).first { $0["id"] as? String == "discovery.gateways" }, "\(checks(document))")
        return (check, diagnosisIDs(document))
    }

    @Test("openclaw#17222, openclaw#73922: one Gateway advertised under two names (its \"(2)\") is one, said once; avahi on the lab LAN")
    func openclaw17222AdvertisedTwice() async throws {
        let tag = uniqueTag()
        let port = testPort()
        let fingerprint = "gatewayTlsSha256=" + String(repeating: "ab", count: 32)
        let first = try await publishBeacon("Twice \(tag)", port: port, txt: ["gatewayTls=1", fingerprint])
        let second = try await publishBeacon("Twice \(tag) (2)", port: port, txt: ["gatewayTls=1", fingerprint])
        var failure: (any Error)?
        do {
            let (check, diagnosis) = try await gatewaysCheck()
            let message = check["message"] as? String ?? ""
            #expect(check["status"] as? String == "warn", "\(check)")
            #expect(
                message.contains("Twice \(tag) and Twice \(tag) (2)") || message.contains("Twice \(tag) (2) and Twice \(tag)"), "\(message)"
            )
            #expect((check["detail"] as? [String: String])?["gateways"] == "1", "one Gateway: \(check)")
            #expect(diagnosis == ["gateway-advertised-twice"], "\(diagnosis)")
            // ... and probed once: one Gateway section, not one per name.
            let (_, probed, _) = try await doctorJSON(["--check", "gw.tcp"], timeout: "4s")
            let sections = gateways(probed).filter { "\($0["beacon"] ?? "")".contains("Twice \(tag)") }
            #expect(sections.count == 1, "\(gateways(probed).map { $0["target"] ?? "" })")
        } catch {
            failure = error
        }
        await withdraw([("Twice \(tag)", first), ("Twice \(tag) (2)", second)])
        if let failure { throw failure }
    }

    @Test("openclaw#69135, openclaw#60188: two Gateways on one host (profiles on two ports) are two: multiple_gateways")
    func openclaw69135TwoProfiles() async throws {
        let tag = uniqueTag()
        let main = try await publishBeacon("Main \(tag)", port: testPort())
        let rescue = try await publishBeacon("Rescue \(tag)", port: testPort())
        var failure: (any Error)?
        do {
            let (check, diagnosis) = try await gatewaysCheck()
            #expect((check["message"] as? String)?.contains("2 distinct Gateways (multiple_gateways)") == true, "\(check)")
            #expect(diagnosis == ["multiple-gateways"], "\(diagnosis)")
        } catch {
            failure = error
        }
        await withdraw([("Main \(tag)", main), ("Rescue \(tag)", rescue)])
        if let failure { throw failure }
    }

    @Test("openclaw#97178: a beacon whose TXT gatewayPort contradicts its SRV port is named, with both")
    func openclaw97178TXTDisagrees() async throws {
        let tag = uniqueTag()
        let port = testPort()
        let beacon = try await publishBeacon("Proxy \(tag)", port: port, txt: ["gatewayPort=\(port + 1)"])
        var failure: (any Error)?
        do {
            let (check, diagnosis) = try await gatewaysCheck()
            let message = check["message"] as? String ?? ""
            #expect(message.contains("TXT gatewayPort=\(port + 1), SRV says \(port)"), "\(message)")
            #expect(diagnosis == ["beacon-disagrees"], "\(diagnosis)")
        } catch {
            failure = error
        }
        await withdraw([("Proxy \(tag)", beacon)])
        if let failure { throw failure }
    }
}

// MARK: Case 4: would a phone accept it

extension DoctorLabTests {
    @Test("openclaw#99031: a discovered Gateway without TLS: iOS refuses it, Android would use ws:// to .local; with TLS both connect")
    func openclaw99031PhoneVerdict() async throws {
        let tag = uniqueTag()
        let plain = try await publishBeacon("Plain \(tag)", port: testPort())
        var failure: (any Error)?
        do {
            let (_, document, _) = try await doctorJSON(["--check", "discovery.phones"], timeout: "4s")
            let check = try #require(checks(document).first { $0["id"] as? String == "discovery.phones" }, "\(checks(document))")
            let message = check["message"] as? String ?? ""
            #expect(check["status"] as? String == "warn", "\(check)")
            #expect(message.contains("Plain \(tag): Android ws:// in clear text to ") && message.contains("iOS refuses"), "\(message)")
            #expect((check["fix"] as? String)?.contains("gateway.tls.enabled") == true)
            #expect(diagnosisIDs(document) == ["phone-refuses"], "\(diagnosisIDs(document))")
        } catch {
            failure = error
        }
        await withdraw([("Plain \(tag)", plain)])
        if let failure { throw failure }

        let secure = try await publishBeacon("Secure \(tag)", port: testPort(), txt: ["gatewayTls=1"])
        do {
            let (_, document, _) = try await doctorJSON(["--check", "discovery.phones"], timeout: "4s")
            let check = try #require(checks(document).first { $0["id"] as? String == "discovery.phones" }, "\(checks(document))")
            #expect(check["status"] as? String == "pass", "\(check)")
            #expect((check["message"] as? String)?.contains("Secure \(tag): Android wss://") == true, "\(check)")
        } catch {
            failure = error
        }
        await withdraw([("Secure \(tag)", secure)])
        if let failure { throw failure }
    }
}
