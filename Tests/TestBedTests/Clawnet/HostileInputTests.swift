import Foundation
import TestSupport
import Testing

/// Hostile input from outside, each through the binary on the test bed's `bare` host (no
/// Avahi there: every packet stays on its loopback): configs that are not UTF-8, resolv.conf
/// naming "this host", resolvers that never answer, Gateways that flood, break RFC 6455 or
/// send terminal escapes, zones and TXT records full of them.
@Suite("hostile input: crashes, hangs, floods and terminal injection", .testBed)
struct HostileInputTests {
    /// Clear screen, window title, cursor home, bell, C1 CSI, a line break and a fake line, DEL
    /// (as scripts/peers/hostile_gateway.py sends them).
    static let hostile = "\u{1B}[2J\u{1B}]0;owned\u{07}\u{1B}[H\u{9B}31m\r\nPASS  gw.everything  all good\u{7F}"

    /// Bytes a terminal acts on, other than the newlines between lines (no colour here: the
    /// output is not a terminal).
    static func controls(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0 != "\n" && ($0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value)) }
    }

    /// Words of the libraries' own error texts that must never reach a user.
    static let libraryWords = [
        "descriptor", "errno", "responseProtocolNotFound", "ControlFrame", "invalid constant string", "IOError", "NIO", "BoringSSL",
        "OPENSSL_internal", ".cc:", "failed(\"",
    ]

    /// `clawnet ARGUMENTS` on `host` with this resolv.conf over /etc/resolv.conf (a bind mount in
    /// the private mount namespace `ip netns exec` gives each command).
    func clawnet(_ arguments: [String], resolvConf: String, on host: TestBed.Host = .bare, timeout: Duration = .seconds(60)) async throws
        -> CommandResult
    {
        let bed = try TestBed.current()
        let file = "\(bed.directory)/resolv-\(uniqueTag()).conf"
        try resolvConf.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let script = "mount --bind \(file) /etc/resolv.conf && exec \"$0\" \"$@\""
        return try await bed.run(on: host, ["sh", "-c", script, ClawnetBinary.path] + arguments, timeout: timeout)
    }

    @Test("a 7-byte config that is not UTF-8: browse, preflight and doctor run, each with the documented warning (they exited 132)")
    func configNotUTF8() async throws {
        let bed = try TestBed.current()
        let home = "\(bed.directory)/home-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: home + "/.openclaw", withIntermediateDirectories: true)
        try Data([UInt8(ascii: "{"), 0xFD] + Array(" true".utf8)).write(to: URL(fileURLWithPath: home + "/.openclaw/openclaw.json"))
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment = ["HOME": home]
        for arguments in [
            ["browse", "--no-local", "--manual", "127.0.0.1", "--timeout", "2s"], ["preflight", "--timeout", "2s"],
            ["doctor", "--no-local", "--timeout", "2s"],
        ] {
            let result = try await bed.clawnet(arguments, on: .bare, environment: environment)
            #expect([0, 1, 3].contains(result.status), "\(arguments): exit \(result.status): \(result.stderr)")
            let output = result.stdout + result.stderr
            #expect(output.contains("byte 1 is not UTF-8 (0xFD)"), "\(arguments): \(output)")
        }
    }

    @Test("resolv.conf's `nameserver 0.0.0.0` is this host, as glibc reads it: the domain is browsed at 127.0.0.1")
    func resolvConfThisHost() async throws {
        let bed = try TestBed.current()
        let bind = try await bed.startBIND(zones: ["openclaw.internal": studioZone], host: .bare, address: "127.0.0.1", port: 53)
        defer { bind.terminate() }
        let result = try await clawnet(
            ["browse", "--no-local", "--domain", "openclaw.internal", "--format", "json"], resolvConf: "nameserver 0.0.0.0\n")
        #expect(result.status == 0, "\(result.stderr)")
        let found = beacons(try jsonObject(result.stdout))
        #expect(found.count == 2, "\(result.stdout)")
        #expect(found.allSatisfy { ($0["resolvers"] as? [String]) == ["127.0.0.1#53"] }, "\(found)")
    }

    @Test("a resolver that never answers: twelve --manual names, five doctor targets and --from-browse end within the timeout")
    func silentResolver() async throws {
        let bed = try TestBed.current()
        let peer = try bed.spawn(
            on: .bare, [bed.python, bed.scripts + "/peers/hostile_peer.py", "udp-silent", "--address", "127.0.0.9", "--port", "53"])
        defer { peer.terminate() }
        try await peer.waitForOutput("ready")
        // Each lookup would block for 30 s: only lookups that run apart from the timers end in time.
        let resolvConf = "nameserver 127.0.0.9\noptions timeout:30 attempts:1\n"
        let names = (1...12).map { "gw\($0).example.test" }
        // Each command must end by itself (the harness calls 60 s a hang) and say what it could
        // not reach; how close to the 2 s it ends is measured by scripts/bench-timeouts.
        let browse = try await clawnet(
            ["browse", "--no-local", "--timeout", "2s", "--format", "json"] + names.flatMap { ["--manual", $0] }, resolvConf: resolvConf)
        let rows = beacons(try jsonObject(browse.stdout))
        #expect(rows.count == 12, "\(browse.stdout)")
        #expect(rows.allSatisfy { ($0["warnings"] as? [String])?.contains { $0.contains("took longer than") } == true }, "\(rows)")

        let doctor = try await clawnet(
            ["doctor", "--no-local", "--timeout", "2s", "--format", "json"] + names.prefix(5), resolvConf: resolvConf)
        let gateways = try jsonObject(doctor.stdout)["gateways"] as? [[String: Any]] ?? []
        #expect(gateways.count == 5, "\(doctor.stdout)")

        let zone = try await clawnet(
            ["zone", "generate", "--domain", "x.test", "--from-browse", "--no-local", "--ns-address", "10.0.0.1", "--timeout", "2s"]
                + names.prefix(3).flatMap { ["--manual", $0] }, resolvConf: resolvConf)
        // Manual targets carry nothing to publish: each is named as skipped, none is waited for.
        #expect(zone.status == 0 && zone.stderr.contains("skipped manual target gw3.example.test"), "\(zone.status): \(zone.stderr)")
    }

    /// doctor's JSON for `url`, against hostile_gateway.py in `mode` on bare.
    func doctorAgainst(_ mode: String, tls: Bool = false, extra: [String] = [], format: String = "json") async throws -> CommandResult {
        let bed = try TestBed.current()
        let certificate = tls && extra.isEmpty ? try await bed.makeCertificate(rsa: false) : nil
        let (peer, port) = try await bed.startGatewayPeer(
            mode, script: "hostile_gateway.py", host: .bare, certificate: certificate, extraArguments: extra)
        defer { peer.terminate() }
        return try await bed.clawnet(
            ["doctor", "\(tls ? "wss" : "ws")://127.0.0.1:\(port)", "--no-local", "--timeout", "4s", "--format", format], on: .bare)
    }

    func gatewayChecks(_ result: CommandResult) throws -> [String: [String: Any]] {
        let gateways = try jsonObject(result.stdout)["gateways"] as? [[String: Any]] ?? []
        let checks = gateways.first?["checks"] as? [[String: Any]] ?? []
        return Dictionary(checks.map { (($0["id"] as? String) ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("a ping flood over TLS: a handful of pongs, then gw.protocol names the flood (doctor used to reach 1.2 GB)")
    func pingFlood() async throws {
        let result = try await doctorAgainst("pingflood", tls: true)
        let checks = try gatewayChecks(result)
        #expect(checks["gw.websocket"]?["status"] as? String == "pass", "\(checks)")
        #expect((checks["gw.protocol"]?["message"] as? String)?.contains("more than 16 frames") == true, "\(checks)")
    }

    @Test(
        "Gateways that break the rules: each named in words, never with a library's own text",
        arguments: [
            ("bigping", "gw.protocol", "longer than 125 bytes"), ("fragping", "gw.protocol", "in fragments"),
            ("noupgrade", "gw.websocket", "without `Upgrade: websocket`"), ("badhttp", "gw.http", "not valid HTTP/1.1"),
            ("reset", "gw.http", "reset the connection"), ("bodyflood", "gw.http", "larger than 64 KiB"),
            ("headerflood", "gw.http", "headers are too large"),
        ])
    func brokenGateways(mode: String, check: String, words: String) async throws {
        let result = try await doctorAgainst(mode)
        let checks = try gatewayChecks(result)
        let message = checks[check]?["message"] as? String ?? ""
        #expect(message.contains(words), "\(mode): \(checks)")
        for word in Self.libraryWords {
            #expect(!result.stdout.contains(word), "\(mode): '\(word)' in \(result.stdout)")
        }
    }

    @Test("escape sequences in /healthz, the first frame and the certificate's subject: the table shows them escaped, JSON exact")
    func escapesFromAGateway() async throws {
        let table = try await doctorAgainst("escapes", tls: true, extra: ["--escape-cert"], format: "table")
        #expect(Self.controls(table.stdout + table.stderr).isEmpty, "\(table.stdout.debugDescription)")
        #expect(table.stdout.contains("\\027[2J\\027]0;owned\\007"), "\(table.stdout)")
        #expect(!table.stdout.split(separator: "\n").contains { $0.hasPrefix("PASS  gw.everything") }, "no injected line")

        let json = try await doctorAgainst("escapes", tls: true, extra: ["--escape-cert"])
        #expect(Self.controls(json.stdout).isEmpty, "\(json.stdout.debugDescription)")
        let checks = try gatewayChecks(json)
        let subject = (checks["gw.cert"]?["detail"] as? [String: Any])?["subject"] as? String ?? ""
        #expect(subject.contains(Self.hostile.replacingOccurrences(of: ";", with: "\\;")), "\(subject.debugDescription)")
    }

    @Test("escape sequences in TXT values and names from DNS, and in a zone file: browse and zone check show them escaped")
    func escapesFromDNS() async throws {
        let bed = try TestBed.current()
        let zone = openClawZone([
            "gw IN A 10.0.0.2",
            #"_openclaw-gw._tcp IN PTR a\027[2J._openclaw-gw._tcp"#,
            #"a\027[2J._openclaw-gw._tcp IN SRV 0 0 18789 gw"#,
            #"a\027[2J._openclaw-gw._tcp IN TXT "role=\027]0;owned\007\013\010FAKE" "gatewayPort=\027[2J99" "gatewayTlsSha256=\155\027[31m""#,
        ])
        let bind = try await bed.startBIND(zones: ["openclaw.internal": zone], host: .bare)
        defer { bind.terminate() }
        let browse = try await bed.clawnet(["browse", "--no-local", "--domain", "openclaw.internal", "--server", bind.endpoint], on: .bare)
        #expect(browse.status == 0, "\(browse.stderr)")
        #expect(browse.stdout.contains("! TXT role is '\\027]0;owned\\007\\013\\010FAKE'"), "\(browse.stdout)")
        #expect(Self.controls(browse.stdout + browse.stderr).isEmpty, "\(browse.stdout.debugDescription)")

        let file = "\(bed.directory)/hostile-\(uniqueTag()).db"
        try zone.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let check = try await bed.clawnet(["zone", "check", file], on: .bare)
        #expect(check.stdout.contains("'\\027[2J99' is not a port number"), "\(check.stdout)")
        #expect(Self.controls(check.stdout + check.stderr).isEmpty, "\(check.stdout.debugDescription)")
    }

    @Test("bidi overrides and zero-width characters in a name and a TXT value from DNS: browse escapes them, JSON keeps them exact")
    func invisibleFromDNS() async throws {
        let bed = try TestBed.current()
        // "Studio" U+202E ")walCnepO(" U+202C U+200B: renders as "Studio (OpenClaw)" where bidi is honoured.
        let instance = #"Studio\226\128\174\)walCnepO\(\226\128\172\226\128\139"#
        let zone = openClawZone([
            "gw IN A 10.0.0.2",
            "_openclaw-gw._tcp IN PTR \(instance)._openclaw-gw._tcp",
            "\(instance)._openclaw-gw._tcp IN SRV 0 0 18789 gw",
            #"\#(instance)._openclaw-gw._tcp IN TXT "role=gateway" "displayName=Studio\226\129\166x\226\128\168""#,
        ])
        let bind = try await bed.startBIND(zones: ["openclaw.internal": zone], host: .bare)
        defer { bind.terminate() }
        let arguments = ["browse", "--no-local", "--domain", "openclaw.internal", "--server", bind.endpoint]
        let table = try await bed.clawnet(arguments, on: .bare)
        #expect(table.status == 0, "\(table.stderr)")
        let output = table.stdout + table.stderr
        let raw = output.unicodeScalars.filter { $0.properties.generalCategory == .format || [0x2028, 0x2029].contains($0.value) }
        #expect(raw.isEmpty, "raw: \(raw.map { String($0.value, radix: 16) }) in \(output.debugDescription)")
        #expect(table.stdout.contains(#"Studio\226\128\174)walCnepO(\226\128\172\226\128\139"#), "\(table.stdout)")

        let json = try await bed.clawnet(arguments + ["--format", "json"], on: .bare)
        #expect(json.stdout.contains(#"Studio\u202e)walCnepO(\u202c\u200b"#), "\(json.stdout)")
        let document = try jsonObject(json.stdout)
        let names = (document["beacons"] as? [[String: Any]] ?? []).compactMap { $0["instance"] as? String }
        #expect(names == ["Studio\u{202E})walCnepO(\u{202C}\u{200B}"], "exact in JSON: \(names)")
    }
}
