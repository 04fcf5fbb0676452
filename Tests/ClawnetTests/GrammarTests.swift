import Foundation
import Glibc
import TestSupport
import Testing

/// One grammar for every command (issue 21), run as the binary: a file the user named and that
/// is missing is a usage error everywhere; `-` and pipes are read wherever a file is read; one
/// flag name has one meaning. No test bed needed: these read files and pipes only.
@Suite("one grammar: named files, standard input and pipes, one meaning per flag")
struct GrammarTests {
    func clawnet(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) async throws -> CommandResult {
        guard let input else { return try await runCommand(ClawnetBinary.path, arguments, environment: environment, timeout: .seconds(30)) }
        // The shell gives the input on a pipe, as `browse --json | zone generate --inventory -` does.
        let quoted = ([ClawnetBinary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return try await runCommand(
            "/bin/sh", ["-c", "printf '%s' \"$INPUT\" | " + quoted.joined(separator: " ")], environment: ["INPUT": input],
            timeout: .seconds(30))
    }

    /// `<(...)`: bash hands the command a pipe as /dev/fd/63.
    func clawnetWithPipe(_ arguments: [String], pipeArgument: String, content: String) async throws -> CommandResult {
        let quoted = ([ClawnetBinary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let script = quoted.joined(separator: " ") + " \(pipeArgument) <(printf '%s' \"$INPUT\")"
        return try await runCommand("/bin/bash", ["-c", script], environment: ["INPUT": content], timeout: .seconds(30))
    }

    static let inventory =
        #"{"schema":"clawnet.browse.v1","domains":["local."],"elapsedMs":0,"beacons":[{"instance":"Studio","host":"studio.local.","#
        + #""port":18789,"addresses":["100.64.0.7"],"txt":{"role":"gateway"}}],"errors":[]}"#
    static let generate = ["zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53"]

    @Test(
        "a file the user named and that is missing is a usage error (exit 2) naming it, for every command",
        arguments: [
            ["doctor", "--config", "/nonexistent/openclaw.json"], ["browse", "--config", "/nonexistent/openclaw.json"],
            ["preflight", "--config", "/nonexistent/openclaw.json"], ["doctor", "x", "--token-file", "/nonexistent/token"],
            ["doctor", "x", "--as-device", "/nonexistent/device.json"], ["zone", "check", "/nonexistent/zone.db"],
            ["zone", "check", "--axfr", "--domain", "d.test", "--server", "127.0.0.1", "--tsig-key", "/nonexistent/key"],
            generate + ["--inventory", "/nonexistent/fleet.json"],
        ])
    func namedMissingFile(arguments: [String]) async throws {
        let result = try await clawnet(arguments)
        #expect(result.status == 2, "\(arguments): \(result.status) \(result.stderr)")
        #expect(result.stderr.contains("/nonexistent/"), "\(arguments): \(result.stderr)")
    }

    @Test("--inventory - reads what browse --json printed from standard input")
    func inventoryFromStandardInput() async throws {
        let result = try await clawnet(Self.generate + ["--inventory", "-"], input: Self.inventory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Studio._openclaw-gw._tcp"), "\(result.stdout)")
    }

    @Test("--inventory <(...) and zone check <(...) read the pipe the shell made")
    func pipes() async throws {
        let generated = try await clawnetWithPipe(Self.generate, pipeArgument: "--inventory", content: Self.inventory)
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(generated.stdout.contains("Studio._openclaw-gw._tcp"), "\(generated.stdout)")
        let checked = try await clawnetWithPipe(["zone", "check"], pipeArgument: "", content: generated.stdout)
        #expect(checked.status == 0, "\(checked.stdout)\n\(checked.stderr)")
        #expect(checked.stderr.contains("0 failures"), "\(checked.stderr)")
    }

    @Test("a FIFO nobody writes to is named, at once, never waited for")
    func fifoWithoutWriter() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grammar-\(uniqueTag())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(mkfifo(directory + "/fifo", 0o600) == 0)
        let result = try await clawnet(Self.generate + ["--inventory", directory + "/fifo"])
        #expect(result.status == 1 && result.stderr.contains("no one writes to"), "\(result.status) \(result.stderr)")
    }

    @Test("--token-file - reads the token from standard input")
    func tokenFromStandardInput() async throws {
        // Port 9 (discard) on loopback: nothing listens; the token is read before any probe.
        let result = try await clawnet(["doctor", "127.0.0.1:9", "--no-local", "--token-file", "-", "--timeout", "1s"], input: "")
        #expect(result.status == 2 && result.stderr.contains("first line is empty"), "\(result.status) \(result.stderr)")
    }

    /// A flag (or argument) that reads a file, what to feed it, and what shows it was read.
    struct InputCase: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let content: String
        let status: Int32
        let shows: String
        /// Words that must not be printed (a permission warning that means nothing for a pipe).
        var never: [String] = []
        var testDescription: String { arguments.filter { $0.hasPrefix("--") || $0 == "check" }.joined(separator: " ") }
    }

    static let key = "key \"k\" {\n algorithm hmac-sha256;\n secret \"c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0\";\n};\n"
    static let badConfig = "{ not json"
    static let zone =
        "$ORIGIN openclaw.internal.\n$TTL 60\n@ IN SOA ns1 hostmaster 2026112601 3600 600 86400 60\n@ IN NS ns1\nns1 IN A 100.64.0.1\n"
    /// Every flag and argument that reads a file; `{in}` is where the file goes.
    static let inputCases = [
        InputCase(arguments: generate + ["--inventory", "{in}"], content: inventory, status: 0, shows: "Studio._openclaw-gw._tcp"),
        InputCase(arguments: ["zone", "check", "{in}"], content: zone, status: 0, shows: "0 failures"),
        InputCase(
            arguments: [
                "zone", "check", "--axfr", "--domain", "d.test", "--server", "127.0.0.1:9", "--tsig-key", "{in}", "--timeout", "3s",
            ],
            content: key, status: 1, shows: "127.0.0.1", never: ["readable"]),
        InputCase(
            arguments: ["doctor", "127.0.0.1:9", "--no-local", "--timeout", "3s", "--token-file", "{in}"], content: "secret-token\n",
            status: 1, shows: "127.0.0.1:9", never: ["readable", "secret-token"]),
        InputCase(
            arguments: ["preflight", "127.0.0.1:9", "--no-local", "--timeout", "3s", "--token-file", "{in}"], content: "\n",
            status: 2, shows: "first line is empty"),
        InputCase(
            arguments: ["doctor", "127.0.0.1:9", "--no-local", "--timeout", "3s", "--as-device", "{in}"], content: "{}", status: 2,
            shows: "--as-device"),
        InputCase(
            arguments: ["doctor", "--no-local", "--timeout", "3s", "127.0.0.1:9", "--config", "{in}"], content: badConfig, status: 1,
            shows: "not valid JSON5"),
        InputCase(
            arguments: ["preflight", "--no-local", "--timeout", "3s", "127.0.0.1:9", "--config", "{in}"], content: badConfig, status: 1,
            shows: "not valid JSON5"),
        InputCase(
            arguments: ["browse", "--no-local", "--manual", "127.0.0.1:9", "--timeout", "3s", "--config", "{in}"], content: badConfig,
            status: 0, shows: "not valid JSON5"),
        InputCase(
            arguments: generate + ["--gateway", "host=a,ip=100.64.0.1", "--config", "{in}"], content: badConfig, status: 0,
            shows: "not valid JSON5"),
    ]

    /// `arguments` run by bash with `{in}` as `-` (the content piped in) or as a named FIFO a
    /// writer fills (mode 0644: a file that mode would be warned about).
    func clawnet(_ arguments: [String], reading content: String, fifo: Bool) async throws -> CommandResult {
        let quoted = ([ClawnetBinary.path] + arguments).map {
            $0 == "{in}" ? (fifo ? "\"$D/in\"" : "-") : "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let run = quoted.joined(separator: " ")
        // The writer is bounded: a command that never opens the FIFO must not leave it waiting.
        let script =
            fifo
            ? "D=$(mktemp -d) && mkfifo -m 644 \"$D/in\" && { timeout 20 sh -c 'printf %s \"$INPUT\" > \"$1\"' sh \"$D/in\" & }; "
                + "\(run); rc=$?; rm -rf \"$D\"; exit $rc" : "printf '%s' \"$INPUT\" | \(run)"
        return try await runCommand("/bin/bash", ["-c", script], environment: ["INPUT": content], timeout: .seconds(40))
    }

    @Test("every flag that reads a file reads - and a FIFO, with no permission warning for a pipe", arguments: inputCases, [false, true])
    func everyInputReadsPipes(_ row: InputCase, fifo: Bool) async throws {
        let result = try await clawnet(row.arguments, reading: row.content, fifo: fifo)
        let output = result.stdout + result.stderr
        let seen = "\(fifo ? "FIFO" : "-"): \(row.arguments): exit \(result.status)\n\(output)"
        #expect(result.status == row.status && output.contains(row.shows), "\(seen)")
        #expect(!output.contains("cannot read") && !output.contains("not a regular file"), "\(seen)")
        for word in row.never { #expect(!output.contains(word), "\(word): \(seen)") }
    }

    @Test("- given to two flags is a usage error: standard input can be read once")
    func standardInputTwice() async throws {
        for arguments in [
            ["doctor", "127.0.0.1:9", "--config", "-", "--token-file", "-"], ["zone", "check", "-", "--tsig-key=-"],
            Self.generate + ["--inventory", "-", "--config", "-"],
        ] {
            let result = try await clawnet(arguments, input: "x")
            #expect(result.status == 2 && result.stderr.contains("standard input can be read once"), "\(arguments): \(result.stderr)")
        }
    }

    @Test("zone generate --server is refused with its new name, --browse-server; zone push keeps --server for the primary")
    func zoneServerNames() async throws {
        let result = try await clawnet(Self.generate + ["--gateway", "host=a,ip=100.64.0.1", "--server", "127.0.0.1"])
        #expect(result.status == 2 && result.stderr.contains("--browse-server"), "\(result.stderr)")
        let help = try await clawnet(["zone", "generate", "--help"])
        #expect(help.stdout.contains("--browse-server") && !help.stdout.contains("--server <"), "\(help.stdout)")
        let push = try await clawnet(["zone", "push", "--help"])
        #expect(push.stdout.contains("--server <ADDRESS[:PORT]>") && push.stdout.contains("--browse-server"), "\(push.stdout)")
    }

    @Test("zone push --dry-run says in its help that it reads the server, and names the server it could not read")
    func dryRunNamesTheServer() async throws {
        let help = try await clawnet(["zone", "push", "--help"])
        #expect(help.stdout.contains("the server is still asked for the zone"), "\(help.stdout)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grammar-\(uniqueTag())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let key = directory + "/k.key"
        try "key \"k\" {\n algorithm hmac-sha256;\n secret \"c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0\";\n};\n".write(
            toFile: key, atomically: true, encoding: .utf8)
        chmod(key, 0o600)
        // Port 9 on loopback: nothing listens, the connection is refused at once.
        let result = try await clawnet([
            "zone", "push", "--domain", "openclaw.internal", "--server", "127.0.0.1:9", "--tsig-key", key, "--gateway",
            "host=a,ip=100.64.0.1", "--dry-run", "--timeout", "5s",
        ])
        #expect(result.status == 1 && result.stderr.contains("--dry-run reads the zone from 127.0.0.1#9"), "\(result.stderr)")
    }

    @Test("doctor's table: 100 refused loopback targets fit in 45 lines of 80 columns, the fix once; a healthy stand-in in 24")
    func doctorLineCounts() async throws {
        // Ports on 127.0.0.1 where nothing listens: every connection is refused at once.
        let targets = (1...100).map { "127.0.0.1:\(29_000 + $0)" }
        let refused = try await clawnet(["doctor", "--no-local", "--timeout", "10s"] + targets, environment: ["COLUMNS": "80"])
        let lines = refused.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        // 38 lines when measured: the 100 addresses take 25 of them.
        #expect(refused.status == 1 && lines.count <= 45, "\(lines.count) lines:\n\(refused.stdout)")
        #expect(lines.filter { $0.contains("start the Gateway here") }.count == 1, "the fix once:\n\(refused.stdout)")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
        let full = try await clawnet(["doctor", "--no-local", "--timeout", "10s", "--all"] + targets, environment: ["COLUMNS": "80"])
        #expect(full.stdout.contains("SKIP  gw.tls..gw.connect"), "--all lists every check")

        let port = testPort()
        let standIn = try ChildProcess(ClawnetBinary.path, ["advertise", "--serve-only", "--bind", "127.0.0.1", "--port", String(port)])
        defer { standIn.terminate() }
        try await standIn.waitForOutput("like a Gateway", timeout: .seconds(20))
        let healthy = try await clawnet(["doctor", "--no-local", "--timeout", "5s", "127.0.0.1:\(port)"], environment: ["COLUMNS": "80"])
        #expect(healthy.status == 0 && healthy.stdout.split(separator: "\n").count <= 24, "\(healthy.stdout)")
        #expect(healthy.stdout.contains("  PASS  127.0.0.1:\(port): "), "one line for the Gateway: \(healthy.stdout)")
    }

    @Test("every table wraps to the terminal's width: doctor --all, preflight and zone check at 80 columns")
    func tablesWrap() async throws {
        func expectFits(_ result: CommandResult, _ command: String) {
            let wide = result.stdout.split(separator: "\n").filter { $0.count > 80 }
            #expect(!result.stdout.isEmpty && wide.isEmpty, "\(command): lines over 80 columns: \(wide)\n\(result.stderr)")
        }
        let refused = "127.0.0.1:\(testPort())"
        expectFits(
            try await clawnet(["doctor", "--all", "--no-local", "--timeout", "10s", refused], environment: ["COLUMNS": "80"]), "doctor")
        expectFits(
            try await clawnet(["preflight", "--no-local", "--timeout", "10s", refused], environment: ["COLUMNS": "80"]), "preflight")
        let zone = NSTemporaryDirectory() + "clawnet-wrap-\(uniqueTag()).db"
        try """
        $ORIGIN openclaw.internal.
        $TTL 60
        @ IN SOA ns1 hostmaster 2026112601 3600 600 86400 60
        @ IN NS ns1
        ns1 IN A 100.64.0.1

        """.write(toFile: zone, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: zone) }
        let check = try await clawnet(
            ["zone", "check", zone, "--domain", "a-much-longer-wrong-domain.example"], environment: ["COLUMNS": "80"])
        #expect(check.stdout.contains("fix:"), "a failure with its fix: \(check.stdout)")
        expectFits(check, "zone check")
        // watch's down line is about 190 columns: wrapped under its time at 80, whole when piped.
        for columns in ["80", nil] {
            let watch = try ChildProcess(
                ClawnetBinary.path, ["watch", "--no-local", "--manual", refused, "--interval", "1s", "--timeout", "60s"],
                environment: columns.map { ["COLUMNS": $0] } ?? [:])
            defer { watch.terminate() }
            try await watch.waitForOutput("  down  ", timeout: .seconds(30))
            // The down line's last words: once they are there, the whole of it is.
            try await watch.waitForOutput("address or port", timeout: .seconds(10))
            try await watch.stop()
            let lines = watch.stdout.split(separator: "\n")
            if columns == nil {
                #expect(lines.contains { $0.count > 80 && $0.contains("  down  ") && $0.hasSuffix("address or port") }, "\(lines)")
            } else {
                #expect(lines.count > 2 && lines.allSatisfy { $0.count <= 80 }, "watch at 80 columns: \(lines)")
            }
        }
    }
}
