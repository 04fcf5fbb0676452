import Foundation
import TestSupport
import Testing

/// watch ends when told, though a probe is stalled on a Gateway that accepts and never answers
/// (its budget is 10 s): the probe is cancelled, not waited for.
extension WatchCommandTests {
    /// A blackhole on gw: accepts, reads, never answers; prints "accepted" for each connection.
    func blackhole() async throws -> (peer: ChildProcess, url: String) {
        let bed = try TestBed.current()
        let (peer, port) = try await bed.startGatewayPeer("silent", script: "hostile_gateway.py", host: .gw, address: bed.ip(.gw))
        return (peer, "ws://\(bed.ip(.gw)):\(port)")
    }

    @Test("--timeout 3s ends watch before 7 s while a probe of a blackhole is stalled (its budget is 10 s)")
    func timeoutCancelsStalledProbe() async throws {
        let bed = try TestBed.current()
        let (peer, url) = try await blackhole()
        defer { peer.terminate() }
        let started = ContinuousClock.now
        let result = try await bed.clawnet(
            ["watch", "--no-local", url, "--timeout", "3s", "--format", "jsonl"], on: .node, environment: ["HOME": bed.directory],
            timeout: .seconds(40))
        let took = ContinuousClock.now - started
        #expect(peer.lines.contains { $0.text == "accepted" }, "the probe reached the blackhole before --timeout: \(result.stdout)")
        #expect(result.status == 0, "\(result.stderr)")
        // The margin is the loaded machine's: a wait for the probe's budget would take 10 s more.
        #expect(took < .seconds(7), "watch --timeout 3s took \(took)")
    }

    @Test(
        "SIGTERM and SIGINT end watch within seconds while a probe of a blackhole is stalled (its budget is 10 s)",
        arguments: [SIGTERM, SIGINT])
    func signalCancelsStalledProbe(_ signal: Int32) async throws {
        let bed = try TestBed.current()
        let (peer, url) = try await blackhole()
        defer { peer.terminate() }
        let watch = try bed.spawnClawnet(
            ["watch", "--no-local", url, "--format", "jsonl"], on: .node, environment: ["HOME": bed.directory])
        defer { watch.terminate(signal: SIGKILL) }
        // The probe is in flight once the blackhole accepted its connection.
        try await peer.waitForOutput("accepted", timeout: .seconds(30))
        let signalled = ContinuousClock.now
        let status = try await watch.stop(signal: signal, timeout: .seconds(30))
        let took = ContinuousClock.now - signalled
        #expect(status == 0, "\(watch.outputTail)")
        #expect(took < .seconds(4), "watch took \(took) to end after signal \(signal)")
    }
}
