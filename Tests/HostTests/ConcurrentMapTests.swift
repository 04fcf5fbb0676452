import Host
import Synchronization
import Testing

/// What is running at once, and the most that ever was.
private final class InFlight: Sendable {
    private let state = Mutex<(now: Int, most: Int)>((0, 0))

    func enter() { state.withLock { $0 = ($0.now + 1, Swift.max($0.most, $0.now + 1)) } }
    func leave() { state.withLock { $0.now -= 1 } }
    var most: Int { state.withLock { $0.most } }
}

@Suite("concurrentMap: a bounded task group, results in order")
struct ConcurrentMapTests {
    @Test("every element mapped, in the array's order, never more than the limit at once", arguments: [1, 3, 8, 200])
    func orderAndBound(limit: Int) async {
        let inFlight = InFlight()
        let items = Array(0..<100)
        let results = await items.concurrentMap(atMost: limit) { item in
            inFlight.enter()
            defer { inFlight.leave() }
            await Task.yield()
            return item * 2
        }
        #expect(results == items.map { $0 * 2 }, "limit \(limit): \(results)")
        #expect(inFlight.most <= limit, "limit \(limit), \(inFlight.most) ran at once")
    }

    @Test("an empty array maps to nothing; a limit below 1 still maps every element, one at a time")
    func edges() async {
        #expect(await [Int]().concurrentMap(atMost: 4) { $0 }.isEmpty)
        let inFlight = InFlight()
        let results = await [1, 2, 3].concurrentMap(atMost: 0) { item in
            inFlight.enter()
            defer { inFlight.leave() }
            return item
        }
        #expect(results == [1, 2, 3] && inFlight.most == 1, "\(results), \(inFlight.most) at once")
    }
}
