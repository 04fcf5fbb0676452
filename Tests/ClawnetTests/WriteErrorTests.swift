import Foundation
import TestSupport
import Testing

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
