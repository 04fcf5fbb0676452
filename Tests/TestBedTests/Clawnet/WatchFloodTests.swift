import Foundation
import TestSupport
import Testing

/// Issue 30, a fourth outside attack: about 1,000 slow connections to watch's /metrics from any
/// local user took the 1,024 descriptors systemd gives, probes failed with EMFILE, and the live
/// Gateway was reported down (host-unreachable) and stayed down through back-off. Here watch
/// runs with 256 descriptors against a stand-in on gw: a bounded flood of slow clients, then a
/// limit of open files it cannot open one more under.
@Suite("watch under slow /metrics clients and no descriptor left", .serialized, .testBed)
struct WatchFloodTests {
    func event(_ watch: ChildProcess, _ text: String, from: Int, timeout: Duration = .seconds(30)) async throws -> String {
        try await watch.waitForLine(from: from, timeout: timeout, "a line with \(text)") { line in
            line.stream == .stdout && line.text.contains(text)
        }.text
    }

    func downEvents(_ watch: ChildProcess) -> [String] {
        watch.lines.filter { $0.stream == .stdout && $0.text.contains(#""event":"down""#) }.map(\.text)
    }

    /// /metrics as curl reads it from node, and the probes it counts (nil: no answer).
    func probes(_ bed: TestBed, _ metrics: String) async throws -> Int? {
        let result = try await bed.run(on: .node, ["curl", "-sf", "--max-time", "5", "http://\(metrics)/metrics"], timeout: .seconds(15))
        guard result.status == 0 else { return nil }
        let line = result.stdout.split(separator: "\n").first { $0.hasPrefix("clawnet_probes_total ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") }
    }

    @Test(
        "400 slow clients against 256 descriptors: /metrics answers, probes go on, no down; then no descriptor left: an error event, no down"
    )
    func floodThenNoDescriptor() async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let gateway = try await WatchCommandTests().standIn(port: port, directory: "\(bed.directory)/flood-tls-\(uniqueTag())")
        let url = "wss://\(bed.ip(.gw)):\(port)"
        let watch = try bed.spawn(
            on: .node,
            [
                "prlimit", "--nofile=256:256", ClawnetBinary.path, "watch", "--no-local", "--manual", url, "--interval", "1s",
                "--format", "jsonl", "--metrics-listen", "127.0.0.1:0",
            ], environment: ["HOME": bed.directory])
        var failure: (any Error)?
        do {
            let serving = try await watch.waitForLine(timeout: .seconds(30), "the metrics address") { $0.text.contains("serving /metrics") }
            let metrics = String(try #require(serving.text.split(separator: " ").last))
            _ = try await event(watch, #""event":"up""#, from: 0)
            let metricsPort = try #require(metrics.split(separator: ":").last.map(String.init))

            // The flood: 400 connections, a byte a second each, for 8 seconds.
            let before = try #require(try await probes(bed, metrics))
            let flood = try bed.spawn(
                on: .node,
                [
                    bed.python, bed.scripts + "/peers/slow_clients.py", "--port", metricsPort, "--connections", "400", "--seconds", "8",
                ])
            try await flood.waitForOutput("holding ", timeout: .seconds(30))
            let during = try await probes(bed, metrics)
            #expect(during != nil, "/metrics answers during the flood")
            _ = try await flood.waitForExit(timeout: .seconds(40))
            let after = try #require(try await probes(bed, metrics), "/metrics answers after the flood")
            #expect(after >= before + 3, "probes went on through the flood: \(before) before, \(after) after")
            #expect(downEvents(watch).isEmpty, "the live Gateway was never judged down: \(downEvents(watch))")

            // No descriptor left at all: with a soft limit of 3 (standard input, output and error)
            // every socket the probes open fails with EMFILE; those already open keep working.
            let mark = watch.lines.count
            let starve = try await bed.run(on: .node, ["prlimit", "--pid", String(watch.pid), "--nofile=3:256"])
            #expect(starve.status == 0, "prlimit: \(starve.stderr)")
            let error = try await event(watch, #""source":"probe""#, from: mark)
            let object = try jsonObject(error)
            #expect(object["event"] as? String == "error", "\(error)")
            #expect(((object["error"] as? [String: Any])?["kind"]) as? String == "localShortage", "\(error)")
            #expect((object["gateway"] as? [String: Any])?["url"] as? String == url, "\(error)")
            // Four probe intervals without a descriptor: still no down. An event that must not
            // come can only be waited for over a time.
            try await Task.sleep(for: .seconds(4))
            #expect(downEvents(watch).isEmpty, "no down for want of a descriptor: \(downEvents(watch))")
            let restore = try await bed.run(on: .node, ["prlimit", "--pid", String(watch.pid), "--nofile=256:256"])
            #expect(restore.status == 0, "prlimit: \(restore.stderr)")
            let recovered = try await probes(bed, metrics)
            #expect(recovered != nil, "/metrics answers once descriptors are back")
            #expect(
                downEvents(watch).isEmpty && !watch.lines.dropFirst(mark).contains { $0.text.contains(#""event":"up""#) },
                "the Gateway never left up, so it never came back up either")
            #expect(try await watch.stop() == 0, "SIGTERM ends watch cleanly")
            let events = watch.lines.filter { $0.stream == .stdout }.map(\.text).joined(separator: "\n")
            try await expectMatches(events, "clawnet.watch-event.v2", lines: true, "watch --format jsonl with a probe error", bed: bed)
        } catch {
            failure = error
        }
        watch.terminate()
        _ = try? await gateway.stop()
        if let failure {
            Issue.record("watch output:\n\(watch.outputTail)")
            throw failure
        }
    }
}
