import DNSSD
import Testing

@testable import Discovery

/// The merged stream's bookkeeping: when all-for-now is said and when the stream ends, with
/// backends replaced by streams the test feeds.
@Suite("Discovery session: all-for-now and the end (injected backends)")
struct DiscoverySessionTests {
    static func beacon(_ name: String, _ domain: DomainName = .local) -> GatewayBeacon {
        GatewayBeacon(
            instance: try! InstanceName(decoded: name), serviceType: .gateway, domain: domain, source: .mdns,
            host: "\(name.lowercased()).local.", port: 18789, addresses: [IPAddress("10.0.0.1")!], txt: .empty)
    }

    /// Everything the merged stream says until it ends.
    func drain(_ stream: AsyncStream<DiscoveryEvent>) async -> [DiscoveryEvent] {
        var events: [DiscoveryEvent] = []
        for await event in stream { events.append(event) }
        return events
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
        #expect(await drain(DiscoverySession.merged([])) == [.allForNow])
    }

    @Test("two backends: every beacon before the one all-for-now; the stream ends when both end")
    func twoBackends() async {
        let (first, feedFirst) = AsyncStream<DiscoveryEvent>.makeStream()
        let (second, feedSecond) = AsyncStream<DiscoveryEvent>.makeStream()
        let merged = DiscoverySession.merged([first, second])
        feedFirst.yield(.added(Self.beacon("A")))
        feedFirst.yield(.allForNow)
        feedSecond.yield(.added(Self.beacon("B")))
        feedSecond.yield(.allForNow)
        feedFirst.finish()
        feedSecond.finish()
        let events = await drain(merged)
        #expect(events.filter { $0 == .allForNow }.count == 1, "\(events)")
        #expect(events.last == .allForNow, "both beacons come before all-for-now: \(events)")
        #expect(Set(events.compactMap { if case .added(let beacon) = $0 { beacon.instance.displayName } else { nil } }) == ["A", "B"])
    }

    @Test("a backend that ends without all-for-now has said all it will")
    func endedWithoutAllForNow() async {
        let (first, feedFirst) = AsyncStream<DiscoveryEvent>.makeStream()
        let (second, feedSecond) = AsyncStream<DiscoveryEvent>.makeStream()
        let merged = DiscoverySession.merged([first, second])
        feedFirst.yield(.error(DiscoveryIssue(source: .mdns, kind: .daemonMissing, message: "no daemon")))
        feedFirst.finish()
        feedSecond.yield(.allForNow)
        feedSecond.finish()
        let events = await drain(merged)
        #expect(events.count == 2 && events.last == .allForNow, "\(events)")
    }

    @Test("after the first all-for-now, a backend that catches up again (watch) says so again")
    func laterAllForNow() async {
        let (only, feed) = AsyncStream<DiscoveryEvent>.makeStream()
        let merged = DiscoverySession.merged([only])
        feed.yield(.allForNow)
        feed.yield(.added(Self.beacon("C")))
        feed.yield(.allForNow)
        feed.finish()
        let events = await drain(merged)
        #expect(events.filter { $0 == .allForNow }.count == 2, "\(events)")
    }
}
