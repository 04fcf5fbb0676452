import NIOCore
import Synchronization

/// The connections the metrics server holds, at most `limit`. A connection past the limit
/// takes the place of the oldest one that has not sent its whole request yet (a slow client
/// cannot keep a scraper out for long); when every connection is being answered, the new one
/// is refused. Called from each connection's event loop, so the table is behind a lock.
final class ConnectionSlots: Sendable {
    enum Admission {
        /// Taken, closing `evicted` (the oldest still waiting for its request) to make room.
        case admitted(evicted: (any Channel)?)
        case refused
    }

    private struct Slot {
        let channel: any Channel
        var answering = false
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
                guard let oldest = slots.firstIndex(where: { !$0.answering }) else { return .refused }
                evicted = slots.remove(at: oldest).channel
            }
            slots.append(Slot(channel: channel))
            return .admitted(evicted: evicted)
        }
    }

    /// Its request arrived whole: it is answered, never evicted.
    func answering(_ channel: any Channel) {
        slots.withLock { slots in
            if let index = slots.firstIndex(where: { $0.channel === channel }) { slots[index].answering = true }
        }
    }

    func release(_ channel: any Channel) {
        slots.withLock { slots in slots.removeAll { $0.channel === channel } }
    }

    var count: Int { slots.withLock { $0.count } }
}
