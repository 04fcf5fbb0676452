import NIOCore
import Synchronization

/// The connections the metrics server holds, at most `limit`. A connection past the limit
/// takes the place of the oldest one that has not sent its whole request yet, else of the
/// oldest whose answer stands still (a client that does not read it): a slow client cannot
/// keep a scraper out for long. When every connection is being answered and read, the new one
/// is refused. Called from each connection's event loop, so the table is behind a lock.
final class ConnectionSlots: Sendable {
    enum Admission {
        /// Taken, closing `evicted` (the oldest still waiting for its request, or the oldest
        /// whose answer stands still) to make room.
        case admitted(evicted: (any Channel)?)
        case refused
    }

    private struct Slot {
        let channel: any Channel
        var answering = false
        var stalled = false
    }

    let limit: Int
    /// In the order they were accepted.
    private let slots = Mutex<[Slot]>([])

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    func admit(_ channel: any Channel) -> Admission {
        slots.withLock { slots in
            var evicted: (any Channel)?
            if slots.count >= limit {
                guard let oldest = slots.firstIndex(where: { !$0.answering }) ?? slots.firstIndex(where: \.stalled) else {
                    return .refused
                }
                evicted = slots.remove(at: oldest).channel
            }
            slots.append(Slot(channel: channel))
            return .admitted(evicted: evicted)
        }
    }

    /// Its request arrived whole: it is answered, evicted only while its answer stands still.
    func answering(_ channel: any Channel) {
        slots.withLock { slots in
            if let index = slots.firstIndex(where: { $0.channel === channel }) { slots[index].answering = true }
        }
    }

    /// Its answer has stood still for `MetricsServer.stallGrace` (or moves again): while it
    /// stands still, a newcomer may take its place.
    func stalled(_ channel: any Channel, _ isStalled: Bool) {
        slots.withLock { slots in
            if let index = slots.firstIndex(where: { $0.channel === channel }) { slots[index].stalled = isStalled }
        }
    }

    func release(_ channel: any Channel) {
        slots.withLock { slots in slots.removeAll { $0.channel === channel } }
    }

    var count: Int { slots.withLock { $0.count } }
    var stalledCount: Int { slots.withLock { $0.count(where: \.stalled) } }
}
