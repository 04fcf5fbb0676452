import Foundation
import TestSupport
import Testing

/// `clawnet ARGS > /dev/full` (ENOSPC on every write) through a shell, on `host` when given.
func toFullDevice(_ arguments: [String], bed: TestBed? = nil) async throws -> CommandResult {
    let script = #"exec "$0" "$@" > /dev/full"#
    if let bed { return try await bed.run(on: .node, ["sh", "-c", script, ClawnetBinary.path] + arguments, timeout: .seconds(60)) }
    return try await runCommand("/bin/sh", ["-c", script, ClawnetBinary.path] + arguments, timeout: .seconds(60))
}

/// `clawnet ARGS | head -1` with pipefail: the status is clawnet's (141 when SIGPIPE killed it).
func intoHead(_ arguments: [String], bed: TestBed? = nil) async throws -> CommandResult {
    let script = #"set -o pipefail; "$0" "$@" | head -1 > /dev/null"#
    if let bed { return try await bed.run(on: .node, ["bash", "-c", script, ClawnetBinary.path] + arguments, timeout: .seconds(60)) }
    return try await runCommand("/bin/bash", ["-c", script, ClawnetBinary.path] + arguments, timeout: .seconds(60))
}

let fullMessage = "clawnet: cannot write to standard output: No space left on device"

/// Issue 18: every write is checked. A full device is an error (exit 1, said on stderr); a
/// reader that went away (`| head -1`) ends the output quietly, without SIGPIPE's 141.
@Suite("Writes to stdout: a full device fails the command, a closed pipe ends it quietly")
struct WriteErrorTests {
    static let generate = ["zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53"]

    /// 600 Gateways: a zone of about 140 KB, more than a pipe holds, so the write meets the closed pipe.
    static var manyGateways: [String] {
        (1...600).flatMap { ["--gateway", "host=h\($0),ip=100.64.1.\($0 % 250 + 1),name=Gateway number \($0) of the fleet"] }
    }

    @Test(
        "> /dev/full: exit 1 and the reason on stderr, where the command itself succeeds",
        arguments: [
            ["zone", "generate", "--domain", "openclaw.internal", "--ns-address", "100.64.0.53", "--gateway", "host=a,ip=100.64.0.1"],
            ["--help"], ["zone", "push", "--help"], ["--version"],
        ])
    func fullDevice(arguments: [String]) async throws {
        let result = try await toFullDevice(arguments)
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(fullMessage), "\(arguments): \(result.stderr)")
    }

    @Test("zone check FILE > /dev/full: exit 1 and the reason")
    func zoneCheckFull() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(uniqueTag())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let zone = directory + "/zone.db"
        let written = try await runCommand(ClawnetBinary.path, Self.generate + ["--gateway", "host=a,ip=100.64.0.1", "--out", zone])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try await runCommand(ClawnetBinary.path, ["zone", "check", zone]).status == 0)
        let result = try await toFullDevice(["zone", "check", zone])
        #expect(result.status == 1 && result.stderr.contains(fullMessage), "\(result.stderr)")
    }

    @Test("zone generate | head -1: exit 0, nothing said about the closed pipe (it died of SIGPIPE, 141)")
    func closedPipe() async throws {
        let result = try await intoHead(Self.generate + Self.manyGateways)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("cannot write"), "\(result.stderr)")
    }
}

/// The commands that need the test bed's namespaces (they browse or probe).
@Suite("Writes to stdout from browse, doctor and preflight", .enabled(if: TestBed.enabled), .serialized)
struct NetworkWriteErrorTests {
    @Test("browse, doctor and preflight > /dev/full: the reason on stderr; browse, which succeeds, exits 1")
    func fullDevice() async throws {
        let bed = try TestBed.current()
        let dns = try await bed.startBIND(zones: ["openclaw.internal": studioZone])
        defer { dns.terminate() }
        let browse = ["browse", "--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint]
        #expect(try await bed.clawnet(browse).status == 0)
        for format in ["table", "json", "jsonl"] {
            let result = try await toFullDevice(browse + ["--format", format], bed: bed)
            #expect(result.status == 1 && result.stderr.contains(fullMessage), "\(format): \(result.stderr)")
        }
        for command in [["doctor", "--no-local", "--timeout", "2s", "127.0.0.1:9"], ["preflight", "--timeout", "2s"]] {
            let result = try await toFullDevice(command, bed: bed)
            #expect(result.status != 0 && result.stderr.contains(fullMessage), "\(command): \(result.stderr)")
        }
    }

    /// --watch runs until it is stopped: the closed pipe must stop it (the run's own bound, 60 s,
    /// is half the 120 s --timeout, and would fail the test with a kill).
    @Test("browse --watch --format jsonl of 400 Gateways | head -1: it ends, exit 0, quietly")
    func closedPipe() async throws {
        let bed = try TestBed.current()
        let records = (0..<400).flatMap { index in
            [
                "h\(index) IN A 100.64.2.\(index % 250 + 1)", "_openclaw-gw._tcp IN PTR g\(index)._openclaw-gw._tcp",
                "g\(index)._openclaw-gw._tcp IN SRV 0 0 18789 h\(index)",
                #"g\#(index)._openclaw-gw._tcp IN TXT "role=gateway" "displayName=Gateway \#(index) of a fleet large enough to fill a pipe""#,
            ]
        }
        let dns = try await bed.startBIND(zones: ["openclaw.internal": openClawZone(records)], options: "max-records-per-type 0;")
        defer { dns.terminate() }
        let result = try await intoHead(
            [
                "browse", "--watch", "--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint, "--format", "jsonl",
                "--timeout", "120s",
            ],
            bed: bed)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("cannot write"), "\(result.stderr)")
    }
}
