import DNSSD
import Doctor
import FoundationEssentials
import Probes
import Testing

@testable import Watch

/// Issue 30: slow clients of /metrics took every descriptor, probes failed with EMFILE, and the
/// live Gateway was reported down (`host-unreachable`) and stayed down through back-off. A probe
/// this machine could not run is no verdict: the Gateway keeps its health, an error event says
/// why (once), and it is probed again within `shortageRetry`.
@Suite("watch: a probe that could not run here is no verdict")
struct LocalShortageTests {
    static let shortage: ProbeVerdict = {
        var verdict = ProbeVerdict()
        verdict.localShortage = "this process has no file descriptor left (too many open files)"
        return verdict
    }()

    @Test("judged from a report that met EMFILE: no failure, not up, not judged")
    func judgeSaysNothing() {
        var report = ProbeReport(
            target: ProbeTarget(label: "gw", host: "10.0.0.1", addresses: [IPAddress("10.0.0.1")!], port: 18789, tls: true))
        report.tcp = [TCPAttempt(address: IPAddress("10.0.0.1")!, outcome: .localShortage("no descriptor"), elapsed: .zero)]
        report.localShortage = "no descriptor"
        let machine = MachineResult(
            checks: [], facts: WatchLoopTests.machine,
            discovery: DiscoverySummary(localBrowsed: false, domains: [], beacons: [], issues: []))
        let verdict = ProbeVerdict.judge(
            report, beacon: nil, pin: nil, machine: machine, machineCauses: [], budget: .seconds(10), now: Date())
        #expect(verdict.failure == nil && !verdict.isUp && !verdict.isJudged && verdict.localShortage == "no descriptor")
    }

    @Test("no verdict between ups and downs: no event, no failure counted, health kept")
    func healthKept() {
        let policy = GatewayWatchTests.policy
        var watch = GatewayWatch()
        var changes: [[WatchEvent.Change]] = []
        for (seconds, verdict) in [(0, ProbeVerdict()), (30, Self.shortage), (35, Self.shortage), (40, GatewayWatchTests.refused)] {
            changes.append(watch.observe(verdict, at: .seconds(seconds), date: GatewayWatchTests.date, policy: policy))
        }
        #expect(changes == [[.up], [], [], []], "one real failure after up is not down; the shortages are nothing")
        #expect(watch.health == .up && watch.failures == 1)
    }

    @Test("the loop: one error event per streak, a retry within shortageRetry, nothing on the board's health")
    func loopRetriesAndSaysWhy() throws {
        let clock = WatchLoopTests.RecordedClock()
        let emitted = WatchLoopTests.Emitted()
        let board = WatchBoard()
        var loop = WatchLoopTests().loop(clock: clock, emitted: emitted, board: board)
        let beacon = WatchLoopTests.manual("10.0.0.1")
        let id = WatchedGateway(beacon).id
        loop.receive([beacon], complete: true)
        #expect(loop.due().map(\.id) == [id], "a manual target needs no settle")
        loop.finished(id, ProbeVerdict())
        #expect(emitted.take() == ["\(id) appeared", "\(id) up"])

        clock.advance(WatchLoopTests.policy.interval)
        #expect(loop.due().map(\.id) == [id])
        loop.finished(id, Self.shortage)
        #expect(emitted.take() == ["\(id) error"], "the error event names the Gateway")
        #expect(board.snapshot().gateways[id]?.health == .up, "the board keeps up")
        clock.advance(WatchPolicy().shortageRetry)
        #expect(loop.due().map(\.id) == [id], "tried again after shortageRetry, not after a back-off")
        loop.finished(id, Self.shortage)
        #expect(emitted.take().isEmpty, "said once per streak")
        clock.advance(WatchPolicy().shortageRetry)
        #expect(loop.due().map(\.id) == [id])
        loop.finished(id, ProbeVerdict())
        #expect(emitted.take().isEmpty, "still up: nothing to say")
        #expect(board.snapshot().gateways[id]?.health == .up)
    }
}
