import Avahi
import CommandTestSupport
import DNSSD
import Foundation
import Output
import TestSupport
import Testing

@testable import Commands

/// advertise run in-process: its prerequisite (avahi-daemon) asked through the context, the
/// stand-in's TLS pair kept by `StandInIdentityStore`, the termination stream ending it.
@Suite("advertise in-process (recorded machine)")
struct AdvertiseInProcessTests {
    @Test("no D-Bus: exit 3 before anything is served, the issue and its fix on stderr; Avahi refusing otherwise is exit 1")
    func avahiMissing() async throws {
        let run = try await InProcessRun.run(["advertise", "--name", "Studio", "--serve"], machine: DoctorInProcessTests.withoutBus)
        #expect(run.status == 3)
        #expect(run.out.isEmpty, "nothing served: \(run.out)")
        #expect(run.err.hasPrefix("error (mdns): the D-Bus system bus is not running (no socket at "), "\(run.err)")
        #expect(run.err.contains("\n  fix: start D-Bus: `sudo systemctl start dbus`"), "\(run.err)")
        var refusing = RecordedMachine()
        refusing.avahiStatus = .unavailable(
            DiscoveryIssue(source: .mdns, kind: .browseFailed, .publishRefused(name: "Studio", error: "Not permitted")))
        #expect(try await InProcessRun.run(["advertise", "--name", "Studio"], machine: refusing).status == 1)
    }

    @Test(
        "--serve-only --tls-dir: a pair made and kept there, the same fingerprint on the next run; ends with its stream",
        .timeLimit(.minutes(1)))
    func serveOnlyKeepsItsCertificate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var fingerprints: [String] = []
        for round in 0..<2 {
            let arguments = ["advertise", "--serve-only", "--tls-dir", directory, "--bind", "127.0.0.1", "--port", "\(testPort())"]
            let (termination, stop) = AsyncStream<Int32>.makeStream()
            stop.yield(15)
            let run = try await InProcessRun.run(arguments, termination: termination)
            #expect(run.status == 0, "\(run.err)")
            // Status lines, all on stderr: stdout stays empty.
            #expect(run.out.isEmpty && run.errLines.last == "stopped serving", "\(run.out)\n\(run.err)")
            #expect(run.err.contains("made a certificate: \(directory)/gateway-cert.pem") == (round == 0), "\(run.err)")
            let serving = try #require(run.errLines.first { $0.hasPrefix("serving on 127.0.0.1:") }, "\(run.err)")
            fingerprints.append(String(try #require(serving.split(separator: "sha256 ").last)))
        }
        #expect(fingerprints.count == 2 && fingerprints[0] == fingerprints[1], "\(fingerprints)")
    }

    @Test("--tls-dir holding only the key: exit 1, nothing served, the fix names both files")
    func halfAPair() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "key".write(toFile: "\(directory)/gateway-key.pem", atomically: true, encoding: .utf8)
        let run = try await InProcessRun.run(["advertise", "--serve-only", "--tls-dir", directory, "--port", "\(testPort())"])
        #expect(run.status == 1)
        #expect(run.err.contains("holds only one of gateway-cert.pem and gateway-key.pem"), "\(run.err)")
        #expect(run.err.contains("fix: --tls-dir must be a folder"), "\(run.err)")
    }
}
