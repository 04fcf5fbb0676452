import NIOCore
import Synchronization

/// The connections the metrics server holds, at most `limit`. A connection past the limit
/// takes the place of the oldest one that has not sent its whole request yet, else of the
/// oldest whose answer stands still (a client that does not read it): a slow client cannot
/// keep a scraper out for long. When every connection is being answered and read, the new one
/// is refused. A refused connection, and one that gives its place while it waits for its
/// request (its request may be on its way), is answered 503 and let go without a reset
/// (`LingeringRefusal`), at most `refusalLimit` of those at once: past that the oldest is
/// closed, which has had its answer longest (an honest client reads it in a millisecond and
/// leaves). Called from each connection's event loop, so the table is behind a lock.
final class ConnectionSlots: Sendable {
    /// What admitting a connection decided.
    struct Admission {
        /// Served; false: refused, set up as a `LingeringRefusal`.
        var served: Bool
        /// To close at once to make room: an answer that stands still, or the oldest refusal.
        var closed: [any Channel] = []
        /// A served connection still waiting for its request that gave its place: now a refusal,
        /// to be told (`LingeringRefusal.Refused`).
        var refused: (any Channel)?
    }

    private struct Slot {
        let channel: any Channel
        var answering = false
        var stalled = false
    }

    private struct State {
        /// In the order they were accepted.
        var served: [Slot] = []
        /// In the order they were refused.
        var refused: [any Channel] = []

        /// Counts `channel` as a refusal; the oldest one, when that makes more than `limit`.
        mutating func refuse(_ channel: any Channel, limit: Int) -> [any Channel] {
            refused.append(channel)
            return refused.count > limit ? [refused.removeFirst()] : []
        }
    }

    let limit: Int
    /// Refusals lingering at once, on top of `limit`: a quarter as many, at least one.
    let refusalLimit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(1, limit)
        refusalLimit = Self.refusals(forLimit: self.limit)
    }

    static func refusals(forLimit limit: Int) -> Int { max(1, limit / 4) }

    func admit(_ channel: any Channel) -> Admission {
        state.withLock { state in
            guard state.served.count >= limit else {
                state.served.append(Slot(channel: channel))
                return Admission(served: true)
            }
            if let waiting = state.served.firstIndex(where: { !$0.answering }) {
                let refused = state.served.remove(at: waiting).channel
                state.served.append(Slot(channel: channel))
                return Admission(served: true, closed: state.refuse(refused, limit: refusalLimit), refused: refused)
            }
            if let stalled = state.served.firstIndex(where: \.stalled) {
                let closed = state.served.remove(at: stalled).channel
                state.served.append(Slot(channel: channel))
                return Admission(served: true, closed: [closed])
            }
            return Admission(served: false, closed: state.refuse(channel, limit: refusalLimit))
        }
    }

    /// Its request arrived whole: it is answered, evicted only while its answer stands still.
    func answering(_ channel: any Channel) {
        state.withLock { state in
            if let index = state.served.firstIndex(where: { $0.channel === channel }) { state.served[index].answering = true }
        }
    }

    /// Its answer has stood still for `MetricsServer.stallGrace` (or moves again): while it
    /// stands still, a newcomer may take its place.
    func stalled(_ channel: any Channel, _ isStalled: Bool) {
        state.withLock { state in
            if let index = state.served.firstIndex(where: { $0.channel === channel }) { state.served[index].stalled = isStalled }
        }
    }

    /// Whether it was refused (or gave its place while waiting) and has not ended yet.
    func isRefused(_ channel: any Channel) -> Bool {
        state.withLock { $0.refused.contains { $0 === channel } }
    }

    func release(_ channel: any Channel) {
        state.withLock { state in
            state.served.removeAll { $0.channel === channel }
            state.refused.removeAll { $0 === channel }
        }
    }

    /// The connections served now (refusals not counted).
    var count: Int { state.withLock { $0.served.count } }
    var refusedCount: Int { state.withLock { $0.refused.count } }
    var answeringCount: Int { state.withLock { $0.served.count(where: \.answering) } }
    var stalledCount: Int { state.withLock { $0.served.count(where: \.stalled) } }
}
