import DNSSD
import Synchronization
import Testing

@testable import Discovery

/// The session's bookkeeping: when all-for-now is said and when it ends, with backends
/// replaced by scripts.
@Suite("Discovery session: all-for-now and the end (injected backends)")
struct DiscoverySessionTests {
    static func beacon(_ name: String, _ domain: DomainName = .local) -> GatewayBeacon {
        GatewayBeacon(
            instance: try! InstanceName(decoded: name), serviceType: .gateway, domain: domain, source: .mdns,
            host: "\(name.lowercased()).local.", port: 18789, addresses: [IPAddress("10.0.0.1")!], txt: .empty)
    }

    /// A backend that emits `events`, then ends.
    static func scripted(_ events: [DiscoveryEvent]) -> DiscoverySession.Backend {
        { emit in for event in events { await emit(event) } }
    }

    /// A backend that emits `events`, then waits until its task is cancelled, and says so.
    static func lingering(_ events: [DiscoveryEvent], cancelled: Flag) -> DiscoverySession.Backend {
        { emit in
            for event in events { await emit(event) }
            await Flag.untilCancelled()
            cancelled.set()
        }
    }

    /// Everything the session says until it ends.
    func drain(_ backends: [DiscoverySession.Backend], deadline: Duration? = nil) async -> (events: [DiscoveryEvent], timedOut: Bool) {
        var events: [DiscoveryEvent] = []
        let timedOut = await DiscoverySession.run(backends, deadline: deadline) { event in
            events.append(event)
            return true
        }
        return (events, timedOut)
    }

    @Test(
        "the tracker: all-for-now once every backend reported or ended; later ones pass through",
        arguments: [
            // (steps as "a<i>" = all-for-now from i, "e<i>" = ended i, expected answers, finished at the end)
            (2, ["a0", "a0", "a1", "a1"], [false, false, true, true], false),
            (2, ["e0", "a1"], [false, true], false),
            (2, ["a1", "e1", "e0"], [false, false, true], true),
            (1, ["e0"], [true], true),
            (3, ["a2", "e2", "a0", "a1"], [false, false, false, true], false),
        ] as [(Int, [String], [Bool], Bool)])
    func tracker(backends: Int, steps: [String], answers: [Bool], finished: Bool) {
        var completion = BackendCompletion(backends: backends)
        let said = steps.map { step -> Bool in
            let index = Int(step.dropFirst())!
            return step.hasPrefix("a") ? completion.allForNow(from: index) : completion.ended(index)
        }
        #expect(said == answers, "\(steps)")
        #expect(completion.isFinished == finished, "\(steps)")
    }

    @Test("no backend: all-for-now at once, then the end")
    func noBackends() async {
        #expect(await drain([]).events == [.allForNow])
    }

    @Test("two backends: every beacon before the one all-for-now; the session ends when both end")
    func twoBackends() async {
        let (events, timedOut) = await drain([
            Self.scripted([.added(Self.beacon("A")), .allForNow]), Self.scripted([.added(Self.beacon("B")), .allForNow]),
        ])
        #expect(!timedOut)
        #expect(events.filter { $0 == .allForNow }.count == 1, "\(events)")
        #expect(events.last == .allForNow, "both beacons come before all-for-now: \(events)")
        #expect(Set(events.compactMap { if case .added(let beacon) = $0 { beacon.instance.displayName } else { nil } }) == ["A", "B"])
    }

    @Test("a backend that ends without all-for-now has said all it will")
    func endedWithoutAllForNow() async {
        let (events, _) = await drain([
            Self.scripted([.error(DiscoveryIssue(source: .mdns, kind: .daemonMissing, .eventLoopFailed))]), Self.scripted([.allForNow]),
        ])
        #expect(events.count == 2 && events.last == .allForNow, "\(events)")
    }

    @Test("after the first all-for-now, a backend that catches up again (watch) says so again")
    func laterAllForNow() async {
        let (events, _) = await drain([Self.scripted([.allForNow, .added(Self.beacon("C")), .allForNow])])
        #expect(events.filter { $0 == .allForNow }.count == 2, "\(events)")
    }

    @Test("the deadline ends the session, and every backend has stopped when it returns")
    func deadline() async {
        let cancelled = Flag()
        let (events, timedOut) = await drain(
            [Self.lingering([.added(Self.beacon("D"))], cancelled: cancelled)], deadline: .milliseconds(50))
        #expect(timedOut && events.count == 1, "\(events)")
        #expect(cancelled.isSet, "the backend's task was cancelled and ended before run returned")
    }

    @Test("the consumer stops it (all-for-now, as a snapshot does): the other backends are cancelled and awaited")
    func consumerStops() async {
        let cancelled = Flag()
        let timedOut = await DiscoverySession.run(
            [Self.lingering([.allForNow], cancelled: cancelled), Self.scripted([.added(Self.beacon("E")), .allForNow])], deadline: nil
        ) { event in event != .allForNow }
        #expect(!timedOut && cancelled.isSet)
    }

    @Test("a backend that emits far more than the buffer holds waits for the consumer; nothing is lost or reordered")
    func backpressure() async {
        let count = DiscoverySession.bufferCapacity * 20
        let beacons = (0..<count).map { Self.beacon("G\($0)") }
        let (events, _) = await drain([Self.scripted(beacons.map { .added($0) } + [.allForNow])])
        let names = events.compactMap { if case .added(let beacon) = $0 { beacon.instance.displayName } else { nil } }
        #expect(names == beacons.map(\.instance.displayName), "\(names.count) of \(count), in order")
    }
}

/// Set once, read after the task that sets it has ended.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }

    /// Returns when the current task is cancelled.
    static func untilCancelled() async {
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
    }
}
