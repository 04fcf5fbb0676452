import Foundation
import TestSupport
import Testing

/// `--verbose` of every command that logs (probes, DNS queries, UPDATEs, transfers): words for
/// people, never a Swift value (`PhaseTiming<ConnectOutcome>(...)`, `Optional(...)`).
@Suite("--verbose logs words, not Swift values, in every command", .testBed, .serialized)
struct VerboseLogTests {
    @Test("the detector finds what it looks for (so a clean log means something)")
    func detector() {
        let dumps = [
            "debug clawnet.probe: x: connect PhaseTiming<ConnectOutcome>(outcome: .ok, elapsed: 3 ms)",
            "debug: UPDATE z: NOTAUTH from s, TSIG serverError(BADKEY, serverTime: nil)", "host Optional(\"a\")",
            "to Endpoint(host: \"a\", port: 1)",
        ]
        for dump in dumps { #expect(swiftValueLines(in: dump) == [dump], "\(dump)") }
        #expect(swiftValueLines(in: "debug clawnet.probe: wss://a:1: tcp 10.0.0.1 port 1: refused in 5 ms (SIGTERM)").isEmpty)
    }

    @Test("zone push, zone check --axfr, browse and doctor --domain against BIND, with a good key and an unknown one")
    func dnsCommands() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let stranger = try await bed.makeTSIGKey(name: "stranger")
        let dns = try await dynamicBIND(bed, key: key)
        defer { dns.terminate() }
        let runs: [[String]] = [
            [
                "zone", "push", "--domain", "openclaw.internal", "--server", dns.endpoint, "--tsig-key", key.path, "--gateway",
                "host=a,ip=10.0.0.1",
            ],
            [
                "zone", "push", "--domain", "openclaw.internal", "--server", dns.endpoint, "--tsig-key", stranger.path, "--gateway",
                "host=b,ip=10.0.0.2",
            ],
            ["zone", "check", "--axfr", "--domain", "openclaw.internal", "--server", dns.endpoint, "--tsig-key", key.path],
            ["browse", "--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint],
            ["doctor", "--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint, "--timeout", "3s"],
            ["preflight", "--domain", "openclaw.internal", "--server", dns.endpoint, "--require", "wide-area", "--timeout", "3s"],
        ]
        for arguments in runs {
            let result = try await bed.clawnet(arguments + ["--verbose"])
            #expect(result.stderr.contains("debug"), "\(arguments[0...1]) logged nothing: \(result.stderr)")
            #expect(swiftValueLines(in: result.stderr).isEmpty, "\(arguments[0...1]): \(swiftValueLines(in: result.stderr))")
        }
    }

    @Test("doctor against a stand-in Gateway, every phase to connect, and against silent and garbage peers")
    func probes() async throws {
        let bed = try TestBed.current()
        let certificate = try await bed.makeCertificate()
        for mode in ["gateway", "silent", "garbage"] {
            let (peer, port) = try await bed.startGatewayPeer(mode, certificate: certificate)
            defer { peer.terminate() }
            let result = try await bed.clawnet(["doctor", "wss://127.0.0.1:\(port)", "--no-local", "--verbose", "--timeout", "3s"])
            #expect(result.stderr.contains("clawnet.probe"), "\(mode) logged no probe: \(result.stderr)")
            #expect(swiftValueLines(in: result.stderr).isEmpty, "\(mode): \(swiftValueLines(in: result.stderr))")
        }
    }

    @Test("advertise --domain (its UPDATE, and the withdrawal on SIGTERM) against BIND")
    func advertise() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key)
        defer { dns.terminate() }
        let state = "\(bed.directory)/state-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let name = "Verbose \(uniqueTag())"
        let advertiser = try bed.spawnClawnet(
            [
                "advertise", "--name", name, "--port", String(testPort()), "--domain", "openclaw.internal", "--server", dns.endpoint,
                "--tsig-key", key.path, "--address", "127.0.0.1", "--no-local", "--verbose",
            ], environment: ["XDG_STATE_HOME": state])
        defer { advertiser.terminate() }
        try await advertiser.waitForOutput("registered \"\(name)\"", timeout: .seconds(20))
        #expect(try await advertiser.stop(signal: SIGTERM, timeout: .seconds(30)) == 0, "\(advertiser.outputTail)")
        await advertiser.waitForOutputEnd()
        let log = advertiser.lines.filter { $0.stream == .stderr }.map(\.text).joined(separator: "\n")
        #expect(log.contains("clawnet.update"), "advertise logged no UPDATE: \(log)")
        #expect(swiftValueLines(in: log).isEmpty, "advertise: \(swiftValueLines(in: log))")
    }

    @Test("watch probing a stand-in Gateway (up) and a garbage peer (down), then stopped by SIGTERM")
    func watch() async throws {
        let bed = try TestBed.current()
        let certificate = try await bed.makeCertificate()
        let (gateway, up) = try await bed.startGatewayPeer("gateway", certificate: certificate)
        defer { gateway.terminate() }
        let (garbage, down) = try await bed.startGatewayPeer("garbage", certificate: certificate)
        defer { garbage.terminate() }
        let watch = try bed.spawnClawnet(
            ["watch", "wss://127.0.0.1:\(up)", "wss://127.0.0.1:\(down)", "--no-local", "--interval", "1s", "--verbose"],
            environment: ["HOME": bed.directory])
        defer { watch.terminate() }
        for (event, port) in [("up", up), ("down", down)] {
            try await watch.waitForLine(timeout: .seconds(40), "\(event) for port \(port)") {
                $0.stream == .stdout && $0.text.contains("  \(event)  wss://127.0.0.1:\(port)")
            }
        }
        #expect(try await watch.stop() == 0, "SIGTERM ends watch cleanly: \(watch.outputTail)")
        let log = watch.lines.filter { $0.stream == .stderr }.map(\.text).joined(separator: "\n")
        #expect(log.contains("clawnet.probe"), "watch logged no probe: \(log)")
        #expect(swiftValueLines(in: log).isEmpty, "watch: \(swiftValueLines(in: log))")
    }
}
