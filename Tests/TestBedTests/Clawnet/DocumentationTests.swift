import Foundation
import TestSupport
import Testing

@Suite("The README's claims, run against the binary in the test bed", .testBed)
struct DocumentationTests {
    /// The preflight example of the README, as written there, in a folder of its own on `host`.
    func runPreflightSnippet(on host: TestBed.Host) async throws -> (result: CommandResult, preflightJSON: String?) {
        let bed = try TestBed.current()
        let folder = "\(bed.directory)/readme-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Readme.shellBlock(after: "### `clawnet preflight`").write(toFile: "\(folder)/snippet.sh", atomically: true, encoding: .utf8)
        let binaries = URL(fileURLWithPath: ClawnetBinary.path).deletingLastPathComponent().path
        let result = try await bed.run(
            on: host, ["/bin/sh", "-c", "cd \(folder) && PATH=\(binaries):$PATH sh snippet.sh"], timeout: .seconds(60))
        return (result, try? String(contentsOfFile: "\(folder)/preflight.json", encoding: .utf8))
    }

    @Test("the preflight example: without D-Bus its exit-3 branch runs and the installer stops with 3")
    func preflightSnippetWithoutMDNS() async throws {
        let (result, preflightJSON) = try await runPreflightSnippet(on: .bare)
        #expect(result.status == 3, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("no mDNS daemon here"), "the exit-3 branch: \(result.stdout)\n\(result.stderr)")
        #expect(preflightJSON == nil, "it stopped before the gateway check")
    }

    @Test("the preflight example: with mDNS it goes on, writes preflight.json (a clawnet.preflight.v2 document), and its last line exits 1")
    func preflightSnippetWithMDNS() async throws {
        let bed = try TestBed.current()
        let (result, preflightJSON) = try await runPreflightSnippet(on: .node)
        #expect(!result.stderr.contains("no mDNS daemon here"), "\(result.stderr)")
        // The last line checks a Gateway the test bed does not have: a failed requirement (1),
        // not a usage error (2) such as a malformed --pin.
        #expect(result.status == 1, "the last line, wss://studio.local:18789 with its pin: \(result.stdout)\n\(result.stderr)")
        let json = try #require(preflightJSON, "no preflight.json: \(result.stdout)\n\(result.stderr)")
        try await expectMatches(json, "clawnet.preflight.v2", "the README's preflight.json", bed: bed)
    }

    @Test("the zone example: browse --json piped into zone generate runs as written and writes the zone with the Gateway")
    func zoneSnippet() async throws {
        let bed = try TestBed.current()
        let name = "ReadmeZone-\(uniqueTag())"
        let publisher = try await bed.avahiPublish(name: name, txt: ["role=gateway", "gatewayPort=18789"])
        defer { publisher.terminate() }
        let line = try #require(
            try Readme.text.split(separator: "\n").first { $0.hasPrefix("clawnet browse --json | clawnet zone generate") },
            "no zone example in README.md")
        let folder = "\(bed.directory)/readme-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let binaries = URL(fileURLWithPath: ClawnetBinary.path).deletingLastPathComponent().path
        let result = try await bed.run(
            on: .node, ["/bin/sh", "-c", "cd \(folder) && export PATH=\(binaries):$PATH && \(line)"], timeout: .seconds(60))
        #expect(result.status == 0, "\(line)\n\(result.stdout)\n\(result.stderr)")
        let zone = (try? String(contentsOfFile: "\(folder)/openclaw.internal.db", encoding: .utf8)) ?? ""
        #expect(zone.contains(name), "the published Gateway is in the zone: \(zone)\n\(result.stderr)")
    }

    struct ExitCase: Sendable, CustomTestStringConvertible {
        let host: TestBed.Host
        let arguments: [String]
        let expected: Int32
        let claim: String
        var testDescription: String { "\(expected): \(claim)" }
    }

    /// Each row of the README's exit-code table, from each command that uses the code (usage
    /// errors, 2, are BrowseCommandTests.usageErrors).
    static let exitCases: [ExitCase] = [
        ExitCase(
            host: .node, arguments: ["browse", "--type", "_nothing-here._tcp", "--timeout", "3s"], expected: 1,
            claim: "browse found nothing"),
        ExitCase(host: .bare, arguments: ["browse", "--timeout", "3s"], expected: 3, claim: "browse, only mDNS asked for, no D-Bus"),
        ExitCase(host: .bare, arguments: ["doctor", "--timeout", "2s"], expected: 1, claim: "doctor, a check failed"),
        ExitCase(host: .bare, arguments: ["advertise", "--name", "nowhere"], expected: 3, claim: "advertise without D-Bus"),
        ExitCase(host: .node, arguments: ["zone", "check", "/dev/null"], expected: 1, claim: "zone check, a check failed (no SOA)"),
        ExitCase(
            host: .node, arguments: ["zone", "check", "/nonexistent/zone.db"], expected: 2, claim: "zone check, a named file missing"),
        ExitCase(
            host: .node, arguments: ["doctor", "--config", "/nonexistent/openclaw.json"], expected: 2, claim: "a named config missing"),
        ExitCase(
            host: .node, arguments: ["zone", "generate", "--domain", "openclaw.internal", "--gateway", "host=a,ip=100.64.0.1"],
            expected: 2, claim: "zone generate with no --ns-address and no Tailscale address to use"),
    ]

    @Test("the exit-code table", arguments: exitCases)
    func exitCode(_ row: ExitCase) async throws {
        let bed = try TestBed.current()
        let result = try await bed.clawnet(row.arguments, on: row.host, timeout: .seconds(40))
        #expect(result.status == row.expected, "\(row.arguments) on \(row.host): \(result.stdout)\n\(result.stderr)")
    }

    @Test("exit 2: zone generate takes no FIFO for --out (only regular files or a new path), and the FIFO stays")
    func zoneGenerateRefusesFIFO() async throws {
        let bed = try TestBed.current()
        let fifo = "\(bed.directory)/fifo-\(uniqueTag())"
        #expect(mkfifo(fifo, 0o644) == 0)
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        let result = try await bed.clawnet(
            [
                "zone", "generate", "--domain", "openclaw.internal", "--gateway", "host=a,ip=100.64.0.1",
                "--ns-address", "100.64.0.1", "--out", fifo,
            ], timeout: .seconds(20))
        #expect(result.status == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("is a FIFO") && result.stderr.contains("only regular files"), "\(result.stderr)")
        #expect(isFIFO(fifo))
    }

    func isFIFO(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
    }

    @Test("exit 1: advertise --serve cannot listen on a taken port")
    func advertiseTakenPort() async throws {
        let bed = try TestBed.current()
        let port = String(testPort())
        let first = try bed.spawnClawnet(["advertise", "--serve-only", "--bind", "127.0.0.1", "--port", port])
        defer { first.terminate() }
        try await first.waitForOutput("like a Gateway", timeout: .seconds(20))
        let second = try await bed.clawnet(["advertise", "--serve-only", "--bind", "127.0.0.1", "--port", port], timeout: .seconds(20))
        #expect(second.status == 1, "\(second.stdout)\n\(second.stderr)")
        #expect(second.stderr.contains("cannot listen"))
    }
}
