import Foundation
import TestSupport
import Testing

/// The lab LAN again (an extension: serialized with the other lab tests, which count beacons):
/// the connect handshake against the stand-in and against python-websockets peers, a node's
/// config, a Gateway host's advertising switches, the new causes, and zone snippets served by
/// BIND. Stand-ins here publish no beacon unless a test needs one.
extension DoctorLabTests {
    /// A stand-in on lgw that serves without a beacon; its port and fingerprint.
    struct ServeOnly {
        let process: ChildProcess
        let port: Int
        let fingerprint: String
        let address: String
        var url: String { "wss://\(address):\(port)" }
    }

    func serveOnly(_ extra: [String] = [], tlsDirectory: String? = nil) async throws -> ServeOnly {
        let bed = try TestBed.current()
        let port = testPort()
        let directory = tlsDirectory ?? "\(bed.directory)/lab-tls-shared"
        let process = try bed.spawnClawnet(
            ["advertise", "--serve-only", "--port", String(port), "--tls-dir", directory, "--bind", bed.ip(.lgw)] + extra, on: .lgw)
        let serving = try await process.waitForOutput("like a Gateway (TLS 1.3, sha256 ", timeout: .seconds(20))
        let fingerprint = String(try #require(serving.text.split(separator: " ").last?.dropLast()))
        return ServeOnly(process: process, port: port, fingerprint: fingerprint, address: bed.ip(.lgw))
    }

    /// doctor on lnode as JSON, and its raw output (to look for what must not be there).
    func doctorRun(_ arguments: [String], on host: TestBed.Host = .lnode, environment: [String: String] = [:]) async throws -> (
        status: Int32, document: [String: Any], output: String
    ) {
        let bed = try TestBed.current()
        let result = try await bed.clawnet(
            ["doctor", "--json", "--timeout", "3s"] + arguments, on: host, environment: environment.merging(["HOME": bed.directory]) { $1 },
            timeout: .seconds(40))
        return (result.status, try jsonObject(result.stdout), result.stdout + result.stderr)
    }

    func gatewayCheck(_ document: [String: Any], _ id: String, port: Int) throws -> [String: Any] {
        let gateway = try #require(
            gateways(document).first { ($0["target"] as? String)?.contains(":\(port)") == true },
            "\(gateways(document).map { $0["target"] ?? "" })")
        return try #require((gateway["checks"] as? [[String: Any]])?.first { $0["id"] as? String == id }, "no \(id)")
    }

    static let standInOutcomes: [(String, String, String?, String)] = [
        ("auto", "pass", nil, "asks for a token or a paired device"),
        ("hello-ok", "pass", nil, "hello-ok: protocol 4"),
        ("device-required", "pass", nil, "DEVICE_IDENTITY_REQUIRED"),
        ("pairing-required", "fail", "pairing-required", "PAIRING_REQUIRED"),
        ("token-mismatch", "fail", "gateway-auth", "AUTH_TOKEN_MISMATCH"),
        ("token-missing", "fail", "gateway-auth", "AUTH_TOKEN_MISSING"),
        ("protocol-mismatch", "fail", "protocol-mismatch", "speaks protocol v5"),
        ("starting", "warn", "gateway-starting", "UNAVAILABLE: gateway starting"),
        ("close-1008", "fail", "gw-connect", "close 1008: invalid request frame"),
    ]

    @Test("the stand-in answers connect with each outcome; doctor classifies each and names its cause", arguments: standInOutcomes)
    func standInConnect(outcome: String, status: String, cause: String?, words: String) async throws {
        let gateway = try await serveOnly(["--connect", outcome])
        var failure: (any Error)?
        do {
            let (exit, document, _) = try await doctorRun([gateway.url, "--no-local", "--check", "gw.connect"])
            let check = try gatewayCheck(document, "gw.connect", port: gateway.port)
            #expect(check["status"] as? String == status, "\(outcome): \(check)")
            #expect((check["message"] as? String)?.contains(words) == true, "\(outcome): \(check["message"] ?? "")")
            #expect(diagnosisIDs(document) == (cause.map { [$0] } ?? []), "\(outcome): \(diagnosisIDs(document))")
            #expect(exit == (status == "fail" ? 1 : 0))
            expectFixes(document)
        } catch {
            failure = error
        }
        _ = try? await gateway.process.stop()
        if let failure { throw failure }
    }

    static let peerOutcomes: [(String, String, String?, String)] = [
        ("gateway", "pass", nil, "DEVICE_IDENTITY_REQUIRED"),
        ("hellook", "pass", nil, "Gateway 2026.5.1-peer"),
        ("pairing", "fail", "pairing-required", "openclaw devices approve"),
        ("tokenmismatch", "fail", "gateway-auth", "update_auth_credentials"),
        ("tokenmissing", "fail", "gateway-auth", "update_auth_configuration"),
        ("protocol", "fail", "protocol-mismatch", "speaks protocol v5"),
        ("starting", "warn", "gateway-starting", "retry after 500 ms"),
        ("close1008", "fail", "gw-connect", "invalid request frame"),
    ]

    @Test("python-websockets peers that answer connect as OpenClaw's server does: the same classification", arguments: peerOutcomes)
    func peerConnect(mode: String, status: String, cause: String?, words: String) async throws {
        let bed = try TestBed.current()
        let certificate = try await bed.makeCertificate()
        let (peer, port) = try await bed.startGatewayPeer(mode, host: .lgw, address: bed.ip(.lgw), certificate: certificate)
        var failure: (any Error)?
        do {
            let (_, document, _) = try await doctorRun(["wss://\(bed.ip(.lgw)):\(port)", "--no-local", "--check", "gw.connect"])
            let check = try gatewayCheck(document, "gw.connect", port: port)
            let message = "\(check["message"] ?? "") / \(check["fix"] ?? "")"
            #expect(check["status"] as? String == status, "\(mode): \(check)")
            #expect(message.contains(words), "\(mode): \(message)")
            #expect(diagnosisIDs(document) == (cause.map { [$0] } ?? []), "\(mode): \(diagnosisIDs(document))")
        } catch {
            failure = error
        }
        _ = try? await peer.stop()
        if let failure { throw failure }
    }

    @Test("TLS 1.2 only, TLS alerts (1.1 only, no cipher in common), another program on the port (Server named): each its own cause")
    func peerFailures() async throws {
        let bed = try TestBed.current()
        let certificate = try await bed.makeCertificate()
        for (mode, cause, words) in [
            ("tls12", "tls-version", "TLS 1.2"), ("tls11", "tls-alert", "protocol_version"), ("tlsalert", "tls-alert", "handshake_failure"),
            ("nginx", "another-program", "Server: nginx/1.24.0"),
        ] {
            let (peer, port) = try await bed.startGatewayPeer(mode, host: .lgw, address: bed.ip(.lgw), certificate: certificate)
            var failure: (any Error)?
            do {
                let (status, document, _) = try await doctorRun(["wss://\(bed.ip(.lgw)):\(port)", "--no-local"])
                #expect(status == 1)
                #expect(diagnosisIDs(document) == [cause], "\(mode): \(diagnosisIDs(document)) \(failures(document))")
                let text = (document["diagnosis"] as? [[String: Any]])?.first.map { "\($0["cause"] ?? "") \($0["fix"] ?? "")" } ?? ""
                #expect(text.contains(words) || failures(document).joined().contains(words), "\(mode): \(text)")
                expectFixes(document)
            } catch {
                failure = error
            }
            _ = try? await peer.stop()
            if let failure { throw failure }
        }
    }

    /// An OpenClaw config file in the test bed's folder.
    func writeConfig(_ text: String) throws -> String {
        let bed = try TestBed.current()
        let path = "\(bed.directory)/openclaw-\(uniqueTag()).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a node's config: gateway.remote.url is the one target, its pin and token are used, the token is never printed")
    func nodeConfig() async throws {
        let bed = try TestBed.current()
        let token = "lab-token-\(uniqueTag())-secret"
        let tokenFile = try writeConfig(token)
        let gateway = try await serveOnly(["--token-file", tokenFile])
        var failure: (any Error)?
        do {
            func writeNode(pin: String, token: String) throws -> String {
                try writeConfig(
                    """
                    // a node: its Gateway is elsewhere
                    { gateway: { mode: 'remote', remote: { url: '\(gateway.url)', tlsFingerprint: 'sha256:\(pin)', token: '\(token)' },
                                 bind: 'loopback' },
                      someFutureKey: { nested: true } }
                    """)
            }
            let good = try writeNode(pin: gateway.fingerprint, token: token)
            let (status, document, output) = try await doctorRun(["--config", good, "--no-local"])
            #expect(status == 0, "\(notPassing(document))")
            #expect(gateways(document).map { $0["target"] as? String } == [gateway.url], "only the node's Gateway, no 127.0.0.1")
            let config = try #require(checks(document).first { $0["id"] as? String == "openclaw.config" })
            #expect(config["status"] as? String == "pass" && (config["message"] as? String)?.contains("node of \(gateway.url)") == true)
            #expect((config["message"] as? String)?.contains("token from gateway.remote.token") == true)
            #expect(self.status(checks(document), "openclaw.advertising") == "skip")
            let connect = try gatewayCheck(document, "gw.connect", port: gateway.port)
            #expect((connect["message"] as? String)?.hasPrefix("hello-ok") == true, "\(connect)")
            #expect((try gatewayCheck(document, "gw.pin", port: gateway.port)["message"] as? String)?.contains("pin") == true)
            #expect(!output.contains(token), "the token must not be printed")
            let verbose = try await bed.clawnet(
                ["doctor", "--verbose", "--all", "--config", good, "--no-local", "--timeout", "3s"], on: .lnode,
                environment: ["HOME": bed.directory]
            )
            #expect(!(verbose.stdout + verbose.stderr).contains(token), "not with --verbose either")
            #expect(verbose.stdout.contains("PASS  gw.connect"), "\(verbose.stdout)")

            let wrongToken = try writeNode(pin: gateway.fingerprint, token: "not-the-token")
            let (_, refused, refusedOutput) = try await doctorRun(["--config", wrongToken, "--no-local"])
            #expect(diagnosisIDs(refused) == ["gateway-auth"], "\(failures(refused))")
            #expect(!refusedOutput.contains("not-the-token"))
            let wrongPin = try writeNode(pin: String(repeating: "ab", count: 32), token: token)
            let (_, pinned, _) = try await doctorRun(["--config", wrongPin, "--no-local"])
            #expect(diagnosisIDs(pinned) == ["pin-changed"], "\(failures(pinned))")

            let preflight = try await bed.clawnet(
                ["preflight", "--config", good, "--json", "--no-local"], on: .lnode, environment: ["HOME": bed.directory])
            #expect(preflight.status == 0, "\(preflight.stdout)")
            #expect(!preflight.stdout.contains(token))
            for (pin, expected) in [(gateway.fingerprint, Int32(0)), (String(repeating: "cd", count: 32), 1)] {
                let pinned = try await bed.clawnet(
                    ["preflight", gateway.url, "--pin", pin, "--no-local", "--json"], on: .lnode, environment: ["HOME": bed.directory])
                #expect(pinned.status == expected, "preflight --pin: \(pinned.stdout)")
            }
        } catch {
            failure = error
        }
        _ = try? await gateway.process.stop()
        if let failure { throw failure }
    }

    /// The device's signature goes only to a verified peer: the stand-in's certificate is pinned.
    @Test("--as-device: an unpaired node gets a pairing request to approve; once paired, hello-ok")
    func asDevice() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let identity = "\(bed.directory)/device-\(tag).json"
        let keyFile = "\(bed.directory)/device-\(tag).pem"
        // OpenClaw's own format, made by openssl: an Ed25519 key in PKCS#8 PEM.
        let key = try await runCommand("/usr/bin/env", ["openssl", "genpkey", "-algorithm", "ed25519", "-out", keyFile])
        #expect(key.status == 0, "\(key.stderr)")
        let pem = try String(contentsOfFile: keyFile, encoding: .utf8).replacingOccurrences(of: "\n", with: "\\n")
        let publicKey = try await runCommand("/usr/bin/env", ["openssl", "pkey", "-in", keyFile, "-pubout"])
        let publicPem = publicKey.stdout.replacingOccurrences(of: "\n", with: "\\n")
        try #"{"version":1,"deviceId":"x","publicKeyPem":"\#(publicPem)","privateKeyPem":"\#(pem)","createdAtMs":1}"#.write(
            toFile: identity, atomically: true, encoding: .utf8)
        let unpaired = try await serveOnly()
        var failure: (any Error)?
        do {
            let (status, document, _) = try await doctorRun([
                unpaired.url, "--no-local", "--as-device", identity, "--pin", unpaired.fingerprint,
            ])
            #expect(status == 1)
            let connect = try gatewayCheck(document, "gw.connect", port: unpaired.port)
            #expect((connect["message"] as? String)?.contains("PAIRING_REQUIRED") == true, "\(connect)")
            #expect((connect["fix"] as? String)?.contains("openclaw devices approve ") == true)
            #expect(diagnosisIDs(document) == ["pairing-required"])
            let deviceId = try #require((document["diagnosis"] as? [[String: Any]])?.first?["cause"] as? String)
            #expect(deviceId.contains("device "))
        } catch {
            failure = error
        }
        _ = try? await unpaired.process.stop()
        if let failure { throw failure }

        // The device id OpenClaw derives: the SHA-256 of the raw public key.
        let der = try await runCommand("/bin/sh", ["-c", "openssl pkey -in '\(keyFile)' -pubout -outform DER | tail -c 32 | sha256sum"])
        let id = String(der.stdout.prefix(64))
        let paired = try await serveOnly(["--paired-device", id])
        do {
            let (status, document, _) = try await doctorRun([
                paired.url, "--no-local", "--as-device", identity, "--pin", paired.fingerprint,
            ])
            #expect(status == 0, "\(notPassing(document))")
            #expect(
                (try gatewayCheck(document, "gw.connect", port: paired.port)["message"] as? String)?.contains("as device \(id.prefix(12))")
                    == true)
            // The same identity from standard input and from a pipe (`<(...)`), as every input is read.
            let command = [
                ClawnetBinary.path, "doctor", "--json", "--timeout", "3s", paired.url, "--no-local", "--pin", paired.fingerprint,
            ]
            .map { "'\($0)'" }.joined(separator: " ")
            for script in ["\(command) --as-device - < '\(identity)'", "\(command) --as-device <(cat '\(identity)')"] {
                let piped = try await bed.run(
                    on: .lnode, ["/bin/bash", "-c", script], environment: ["HOME": bed.directory], timeout: .seconds(40))
                #expect(piped.status == 0, "\(script): \(piped.stderr)")
                let connect = try gatewayCheck(try jsonObject(piped.stdout), "gw.connect", port: paired.port)
                #expect((connect["message"] as? String)?.contains("as device \(id.prefix(12))") == true, "\(script): \(connect)")
            }
        } catch {
            failure = error
        }
        _ = try? await paired.process.stop()
        if let failure { throw failure }
    }

    @Test("a Gateway host whose advertising is switched off: openclaw.advertising names the switch, and so does the cause")
    func gatewayHostSwitches() async throws {
        let gateway = try await serveOnly()
        var failure: (any Error)?
        do {
            let config = try writeConfig(
                "{ gateway: { port: \(gateway.port), bind: 'lan', tls: { enabled: true } }, discovery: { mdns: { mode: 'off' } } }")
            let (_, document, _) = try await doctorRun(["--config", config], on: .lgw)
            let advertising = try #require(checks(document).first { $0["id"] as? String == "openclaw.advertising" })
            #expect(
                advertising["status"] as? String == "warn" && (advertising["message"] as? String)?.contains("discovery.mdns.mode") == true)
            let cause = try #require(
                (document["diagnosis"] as? [[String: Any]])?.first { $0["id"] as? String == "gateway-not-advertising" })
            #expect((cause["cause"] as? String)?.contains("discovery.mdns.mode is \"off\"") == true)
            #expect((cause["fix"] as? String)?.contains("\"minimal\"") == true)
            #expect(!diagnosisIDs(document).contains("multicast-blocked"), "the switch explains the silence")

            let plain = try writeConfig("{ gateway: { port: \(gateway.port), bind: 'lan', tls: { enabled: true } } }")
            let (_, env, _) = try await doctorRun(["--config", plain], on: .lgw, environment: ["OPENCLAW_DISABLE_BONJOUR": "1"])
            let envCause = try #require((env["diagnosis"] as? [[String: Any]])?.first { $0["id"] as? String == "gateway-not-advertising" })
            #expect((envCause["cause"] as? String)?.contains("OPENCLAW_DISABLE_BONJOUR=1") == true)
            let (_, on, _) = try await doctorRun(["--config", plain], on: .lgw, environment: ["OPENCLAW_DISABLE_BONJOUR": "0"])
            #expect(self.status(checks(on), "openclaw.advertising") == "pass", "0 forces advertising on, even in a container")
            // Without the override a container turns the advertiser off, as OpenClaw's does.
            let container = ["/.dockerenv", "/run/.containerenv", "/var/run/.containerenv"].first {
                FileManager.default.fileExists(atPath: $0)
            }
            let (_, bare, _) = try await doctorRun(["--config", plain], on: .lgw)
            let advertisingCheck = try #require(checks(bare).first { $0["id"] as? String == "openclaw.advertising" })
            if let container {
                #expect(
                    advertisingCheck["status"] as? String == "warn" && (advertisingCheck["message"] as? String)?.contains(container) == true
                )
            } else {
                #expect(advertisingCheck["status"] as? String == "pass", "\(advertisingCheck)")
            }
        } catch {
            failure = error
        }
        _ = try? await gateway.process.stop()
        if let failure { throw failure }
    }

    @Test("a Gateway published with a Docker bridge address beside its own: gw.tcp warns, unroutable-address names it")
    func dockerBridgeAddress() async throws {
        let bed = try TestBed.current()
        let gateway = try await serveOnly()
        let name = "Bridged \(uniqueTag())"
        // Avahi resolves one address per host; a wide-area zone carries them all, as OpenClaw's
        // writer does for a Gateway host with several interfaces.
        let spec = "host=lgw,ip=\(bed.ip(.lgw)),ip=172.17.0.1,port=\(gateway.port),name=\(name),tls=\(gateway.fingerprint)"
        let zone = try await bed.clawnet(
            ["zone", "generate", "--domain", "openclaw.internal", "--gateway", spec, "--ns-address", bed.ip(.lgw)], on: .lgw)
        let dns = try await bed.startBIND(zones: ["openclaw.internal": zone.stdout], host: .lgw, address: bed.ip(.lgw))
        var failure: (any Error)?
        do {
            let (status, document, _) = try await doctorRun(
                [name, "--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint])
            #expect(status == 0, "a warning: \(notPassing(document))")
            let tcp = try gatewayCheck(document, "gw.tcp", port: gateway.port)
            #expect(tcp["status"] as? String == "warn" && (tcp["message"] as? String)?.contains("172.17.0.1") == true, "\(tcp)")
            let cause = try #require((document["diagnosis"] as? [[String: Any]])?.first { $0["id"] as? String == "unroutable-address" })
            #expect((cause["cause"] as? String)?.contains("Docker bridge") == true)
        } catch {
            failure = error
        }
        await dns.stop()
        _ = try? await gateway.process.stop()
        if let failure { throw failure }
    }

    @Test(
        "zone snippets: a verified Gateway stale in the zone gets its records; the fragment passes zone check, BIND serves it, browse finds it"
    )
    func snippets() async throws {
        let bed = try TestBed.current()
        let lab = try await startLab(zonePort: 9)
        var failure: (any Error)?
        do {
            let fragment = "\(bed.directory)/fragment-\(uniqueTag()).db"
            let (_, document) = try await lab.doctor(["--emit-zone", fragment])
            let snippets = document["snippets"] as? [[String: Any]] ?? []
            let snippet = try #require(snippets.first { ($0["target"] as? String)?.contains(":\(lab.port)") == true }, "\(snippets)")
            #expect(snippet["reason"] as? String == "stale")
            #expect((snippet["differences"] as? [String])?.contains { $0.contains("port 9") } == true)
            let records = try #require(snippet["records"] as? String)
            #expect(records.contains("SRV 0 0 \(lab.port) lgw") && records.contains("gatewayTlsSha256=\(lab.fingerprint)"), "\(records)")
            #expect(records.contains("lgw IN A \(bed.ip(.lgw))"))

            let check = try await bed.clawnet(["zone", "check", fragment, "--json"], on: .lnode)
            #expect(check.status == 0, "\(check.stdout)")

            let header = """
                $ORIGIN openclaw.internal.
                $TTL 60
                @ IN SOA ns1 hostmaster 2026112301 7200 3600 1209600 60
                @ IN NS ns1
                ns1 IN A \(bed.ip(.lgw))

                """
            let served = try await bed.startBIND(
                zones: ["openclaw.internal": header + (try String(contentsOfFile: fragment, encoding: .utf8))], host: .lgw,
                address: bed.ip(.lgw))
            let browse = try await bed.clawnet(
                ["browse", "--no-local", "--domain", "openclaw.internal", "--server", served.endpoint, "--json"], on: .lnode)
            await served.stop()
            let beacons = try jsonObject(browse.stdout)["beacons"] as? [[String: Any]] ?? []
            let found = try #require(beacons.first { $0["instance"] as? String == lab.name }, "\(browse.stdout)")
            #expect(found["port"] as? Int == lab.port)
            #expect((found["gateway"] as? [String: Any])?["tlsSha256"] as? String == lab.fingerprint)
            #expect(browse.status == 0)

            let (_, pinned) = try await lab.doctor(["--pin", String(repeating: "ab", count: 32)])
            #expect(
                !((pinned["snippets"] as? [[String: Any]]) ?? []).contains { ($0["target"] as? String)?.contains(":\(lab.port)") == true },
                "a Gateway that failed a check is never put in a snippet")
        } catch {
            failure = error
        }
        await lab.stop()
        if let failure { throw failure }
    }
}

@Suite("doctor --no-local", .testBed)
struct DoctorNoLocalTests {
    @Test("--no-local on a machine without D-Bus: no mDNS check runs, no no-mdns cause, nothing fails")
    func noLocal() async throws {
        let bed = try TestBed.current()
        let result = try await bed.clawnet(
            ["doctor", "--json", "--no-local", "--timeout", "2s", "--check", "mdns.dbus", "--check", "mdns.daemon"], on: .bare,
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/clawnet-bus", "HOME": "/nonexistent"])
        let document = try jsonObject(result.stdout)
        let checks = document["checks"] as? [[String: Any]] ?? []
        #expect(checks.allSatisfy { $0["status"] as? String == "skip" }, "\(checks)")
        #expect((document["diagnosis"] as? [[String: Any]])?.isEmpty == true)
        #expect(result.status == 0)
        let preflight = try await bed.clawnet(
            ["preflight", "--no-local", "--require", "gateway", "--json", "ws://127.0.0.1:9"], on: .bare,
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/clawnet-bus", "HOME": "/nonexistent"])
        #expect(preflight.status == 1, "the target is refused, and nothing about mDNS: \(preflight.stdout)")
        #expect(preflight.stdout.contains("127.0.0.1:9"))
    }
}

/// What the system resolver and the tailnet say on the `ts` host (serialized with the split-DNS
/// tests: both use 127.0.0.1:53 and 100.100.100.100:53 there).
extension TailscaleSplitDNSTests {
    @Test("a name that does not exist, a .local name without nss-mdns, a ts.net name only MagicDNS knows: three causes")
    func names() async throws {
        let bed = try TestBed.current()
        let magic = try await bed.startBIND(
            zones: ["tail1234.ts.net": tailZone], host: .ts, address: "100.100.100.100", port: 53)
        defer { magic.terminate() }
        let system = try await bed.startBIND(zones: ["openclaw.internal": studioZone], host: .ts, address: "127.0.0.1", port: 53)
        defer { system.terminate() }
        for (target, cause, words) in [
            ("wss://nope.openclaw.internal:18789", "name-not-found", "NXDOMAIN"),
            ("wss://studio-box.local:18789", "nss-mdns-missing", "libnss-mdns"),
            ("wss://gw.tail1234.ts.net:18789", "magicdns-not-applied", "100.101.102.7"),
        ] {
            let result = try await bed.clawnet(
                ["doctor", "--json", "--no-local", "--timeout", "3s", "--check", "gw.dns", target], on: .ts, timeout: .seconds(30))
            let document = try jsonObject(result.stdout)
            let diagnosis = document["diagnosis"] as? [[String: Any]] ?? []
            #expect(diagnosis.map { $0["id"] as? String } == [cause], "\(target): \(result.stdout)")
            let text = diagnosis.map { "\($0["cause"] ?? "") \($0["fix"] ?? "")" }.joined()
            #expect(text.contains(words), "\(target): \(text)")
            #expect(result.status == 1)
        }
    }

    @Test("a tailnet address: off the tailnet Tailscale is down; on it, a custom range from tailscale0 is still the tailnet")
    func tailnetAddresses() async throws {
        let bed = try TestBed.current()
        let off = try await bed.clawnet(
            ["doctor", "--json", "--no-local", "--timeout", "2s", "--check", "gw.tcp", "ws://100.101.102.77:18789"], on: .node,
            timeout: .seconds(30))
        let offCause = try #require((try jsonObject(off.stdout)["diagnosis"] as? [[String: Any]])?.first)
        #expect(offCause["id"] as? String == "tailnet-unreachable", "\(off.stdout)")
        #expect((offCause["cause"] as? String)?.contains("not on one") == true)

        let added = try await bed.run(on: .ts, ["ip", "addr", "add", "10.77.0.5/16", "dev", "tailscale0"])
        #expect(added.status == 0, "\(added.stderr)")
        var failure: (any Error)?
        do {
            let on = try await bed.clawnet(
                ["doctor", "--json", "--no-local", "--timeout", "2s", "--check", "gw.tcp", "ws://10.77.0.9:18789"], on: .ts,
                timeout: .seconds(30))
            let onCause = try #require((try jsonObject(on.stdout)["diagnosis"] as? [[String: Any]])?.first, "\(on.stdout)")
            #expect(onCause["id"] as? String == "tailnet-unreachable", "\(on.stdout)")
            #expect((onCause["cause"] as? String)?.contains("this machine is on one (tailscale0)") == true, "\(onCause)")
        } catch {
            failure = error
        }
        _ = try? await bed.run(on: .ts, ["ip", "addr", "del", "10.77.0.5/16", "dev", "tailscale0"])
        if let failure { throw failure }
    }
}

/// MagicDNS's zone on the tailnet host's 100.100.100.100.
let tailZone = """
    $ORIGIN tail1234.ts.net.
    $TTL 60
    @ IN SOA ns1 hostmaster 1 7200 3600 1209600 60
    @ IN NS ns1
    ns1 IN A 100.100.100.100
    gw IN A 100.101.102.7
    """
