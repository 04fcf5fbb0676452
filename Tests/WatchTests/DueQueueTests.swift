import TestSupport
import Testing

@testable import Watch

/// Watch's schedule: Gateways come off the queue earliest first, only once due, at most as
/// many as asked; rescheduling and removal hold.
@Suite struct DueQueueTests {
    let start = ContinuousClock.now

    func at(_ seconds: Int) -> ContinuousClock.Instant { start + .seconds(seconds) }

    @Test("due Gateways come off earliest first, at most `limit`, and only once")
    func earliestFirst() {
        var queue = DueQueue<String>()
        for (id, second) in [("c", 3), ("a", 1), ("d", 9), ("b", 2)] { queue.schedule(id, at: at(second)) }
        #expect(queue.takeDue(now: at(0), limit: 10) == [])
        #expect(queue.takeDue(now: at(5), limit: 2) == ["a", "b"])
        #expect(queue.takeDue(now: at(5), limit: 10) == ["c"])
        #expect(queue.takeDue(now: at(5), limit: 10) == [])
        #expect(queue.takeDue(now: at(9), limit: 10) == ["d"])
    }

    @Test("a rescheduled Gateway is due at its new time only; a removed one never")
    func rescheduleAndRemove() {
        var queue = DueQueue<String>()
        queue.schedule("a", at: at(1))
        queue.schedule("b", at: at(2))
        queue.schedule("a", at: at(7))
        queue.remove("b")
        #expect(queue.takeDue(now: at(5), limit: 10) == [])
        #expect(queue.takeDue(now: at(7), limit: 10) == ["a"])
        queue.schedule("c", at: at(20))
        queue.schedule("d", at: at(30))
        queue.rescheduleAll(at: at(8))
        #expect(queue.takeDue(now: at(8), limit: 10).sorted() == ["c", "d"])
    }

    @Test("random schedules, removals and takes agree with a plain table scanned in full")
    func agreesWithTable() {
        var random = SeededRandom()
        var queue = DueQueue<Int>()
        var table: [Int: ContinuousClock.Instant] = [:]
        var now = at(0)
        for step in 0..<5_000 {
            let id = Int.random(in: 0..<200, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let due = now + .milliseconds(Int.random(in: 0..<5_000, using: &random))
                queue.schedule(id, at: due)
                table[id] = due
            case 5:
                queue.remove(id)
                table[id] = nil
            default:
                now += .milliseconds(Int.random(in: 0..<500, using: &random))
                let limit = Int.random(in: 1..<20, using: &random)
                let taken = queue.takeDue(now: now, limit: limit)
                // The table's answer: the earliest due, ties in any order.
                let due = table.filter { $0.value <= now }.sorted { $0.value < $1.value }
                let expected: [ContinuousClock.Instant?] = due.prefix(limit).map(\.value)
                let agrees = taken.map { table[$0] } == expected
                #expect(agrees, "step \(step): took \(taken) at \(now), \(random.seedNote)")
                guard agrees else { return }
                for id in taken { table[id] = nil }
            }
        }
        #expect(queue.takeDue(now: now + .seconds(10), limit: .max).sorted() == table.keys.sorted(), "\(random.seedNote)")
    }
}
