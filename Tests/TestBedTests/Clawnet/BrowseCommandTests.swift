import Foundation
import TestSupport
import Testing

@Suite("clawnet browse and advertise (CLI against real avahi-daemons)", .testBed)
struct BrowseCommandTests {
    @Test("browse --format json prints a clawnet.browse.v1 document with the beacon")
    func browseJSON() async throws {
        let bed = try TestBed.current()
        let name = "JSON Studio (OpenClaw) \(uniqueTag())"
        let publisher = try await bed.avahiPublish(name: name, txt: ["role=gateway", "gatewayPort=18789", "gatewayTls=1"])
        defer { publisher.terminate() }
        let result = try await bed.clawnet(["browse", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try jsonObject(result.stdout)
        #expect(document["schema"] as? String == "clawnet.browse.v1")
        #expect(document["domains"] as? [String] == ["local."])
        #expect((document["elapsedMs"] as? Int ?? -1) >= 0)
        let beacons = try #require(document["beacons"] as? [[String: Any]])
        let beacon = try #require(beacons.first { $0["instance"] as? String == name }, "\(result.stdout)")
        #expect(beacon["host"] as? String == "gw.local.")
        #expect(beacon["port"] as? Int == 18789)
        #expect(beacon["interfaces"] as? [String] == ["eth0"])
        #expect((beacon["addresses"] as? [String])?.contains("10.99.0.1") == true)
        #expect(beacon["url"] as? String == "wss://gw.local:18789")
        #expect((beacon["gateway"] as? [String: Any])?["tls"] as? Bool == true)
        #expect((beacon["txt"] as? [String: String])?["role"] == "gateway")
    }

    @Test("browse --format jsonl streams added events, then allForNow, one JSON object per line")
    func browseJSONL() async throws {
        let bed = try TestBed.current()
        let name = "JSONL \(uniqueTag())"
        let publisher = try await bed.avahiPublish(name: name, txt: ["role=gateway"])
        defer { publisher.terminate() }
        let result = try await bed.clawnet(["browse", "--format", "jsonl"])
        #expect(result.status == 0)
        let lines = try result.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        #expect(lines.last?["event"] as? String == "allForNow")
        #expect(lines.allSatisfy { $0["elapsedMs"] is Int })
        #expect(lines.contains { $0["event"] as? String == "added" && ($0["beacon"] as? [String: Any])?["instance"] as? String == name })
    }

    @Test("the table shows the decoded name, the URL doctor takes (wss://, no root dot) and TLS")
    func browseTable() async throws {
        let bed = try TestBed.current()
        let name = "Table Café 🦞 \(uniqueTag())"
        let publisher = try await bed.avahiPublish(
            name: name, txt: ["role=gateway", "gatewayTls=1", "gatewayTlsSha256=\(String(repeating: "ab", count: 32))"])
        defer { publisher.terminate() }
        let result = try await bed.clawnet(["browse"])
        #expect(result.status == 0)
        let row = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix(name) }, "\(result.stdout)")
        #expect(row.contains("wss://gw.local:18789"), "\(row)")
        #expect(row.contains("sha256 abababababab…"))
        #expect(row.contains("mdns (eth0)"))
        #expect(!result.stdout.contains("\\032"))
        #expect(result.stdout.hasPrefix("INSTANCE"))
    }

    @Test("the table wraps at COLUMNS=80 (no line over 80, every Gateway there); piped without COLUMNS, one line per Gateway")
    func browseTableWraps() async throws {
        let bed = try TestBed.current()
        let name = "Wrapped Lab Gateway (OpenClaw) \(uniqueTag())"
        let publisher = try await bed.avahiPublish(
            name: name, txt: ["role=gateway", "gatewayTls=1", "gatewayTlsSha256=\(String(repeating: "cd", count: 32))"])
        defer { publisher.terminate() }
        let piped = try await bed.clawnet(["browse"])
        let row = try #require(piped.stdout.split(separator: "\n").first { $0.hasPrefix(name) }, "\(piped.stdout)")
        #expect(row.count > 80 && row.contains("sha256 cdcdcdcdcdcd…"), "one whole line piped: \(row)")
        let wrapped = try await bed.clawnet(["browse"], environment: ["COLUMNS": "80"])
        let wide = wrapped.stdout.split(separator: "\n").filter { $0.count > 80 }
        #expect(wrapped.status == 0 && wide.isEmpty, "lines over 80 columns: \(wide)\n\(wrapped.stdout)")
        #expect(wrapped.stdout.contains("Wrapped") && wrapped.stdout.contains("cdcdcdcdcdcd…"), "\(wrapped.stdout)")
    }

    @Test("the progress line goes to stderr only when stderr is a terminal, and never into stdout")
    func progressOnlyOnTerminal() async throws {
        let bed = try TestBed.current()
        // A Gateway to find: browse exits 1 when it finds none (it passed only when another test
        // happened to publish one at the same time).
        let publisher = try await bed.avahiPublish(name: "Progress \(uniqueTag())", txt: ["role=gateway"])
        defer { publisher.terminate() }
        let piped = try await bed.clawnet(["browse", "--timeout", "2s"], on: .node)
        #expect(piped.status == 0)
        #expect(!piped.stderr.contains("browsing"), "\(piped.stderr)")

        // `script` gives clawnet a pseudo-terminal; stdout goes to a file, stderr stays on it.
        let file = "\(bed.directory)/browse-\(uniqueTag()).json"
        let tty = try await bed.run(
            on: .node, ["script", "-qec", "\(ClawnetBinary.path) browse --format json --timeout 2s > \(file)", "/dev/null"])
        #expect(tty.status == 0, "\(tty.stdout)")
        #expect(tty.stdout.contains("browsing … "), "the terminal shows progress: \(tty.stdout.debugDescription)")
        let json = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!json.contains("\u{1B}") && !json.contains("browsing"))
        #expect(try jsonObject(json)["schema"] as? String == "clawnet.browse.v1")
        try? FileManager.default.removeItem(atPath: file)
    }

    @Test("no D-Bus at all: exit 3 and a message that says how to start it")
    func noDBus() async throws {
        let bed = try TestBed.current()
        let result = try await bed.clawnet(
            ["browse"], on: .bare, environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/bus.sock"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("D-Bus system bus is not running"))
        #expect(result.stderr.contains("fix:"))
        let json = try await bed.clawnet(
            ["browse", "--format", "json"], on: .bare, environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/bus.sock"])
        #expect(json.status == 3)
        let errors = try #require(try jsonObject(json.stdout)["errors"] as? [[String: Any]])
        #expect(errors.first?["kind"] as? String == "busMissing")
        #expect((errors.first?["fix"] as? String)?.contains("dbus-daemon") == true)
    }

    @Test("D-Bus without avahi-daemon: exit 3 naming avahi-daemon")
    func noAvahiDaemon() async throws {
        let bed = try TestBed.current()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clawnet-bus-\(uniqueTag())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bus = try bed.spawn(
            on: .bare,
            ["dbus-daemon", "--system", "--nofork", "--nopidfile", "--print-address", "--address=unix:path=\(directory)/bus.sock"])
        defer { bus.terminate() }
        try await bus.waitForOutput("unix:path=")
        let result = try await bed.clawnet(
            ["browse"], on: .bare, environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(directory)/bus.sock"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("avahi-daemon is not running"))
        #expect(result.stderr.contains("systemctl start avahi-daemon"))
    }
}
