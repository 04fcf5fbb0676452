import Foundation
import TestSupport
import Testing

/// A zone in OpenClaw's layout, with extra lines appended.
func openClawZone(_ lines: [String], domain: String = "openclaw.internal") -> String {
    ([
        "$ORIGIN \(domain).", "$TTL 60", "@ IN SOA ns1 hostmaster 2026112201 7200 3600 1209600 60",
        "@ IN NS ns1", "ns1 IN A 100.101.102.103",
    ] + lines).joined(separator: "\n") + "\n"
}

let studioZone = openClawZone([
    "studio IN A 100.101.102.103",
    "studio IN AAAA fd7a:115c:a1e0::1",
    #"_openclaw-gw._tcp IN PTR Studio\032\(OpenClaw\)._openclaw-gw._tcp"#,
    "_openclaw-gw._tcp IN PTR lab-gateway._openclaw-gw._tcp",
    #"Studio\032\(OpenClaw\)._openclaw-gw._tcp IN SRV 0 0 18789 studio"#,
    #"Studio\032\(OpenClaw\)._openclaw-gw._tcp IN TXT "displayName=Studio (OpenClaw)" "role=gateway" "transport=gateway" "gatewayPort=18789" "gatewayTls=1" "gatewayTlsSha256=\#(String(repeating: "c3", count: 32))" "tailnetDns=studio.tail1234.ts.net" "sshPort=22" "cliPath=/usr/local/bin/openclaw""#,
    "lab-gateway._openclaw-gw._tcp IN SRV 0 0 18790 lab",
    #"lab-gateway._openclaw-gw._tcp IN TXT "displayName=Lab" "role=gateway" "transport=gateway" "gatewayPort=18790""#,
    "lab IN A 100.101.102.104",
])

/// Runs `clawnet browse --format json` and returns the document.
func browseJSON(_ bed: TestBed, _ arguments: [String], on host: TestBed.Host = .node, environment: [String: String] = [:]) async throws -> (
    status: Int32, document: [String: Any], stderr: String
) {
    let result = try await bed.clawnet(
        ["browse", "--format", "json"] + arguments, on: host, environment: environment, timeout: .seconds(30))
    let document = try jsonObject(result.stdout)
    return (result.status, document, result.stderr)
}

func beacons(_ document: [String: Any]) -> [[String: Any]] {
    document["beacons"] as? [[String: Any]] ?? []
}

func byInstance(_ beacons: [[String: Any]]) -> [String: [String: Any]] {
    var result: [String: [String: Any]] = [:]
    for beacon in beacons {
        if let instance = beacon["instance"] as? String { result[instance] = beacon }
    }
    return result
}

func strings(_ value: Any?) -> [String] { value as? [String] ?? [] }

func errors(_ document: [String: Any]) -> [[String: Any]] {
    document["errors"] as? [[String: Any]] ?? []
}

@Suite("Wide-area discovery against real DNS servers", .testBed)
struct WideAreaTests {
    enum Server: String, CaseIterable { case bind, nsd, knot }

    func start(_ server: Server, _ bed: TestBed, zones: [String: String]) async throws -> TestDNSServer {
        switch server {
        case .bind: try await bed.startBIND(zones: zones)
        case .nsd: try await bed.startNSD(zones: zones)
        case .knot: try await bed.startKnot(zones: zones)
        }
    }

    @Test("the same zone from BIND, NSD and Knot is found field by field", arguments: Server.allCases)
    func sameZoneEverywhere(server: Server) async throws {
        let bed = try TestBed.current()
        let dns = try await start(server, bed, zones: ["openclaw.internal": studioZone])
        defer { dns.terminate() }
        let (status, document, stderr) = try await browseJSON(
            bed, ["--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint])
        #expect(status == 0, "\(stderr)")
        #expect(document["domains"] as? [String] == ["openclaw.internal."])
        #expect(errors(document).isEmpty, "\(errors(document))")
        let found = beacons(document)
        #expect(found.count == 2)
        // NSD and Knot lower-case names inside RDATA; BIND keeps them.
        let studio = try #require(found.first { ($0["instance"] as? String)?.lowercased() == "studio (openclaw)" })
        if server == .bind { #expect(studio["instance"] as? String == "Studio (OpenClaw)") }
        #expect(studio["host"] as? String == "studio.openclaw.internal.")
        #expect(studio["port"] as? Int == 18789)
        #expect(studio["addresses"] as? [String] == ["100.101.102.103", "fd7a:115c:a1e0::1"])
        #expect(studio["sources"] as? [String] == ["unicast"])
        #expect(studio["resolvers"] as? [String] == [dns.label])
        #expect(studio["url"] as? String == "wss://studio.openclaw.internal:18789")
        let gateway = try #require(studio["gateway"] as? [String: Any])
        #expect(gateway["tlsSha256"] as? String == String(repeating: "c3", count: 32))
        #expect(gateway["displayName"] as? String == "Studio (OpenClaw)")
        #expect(gateway["tailnetDns"] as? String == "studio.tail1234.ts.net")
        #expect(gateway["sshPort"] as? Int == 22)
        #expect(gateway["cliPath"] as? String == "/usr/local/bin/openclaw")
        #expect((studio["warnings"] as? [String])?.isEmpty == true)
        let lab = try #require(found.first { $0["instance"] as? String == "lab-gateway" })
        #expect(lab["port"] as? Int == 18790)
        #expect(lab["url"] as? String == "ws://100.101.102.104:18790", "no TLS: plain ws only to the tailnet address")
    }

    @Test("through dnsmasq as a split-DNS forwarder; other names are refused")
    func splitDNSForwarder() async throws {
        let bed = try TestBed.current()
        let bind = try await bed.startBIND(zones: ["openclaw.internal": studioZone])
        defer { bind.terminate() }
        let forwarder = try await bed.startDnsmasq(forwards: ["openclaw.internal": "\(bind.address)#\(bind.port)"])
        defer { forwarder.terminate() }
        let (status, document, _) = try await browseJSON(
            bed, ["--no-local", "--domain", "openclaw.internal", "--server", forwarder.endpoint])
        #expect(status == 0)
        #expect(beacons(document).count == 2)
        #expect(beacons(document).allSatisfy { $0["resolvers"] as? [String] == [forwarder.label] })

        let (_, refused, _) = try await browseJSON(bed, ["--no-local", "--domain", "elsewhere.internal", "--server", forwarder.endpoint])
        #expect(beacons(refused).isEmpty)
        let error = try #require(errors(refused).first)
        #expect((error["message"] as? String)?.contains("REFUSED from \(forwarder.label)") == true, "\(error)")
        #expect((error["fix"] as? String)?.contains("split DNS") == true)
    }

    @Test("hostile zone: missing SRV, no address, port 0, huge TXT, PTR to itself; valid beacons still reported")
    func hostileZone() async throws {
        let bed = try TestBed.current()
        let bigTXT = (0..<100).map { "\"k\(String(format: "%02d", $0))=\(String(repeating: "v", count: 250))\"" }.joined(separator: " ")
        let zone = openClawZone([
            "gw IN A 100.101.102.103",
            "_openclaw-gw._tcp IN PTR good._openclaw-gw._tcp",
            "_openclaw-gw._tcp IN PTR ghost._openclaw-gw._tcp",
            "_openclaw-gw._tcp IN PTR noaddr._openclaw-gw._tcp",
            "_openclaw-gw._tcp IN PTR portzero._openclaw-gw._tcp",
            "_openclaw-gw._tcp IN PTR bigtxt._openclaw-gw._tcp",
            "_openclaw-gw._tcp IN PTR _openclaw-gw._tcp",
            "good._openclaw-gw._tcp IN SRV 0 0 18789 gw",
            "good._openclaw-gw._tcp IN TXT \"role=gateway\"",
            "noaddr._openclaw-gw._tcp IN SRV 0 0 18789 nowhere",
            "noaddr._openclaw-gw._tcp IN TXT \"role=gateway\"",
            "portzero._openclaw-gw._tcp IN SRV 0 0 0 gw",
            "portzero._openclaw-gw._tcp IN TXT \"role=gateway\"",
            "bigtxt._openclaw-gw._tcp IN SRV 0 0 18789 gw",
            "bigtxt._openclaw-gw._tcp IN TXT \(bigTXT)",
        ])
        let dns = try await bed.startBIND(zones: ["openclaw.internal": zone])
        defer { dns.terminate() }
        let (status, document, _) = try await browseJSON(bed, ["--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint])
        #expect(status == 0)
        let found = byInstance(beacons(document))
        #expect(Set(found.keys) == ["good", "noaddr", "portzero", "bigtxt"])
        let (good, noAddress, portZero) = (
            strings(found["good"]?["warnings"]), strings(found["noaddr"]?["warnings"]), strings(found["portzero"]?["warnings"])
        )
        #expect(good.isEmpty)
        #expect(noAddress.contains("no address found for nowhere.openclaw.internal."))
        #expect(portZero.contains("SRV port is 0: the service says it is not available here"))
        // 100 strings of 255 bytes arrive over TCP; a beacon keeps the first 8 KiB of them.
        let bigTXTKeys = (found["bigtxt"]?["txt"] as? [String: String])?.count
        #expect(bigTXTKeys == 32, "the first 8 KiB of 100 strings of 255 bytes, over TCP")
        #expect(strings(found["bigtxt"]?["warnings"]).contains { $0.contains("the TXT record is 25500 bytes; only its first 8 KiB") })
        let messages = errors(document).compactMap { $0["message"] as? String }
        #expect(messages.contains { $0.contains("'ghost' is listed by PTR but has no SRV record: NXDOMAIN") })
        #expect(messages.contains { $0.contains("points to _openclaw-gw._tcp.openclaw.internal., which is not an instance") })
        #expect(messages.count == 2)
    }

    @Test("an answer truncated over UDP is asked again over TCP")
    func truncatedOverUDP() async throws {
        let bed = try TestBed.current()
        let entries = """
            ENTRY_BEGIN
            MATCH opcode qtype qname UDP
            ADJUST copy_id
            REPLY QR AA TC NOERROR
            SECTION QUESTION
            _openclaw-gw._tcp.trunc.internal. IN PTR
            ENTRY_END

            ENTRY_BEGIN
            MATCH opcode qtype qname TCP
            ADJUST copy_id
            REPLY QR AA NOERROR
            SECTION QUESTION
            _openclaw-gw._tcp.trunc.internal. IN PTR
            SECTION ANSWER
            _openclaw-gw._tcp.trunc.internal. IN PTR viatcp._openclaw-gw._tcp.trunc.internal.
            SECTION ADDITIONAL
            viatcp._openclaw-gw._tcp.trunc.internal. IN SRV 0 0 18789 gw.trunc.internal.
            viatcp._openclaw-gw._tcp.trunc.internal. IN TXT "role=gateway"
            gw.trunc.internal. IN A 10.99.0.1
            gw.trunc.internal. IN AAAA fd99::1
            ENTRY_END
            """
        let dns = try await bed.startTestns(data: entries)
        defer { dns.terminate() }
        let (_, document, _) = try await browseJSON(bed, ["--no-local", "--domain", "trunc.internal", "--server", dns.endpoint])
        let beacon = try #require(beacons(document).first)
        #expect(beacon["instance"] as? String == "viatcp")
        #expect(beacon["addresses"] as? [String] == ["10.99.0.1", "fd99::1"])
    }

    @Test("a server that never answers: a bounded, clear error", arguments: ["udp-silent", "udp-garbage"])
    func silentAndGarbageServers(mode: String) async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let peer = try bed.spawn(on: .node, [bed.python, bed.scripts + "/peers/hostile_peer.py", mode, "--port", String(port)])
        defer { peer.terminate() }
        try await peer.waitForOutput("ready")
        let (status, document, _) = try await browseJSON(
            bed, ["--no-local", "--domain", "openclaw.internal", "--server", "127.0.0.1:\(port)"])
        #expect(status == 1, "every path failed: exit 1")
        #expect(beacons(document).isEmpty)
        let message = try #require(errors(document).first?["message"] as? String)
        if mode == "udp-silent" {
            #expect(message.contains("no answer from 127.0.0.1#\(port) (3 tries)"), "\(message)")
        } else {
            #expect(message.contains("127.0.0.1#\(port) sent a malformed answer"), "\(message)")
        }
    }

    @Test(
        "doctor with a server that never answers, whatever its --timeout: dns.widearea fails naming it, never 'nothing published'",
        arguments: ["4s", "10s"])
    func doctorSilentServer(timeout: String) async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let peer = try bed.spawn(on: .node, [bed.python, bed.scripts + "/peers/hostile_peer.py", "udp-silent", "--port", String(port)])
        defer { peer.terminate() }
        try await peer.waitForOutput("ready")
        let result = try await bed.clawnet([
            "doctor", "--no-local", "--domain", "openclaw.internal", "--server", "127.0.0.1:\(port)", "--timeout", timeout, "--format",
            "json",
        ])
        let checks = try jsonObject(result.stdout)["checks"] as? [[String: Any]] ?? []
        let wideArea = try #require(checks.first { $0["id"] as? String == "dns.widearea" }, "\(result.stdout)")
        #expect(wideArea["status"] as? String == "fail", "\(wideArea)")
        #expect((wideArea["message"] as? String)?.contains("no answer from 127.0.0.1#\(port)") == true, "\(wideArea)")
    }

    @Test(
        "zone check FILE --server of a server that never answers: one failure with the DNS fix, never zone push's",
        arguments: [false, true])
    func silentServerIsOneFailure(transfer: Bool) async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let peer = try bed.spawn(on: .node, [bed.python, bed.scripts + "/peers/hostile_peer.py", "udp-silent", "--port", String(port)])
        defer { peer.terminate() }
        try await peer.waitForOutput("ready")
        let zone = try temporaryDirectory(bed) + "/zone.db"
        let generated = try await bed.clawnet([
            "zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--gateway", "host=a,ip=100.64.0.1",
            "--out", zone,
        ])
        #expect(generated.status == 0, "\(generated.stderr)")
        let result = try await bed.clawnet(
            ["zone", "check", zone, "--server", "127.0.0.1:\(port)", "--timeout", "3s", "--json"] + (transfer ? ["--axfr"] : []),
            timeout: .seconds(40))
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        let findings = try jsonObject(result.stdout)["findings"] as? [[String: Any]] ?? []
        let failures = findings.filter { $0["status"] as? String == "fail" }
        #expect(failures.count == 1, "one silent server, one failure: \(failures)")
        let fix = failures.first?["fix"] as? String ?? ""
        #expect((failures.first?["message"] as? String)?.contains("no answer from 127.0.0.1#\(port)") == true, "\(failures)")
        #expect(!fix.contains("primary") && !fix.isEmpty, "fix: \(fix)")
    }

    @Test("zone check --axfr of a zone whose serial UPDATEs counted up (not the date form): no warning, the serial named")
    func servedSerialNotDated() async throws {
        let bed = try TestBed.current()
        let zone = openClawZone([
            "gw IN A 100.64.0.1", "_openclaw-gw._tcp IN PTR Bell._openclaw-gw._tcp", "Bell._openclaw-gw._tcp IN SRV 0 0 18789 gw",
            #"Bell._openclaw-gw._tcp IN TXT "role=gateway""#,
        ]).replacingOccurrences(of: "2026112201", with: "7")
        let dns = try await bed.startBIND(zones: ["openclaw.internal": zone], zoneOptions: "allow-transfer { any; };")
        defer { dns.terminate() }
        let result = try await bed.clawnet(
            ["zone", "check", "--axfr", "--domain", "openclaw.internal", "--server", dns.endpoint, "--timeout", "3s", "--json"])
        let findings = try jsonObject(result.stdout)["findings"] as? [[String: Any]] ?? []
        let serial = findings.first { $0["code"] as? String == "serialNotDated" }
        #expect(serial?["status"] as? String == "pass", "the serial form is no warning for a served zone: \(findings)")
        #expect((serial?["message"] as? String)?.contains("serial 7") == true, "\(serial ?? [:])")
    }

    @Test("zone check FILE --server of a server that truncates over UDP and dribbles its TCP answer: it ends by itself, naming it")
    func truncatedThenDribbled() async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let peer = try bed.spawn(on: .node, [bed.python, bed.scripts + "/peers/hostile_peer.py", "tc-dribble", "--port", String(port)])
        defer { peer.terminate() }
        try await peer.waitForOutput("ready")
        let zone = try temporaryDirectory(bed) + "/zone.db"
        let generated = try await bed.clawnet([
            "zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--gateway", "host=a,ip=100.64.0.1",
            "--out", zone,
        ])
        #expect(generated.status == 0, "\(generated.stderr)")
        let result = try await bed.clawnet(
            ["zone", "check", zone, "--server", "127.0.0.1:\(port)", "--timeout", "1s"], timeout: .seconds(40))
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("127.0.0.1#\(port)"), "the server is named: \(result.stdout)")
    }

    @Test("zone check --axfr of a transfer that stops half way (records at one deep name): it ends at --timeout, saying so")
    func transferCutByTimeout() async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let peer = try bed.spawn(
            on: .node,
            [
                bed.python, bed.scripts + "/peers/hostile_peer.py", "axfr-deep", "--address", "127.0.0.1", "--port", String(port),
                "--instances", "30000", "--stall-after", "2",
            ])
        defer { peer.terminate() }
        try await peer.waitForOutput("ready")
        let result = try await bed.clawnet(
            ["zone", "check", "--axfr", "--domain", "openclaw.internal", "--server", "127.0.0.1:\(port)", "--timeout", "2s"],
            timeout: .seconds(40))
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(
            result.stdout.contains("the zone transfer from 127.0.0.1#\(port) was still coming when --timeout ran out"),
            "a transfer under way is not \"no answer\": \(result.stdout)")
    }

    @Test("nothing listening: connection refused is named")
    func nothingListens() async throws {
        let bed = try TestBed.current()
        let (_, document, _) = try await browseJSON(bed, ["--no-local", "--domain", "openclaw.internal", "--server", "127.0.0.1:9"])
        let error = try #require(errors(document).first)
        #expect((error["message"] as? String)?.contains("nothing listens on port 9 of 127.0.0.1") == true, "\(error)")
        #expect((error["fix"] as? String)?.contains("no DNS server runs on 127.0.0.1 port 9") == true, "\(error)")
    }

    @Test("5,000 PTRs do not fit in one message: NSD truncates even over TCP, Knot fails; both named")
    func fiveThousandInstances() async throws {
        let bed = try TestBed.current()
        var lines = ["gw IN A 10.0.0.2"]
        for index in 0..<5000 {
            lines.append("_openclaw-gw._tcp IN PTR g\(index)._openclaw-gw._tcp")
            lines.append("g\(index)._openclaw-gw._tcp IN SRV 0 0 18789 gw")
        }
        let zone = openClawZone(lines, domain: "big.internal")
        let nsd = try await bed.startNSD(zones: ["big.internal": zone])
        defer { nsd.terminate() }
        let knot = try await bed.startKnot(zones: ["big.internal": zone])
        defer { knot.terminate() }
        let (_, viaNSD, _) = try await browseJSON(bed, ["--no-local", "--domain", "big.internal", "--server", nsd.endpoint])
        #expect(errors(viaNSD).contains { ($0["message"] as? String)?.contains("truncated even over TCP") == true }, "\(errors(viaNSD))")
        let (_, viaKnot, _) = try await browseJSON(bed, ["--no-local", "--domain", "big.internal", "--server", knot.endpoint])
        #expect(
            errors(viaKnot).contains { ($0["message"] as? String)?.contains("SERVFAIL from \(knot.label)") == true }, "\(errors(viaKnot))")
    }

    @Test("manual targets: host:port, URLs, IPv6 in brackets, names from /etc/hosts, names that do not resolve")
    func manualTargets() async throws {
        let bed = try TestBed.current()
        let (status, document, _) = try await browseJSON(
            bed,
            [
                "--no-local", "--manual", "127.0.0.1:18790", "--manual", "wss://[::1]:8443/ws", "--manual", "localhost",
                "--manual", "gateway.invalid",
            ])
        #expect(status == 0)
        let found = byInstance(beacons(document))
        #expect(Set(found.keys) == ["127.0.0.1:18790", "[::1]:8443", "localhost:18789", "gateway.invalid:18789"])
        #expect(found.values.allSatisfy { $0["sources"] as? [String] == ["manual"] })
        #expect(found["127.0.0.1:18790"]?["url"] as? String == "ws://127.0.0.1:18790")
        #expect(found["[::1]:8443"]?["url"] as? String == "wss://[::1]:8443")
        let (localhost, invalid) = (strings(found["localhost:18789"]?["addresses"]), strings(found["gateway.invalid:18789"]?["warnings"]))
        #expect(localhost.contains("127.0.0.1"))
        #expect(invalid.contains { $0.contains("cannot resolve gateway.invalid") })
    }

    @Test("the OpenClaw config supplies the domain; a malformed one is a warning naming the file; the environment can name it")
    func configFile() async throws {
        let bed = try TestBed.current()
        let dns = try await bed.startBIND(zones: ["openclaw.internal": studioZone])
        defer { dns.terminate() }
        let directory = "\(bed.directory)/config-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let good = "\(directory)/openclaw.json"
        try """
        // JSON5, as OpenClaw writes it
        { discovery: { wideArea: { domain: 'openclaw.internal', }, }, gateway: { port: 18789, tls: { enabled: true } }, }
        """.write(toFile: good, atomically: true, encoding: .utf8)
        let (_, document, _) = try await browseJSON(bed, ["--no-local", "--config", good, "--server", dns.endpoint])
        #expect(document["domains"] as? [String] == ["openclaw.internal."])
        #expect(beacons(document).count == 2)

        let bad = "\(directory)/broken.json"
        try "{ discovery: { wideArea: { domain: ".write(toFile: bad, atomically: true, encoding: .utf8)
        let (status, broken, _) = try await browseJSON(bed, ["--no-local", "--config", bad, "--manual", "127.0.0.1"])
        #expect(status == 0)
        let warning = try #require(errors(broken).first { $0["kind"] as? String == "config" })
        #expect((warning["message"] as? String)?.contains("\(bad): not valid JSON5") == true, "\(warning)")

        // A config without a domain: the environment names it. (A --config that is missing is a
        // usage error: GrammarTests.)
        let empty = "\(directory)/empty.json"
        try "{}".write(toFile: empty, atomically: true, encoding: .utf8)
        let (_, environment, _) = try await browseJSON(
            bed, ["--no-local", "--config", empty, "--server", dns.endpoint],
            environment: ["OPENCLAW_WIDE_AREA_DOMAIN": "openclaw.internal"])
        #expect(beacons(environment).count == 2, "the environment variable names the domain")
    }

    @Test("--watch asks again as the TTL runs out and reports what changed in the zone")
    func watchesZoneChanges() async throws {
        let bed = try TestBed.current()
        func zone(_ lines: [String]) -> String { openClawZone(["$TTL 1", "gw IN A 100.101.102.103"] + lines) }
        let before = zone([
            "_openclaw-gw._tcp IN PTR stays._openclaw-gw._tcp", "stays._openclaw-gw._tcp IN SRV 0 0 18789 gw",
            "stays._openclaw-gw._tcp IN TXT \"role=gateway\"",
            "_openclaw-gw._tcp IN PTR goes._openclaw-gw._tcp", "goes._openclaw-gw._tcp IN SRV 0 0 18789 gw",
            "goes._openclaw-gw._tcp IN TXT \"role=gateway\"",
        ])
        let after = zone([
            "_openclaw-gw._tcp IN PTR stays._openclaw-gw._tcp", "stays._openclaw-gw._tcp IN SRV 0 0 18789 gw",
            "stays._openclaw-gw._tcp IN TXT \"role=gateway\" \"gatewayTls=1\"",
            "_openclaw-gw._tcp IN PTR comes._openclaw-gw._tcp", "comes._openclaw-gw._tcp IN SRV 0 0 18789 gw",
            "comes._openclaw-gw._tcp IN TXT \"role=gateway\"",
        ])
        let first = try await bed.startBIND(zones: ["openclaw.internal": before])
        let watcher = try bed.spawnClawnet([
            "browse", "--watch", "--format", "jsonl", "--no-local", "--domain", "openclaw.internal", "--server", first.endpoint,
        ])
        defer { watcher.terminate() }
        try await watcher.waitForLine(timeout: .seconds(15), "allForNow") { $0.text.contains("\"allForNow\"") }
        #expect(watcher.lines.filter { $0.text.contains("\"added\"") }.count == 2)
        // A round while no server answers reports the error and removes nothing: no answer
        // says nothing about the zone's instances. Lines are counted before the stop: on a
        // loaded machine the error came while stop() still waited for named to exit.
        let down = watcher.lines.count
        await first.stop()
        try await watcher.waitForLine(from: down, timeout: .seconds(20), "an error while the server is down") {
            $0.text.contains("\"error\"")
        }
        #expect(!watcher.lines.dropFirst(down).contains { $0.text.contains("\"removed\"") }, "\(watcher.lines.map(\.text))")
        // Counted before the server starts: its first round can come before startBIND returns.
        let from = watcher.lines.count
        let second = try await bed.startBIND(zones: ["openclaw.internal": after], port: first.port)
        defer { second.terminate() }
        try await watcher.waitForLine(from: from, timeout: .seconds(20), "removed goes") {
            $0.text.contains("\"removed\"") && $0.text.contains("\"goes\"")
        }
        try await watcher.waitForLine(from: from, timeout: .seconds(20), "added comes") {
            $0.text.contains("\"added\"") && $0.text.contains("\"comes\"")
        }
        try await watcher.waitForLine(from: from, timeout: .seconds(20), "updated stays") {
            $0.text.contains("\"updated\"") && $0.text.contains("\"stays\"") && $0.text.contains("\"gatewayTls\":\"1\"")
        }
    }

    @Test("one Gateway in local. and in a wide-area zone is one row with both sources")
    func mergesLocalAndWideArea() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let publisher = try await bed.avahiPublish(
            name: "Merge \(tag) (OpenClaw)", txt: ["role=gateway", "displayName=Merge \(tag)", "gatewayPort=18789"])
        defer { publisher.terminate() }
        let zone = openClawZone([
            "gw IN A 10.99.0.1",
            "_openclaw-gw._tcp IN PTR merge-\(tag)-gateway._openclaw-gw._tcp",
            "merge-\(tag)-gateway._openclaw-gw._tcp IN SRV 0 0 18789 gw",
            "merge-\(tag)-gateway._openclaw-gw._tcp IN TXT \"displayName=Merge \(tag) (OpenClaw)\" \"role=gateway\" \"transport=gateway\" \"gatewayPort=18789\"",
        ])
        let dns = try await bed.startBIND(zones: ["openclaw.internal": zone])
        defer { dns.terminate() }
        let (status, document, stderr) = try await browseJSON(bed, ["--domain", "openclaw.internal", "--server", dns.endpoint])
        #expect(status == 0)
        #expect(document["domains"] as? [String] == ["local.", "openclaw.internal."])
        let merged = beacons(document).filter {
            ($0["instance"] as? String)?.contains(tag) == true
        }
        #expect(merged.count == 1, "\(merged.map { $0["instance"] ?? "" })")
        let row = try #require(merged.first)
        #expect(row["instance"] as? String == "Merge \(tag) (OpenClaw)")
        #expect(row["sources"] as? [String] == ["mdns", "unicast"], "errors: \(errors(document)); stderr: \(stderr)")
        let alias = try #require((row["aliases"] as? [[String: Any]])?.first)
        #expect(alias["domain"] as? String == "openclaw.internal.")
        #expect(alias["instance"] as? String == "merge-\(tag)-gateway")
    }
}

/// The tailnet host of the test bed: its resolver is 127.0.0.1:53 and Tailscale's resolver
/// 100.100.100.100:53 lives on its loopback. Serialized: both tests use those addresses.
@Suite("Split DNS on a tailnet machine", .serialized, .testBed)
struct TailscaleSplitDNSTests {
    @Test("found only at 100.100.100.100: split DNS is not applied, and the fix is given")
    func notApplied() async throws {
        let bed = try TestBed.current()
        let tailscale = try await bed.startBIND(zones: ["openclaw.internal": studioZone], host: .ts, address: "100.100.100.100", port: 53)
        defer { tailscale.terminate() }
        let system = try await bed.startDnsmasq(forwards: [:], host: .ts, address: "127.0.0.1", port: 53)
        defer { system.terminate() }
        let (status, document, _) = try await browseJSON(bed, ["--no-local", "--domain", "openclaw.internal"], on: .ts)
        #expect(status == 0)
        let found = beacons(document)
        #expect(found.count == 2)
        #expect(found.allSatisfy { $0["resolvers"] as? [String] == ["100.100.100.100#53"] })
        #expect(
            found.allSatisfy {
                ($0["warnings"] as? [String])?.contains { $0.contains("found only via Tailscale's resolver 100.100.100.100") } == true
            })
        let issue = try #require(errors(document).first { $0["kind"] as? String == "splitDNS" })
        #expect((issue["message"] as? String)?.contains("split DNS is not applied here") == true)
        #expect((issue["message"] as? String)?.contains("127.0.0.1#53") == true)
        #expect((issue["fix"] as? String)?.contains("tailscale set --accept-dns=true") == true)

        // doctor names the same cause, from the machine's side.
        let doctor = try await bed.clawnet(
            [
                "doctor", "--format", "json", "--domain", "openclaw.internal",
                "--check", "dns.widearea", "--check", "tailscale.interface",
            ], on: .ts)
        let report = try jsonObject(doctor.stdout)
        let checks = report["checks"] as? [[String: Any]] ?? []
        func checkStatus(_ id: String) -> String? { checks.first { $0["id"] as? String == id }?["status"] as? String }
        #expect(checkStatus("dns.widearea") == "fail", "\(checks)")
        #expect(checkStatus("tailscale.interface") == "pass", "\(checks)")
        let diagnosis = try #require((report["diagnosis"] as? [[String: Any]])?.first)
        #expect(diagnosis["id"] as? String == "split-dns")
        #expect((diagnosis["fix"] as? String)?.isEmpty == false)
        #expect(doctor.status == 1)
    }

    @Test("split DNS applied: the system resolver answers, no warning")
    func applied() async throws {
        let bed = try TestBed.current()
        let tailscale = try await bed.startBIND(zones: ["openclaw.internal": studioZone], host: .ts, address: "100.100.100.100", port: 53)
        defer { tailscale.terminate() }
        let system = try await bed.startDnsmasq(
            forwards: ["openclaw.internal": "100.100.100.100#53"], host: .ts, address: "127.0.0.1", port: 53)
        defer { system.terminate() }
        let (_, document, _) = try await browseJSON(bed, ["--no-local", "--domain", "openclaw.internal"], on: .ts)
        #expect(beacons(document).count == 2)
        #expect(beacons(document).allSatisfy { $0["resolvers"] as? [String] == ["127.0.0.1#53"] })
        #expect(errors(document).isEmpty, "\(errors(document))")

        let doctor = try await bed.clawnet(
            ["doctor", "--format", "json", "--domain", "openclaw.internal", "--check", "dns.widearea"], on: .ts)
        let checks = try jsonObject(doctor.stdout)["checks"] as? [[String: Any]] ?? []
        #expect(checks.first { $0["id"] as? String == "dns.widearea" }?["status"] as? String == "pass", "\(checks)")
        #expect(doctor.status == 0)
    }
}
