/// When each waiting Gateway is due, earliest first: a binary min-heap beside a table of the
/// times that hold. Watch asks for due Gateways at every wake-up; scanning a thousand-entry
/// table each time was a part of what it cost, taking the due ones off a heap is not.
/// A Gateway rescheduled or removed leaves its old heap entry behind, skipped when it comes
/// up; the heap is rebuilt from the table once such entries outnumber the live ones.
struct DueQueue<ID: Hashable> {
    private var times: [ID: ContinuousClock.Instant] = [:]
    private var heap: [(due: ContinuousClock.Instant, id: ID)] = []

    /// `id` is due at `due` (replacing when it was due before).
    mutating func schedule(_ id: ID, at due: ContinuousClock.Instant) {
        times[id] = due
        push((due, id))
        compactIfStale()
    }

    /// `id` is no longer waiting.
    mutating func remove(_ id: ID) {
        times[id] = nil
        compactIfStale()
    }

    /// Every waiting Gateway is due at `due`.
    mutating func rescheduleAll(at due: ContinuousClock.Instant) {
        for id in times.keys { times[id] = due }
        rebuild()
    }

    /// Takes off the queue, earliest first, at most `limit` Gateways due at or before `now`.
    mutating func takeDue(now: ContinuousClock.Instant, limit: Int) -> [ID] {
        var taken: [ID] = []
        while taken.count < limit, let first = heap.first, first.due <= now {
            popFirst()
            // An entry whose time no longer holds was replaced or removed.
            guard times[first.id] == first.due else { continue }
            times[first.id] = nil
            taken.append(first.id)
        }
        return taken
    }

    private mutating func compactIfStale() {
        // A floor, so that a small watch does not rebuild at every change.
        let slack = 64
        if heap.count > 2 * times.count + slack { rebuild() }
    }

    private mutating func rebuild() {
        heap = []
        heap.reserveCapacity(times.count)
        for (id, due) in times { push((due, id)) }
    }

    private mutating func push(_ entry: (due: ContinuousClock.Instant, id: ID)) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].due < heap[parent].due else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popFirst() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].due < heap[smallest].due { smallest = left }
            if right < heap.count, heap[right].due < heap[smallest].due { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
