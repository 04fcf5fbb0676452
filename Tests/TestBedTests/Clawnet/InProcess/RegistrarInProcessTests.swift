import CommandTestSupport
import Foundation
import Output
import TestSupport
import Testing

@testable import Commands

/// The one registrar, through zone push and advertise --domain run in-process against BIND
/// on the node's loopback: push --dry-run plans and sends nothing; advertise registers, and
/// withdraws exactly that when its termination stream ends.
@Suite("the registrar in-process against BIND", .testBed, .serialized)
struct RegistrarInProcessTests {
    @Test("push --dry-run: what was read and the plan on stderr, the nsupdate script on stdout, nothing sent", .timeLimit(.minutes(2)))
    func pushDryRun() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key, zone: studioZone)
        defer { dns.terminate() }
        let before = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        let run = try await InProcessRun.run([
            "zone", "push", "--domain", "openclaw.internal", "--server", dns.endpoint, "--tsig-key", key.path, "--dry-run",
            "--gateway", "host=studio,ip=100.101.102.105,name=Attic,port=18790",
        ])
        #expect(run.status == 0, "\(run.err)")
        let err = run.err.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("warning: ") }
        #expect(err.first == "read openclaw.internal. from \(dns.label) by AXFR (serial 2026112201, 12 records in 1 message)", "\(run.err)")
        let host = "~ host studio: replaces A 100.101.102.103 with 100.101.102.105; removes AAAA fd7a:115c:a1e0::1"
        #expect(err.contains(host), "\(run.err)")
        #expect(err.contains("+ Attic"), "\(run.err)")
        #expect(err.last == "dry run: 2 changes in 1 UPDATE for openclaw.internal., nothing sent", "\(run.err)")
        let script = run.outLines
        #expect(script.first == "; clawnet zone push --dry-run for openclaw.internal.", "\(run.out)")
        #expect(script.contains("; apply with: nsupdate -k \(key.path) < this file"), "the --tsig-key given: \(run.out)")
        #expect(script.contains("server \(dns.address) \(dns.port)") && script.contains("zone openclaw.internal."), "\(run.out)")
        #expect(script.contains("; host studio.openclaw.internal. replaces A 100.101.102.103 with 100.101.102.105"), "\(run.out)")
        #expect(script.last == "send")
        #expect(!(run.out + run.err).contains(key.secret))
        #expect(try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key) == before, "a dry run sends nothing")
    }

    @Test(
        "advertise --no-local --domain: registered (the zone has it), withdrawn when the termination stream ends (the zone is back)",
        .timeLimit(.minutes(2)))
    func advertiseWideArea() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let dns = try await dynamicBIND(bed, key: key)
        defer { dns.terminate() }
        let state = try temporaryDirectory(bed)
        let before = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        let (termination, stop) = AsyncStream<Int32>.makeStream()
        let recording = TerminalRecording()
        let (ended, end) = AsyncStream<Void>.makeStream()
        let running = Task {
            defer { end.finish() }
            return try await InProcessRun.run(
                [
                    "advertise", "--name", "Attic (OpenClaw)", "--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint,
                    "--tsig-key", key.path, "--address", "100.101.102.110",
                ], environment: ["HOME": "/nonexistent", "XDG_STATE_HOME": state], termination: termination, recording: recording)
        }
        let said = await Self.first(of: recording, writing: "registered \"Attic (OpenClaw)\" in openclaw.internal.", before: ended)
        try #require(said, "the command ended before registering: \(recording.out)\(recording.err)")
        let registered = try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key)
        #expect(registered.contains { $0.contains("PTR Attic") }, "\(registered)")
        #expect(registered.contains { $0.hasPrefix("studio.openclaw.internal.") && $0.hasSuffix("A 100.101.102.110") }, "\(registered)")
        stop.yield(15)
        let run = try await running.value
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("withdrawn from openclaw.internal.: Attic (OpenClaw)\n") && run.out.isEmpty, "\(run.out)\n\(run.err)")
        #expect(try await bed.kdigTransfer(dns, zone: "openclaw.internal", key: key) == before, "exactly what was added is gone")
    }

    /// True once `recording` holds `text`; false when the command ends first (`ended` finishes).
    static func first(of recording: TerminalRecording, writing text: String, before ended: AsyncStream<Void>) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await recording.written(text)
                return !Task.isCancelled
            }
            group.addTask {
                for await _ in ended {}
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
