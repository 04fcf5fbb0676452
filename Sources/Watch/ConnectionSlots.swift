import NIOCore
import Synchronization

/// The connections the metrics server holds, at most `limit`: most are served, a few
/// (`refusalLimit`) are kept for connections that find no room, each answered 503 with
/// Retry-After once its request is read (closing one unread would reset it). A connection past
/// the served ones takes the place of the oldest that sent nothing for `idleGrace`, else of the
/// oldest whose answer stands still, else of the oldest still being answered after `slowAnswer`
/// (a client that reads too slowly): a slow client cannot keep a scraper out for long. When the
/// refusal slots are full too, accepting pauses (the kernel's backlog holds the newcomers, no
/// reset) until a connection ends. Called from each connection's event loop: behind a lock.
final class ConnectionSlots: Sendable {
    enum Admission {
        /// Served, closing `evicted` to make room.
        case admitted(evicted: (any Channel)?)
        /// Answered 503; `pause`: the last refusal slot is taken, accept no more for now.
        case refused(pause: Bool)
    }

    private struct Slot {
        let channel: any Channel
        let accepted: NIODeadline
        /// When its request arrived whole; nil before.
        var answering: NIODeadline?
        var stalled = false
    }

    private struct State {
        var served: [Slot] = []
        var refused: [ObjectIdentifier] = []
        var paused = false
    }

    let limit: Int
    let refusalLimit: Int
    /// In the order they were accepted.
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(2, limit)
        refusalLimit = max(1, self.limit / 8)
    }

    var servedLimit: Int { limit - refusalLimit }

    func admit(_ channel: any Channel, now: NIODeadline = .now()) -> Admission {
        state.withLock { state in
            var evicted: (any Channel)?
            if state.served.count >= servedLimit {
                guard let index = Self.evictable(state.served, now: now) else {
                    state.refused.append(ObjectIdentifier(channel))
                    state.paused = state.refused.count >= refusalLimit
                    return .refused(pause: state.paused)
                }
                evicted = state.served.remove(at: index).channel
            }
            state.served.append(Slot(channel: channel, accepted: now))
            return .admitted(evicted: evicted)
        }
    }

    /// The slot a newcomer may take: the oldest silent past `idleGrace`, else the oldest standing
    /// still, else the oldest answered for longer than `slowAnswer`.
    private static func evictable(_ served: [Slot], now: NIODeadline) -> Int? {
        served.firstIndex { $0.answering == nil && now - $0.accepted >= MetricsServer.idleGrace }
            ?? served.firstIndex(where: \.stalled)
            ?? served.firstIndex { $0.answering.map { now - $0 >= MetricsServer.slowAnswer } ?? false }
    }

    func isRefused(_ channel: any Channel) -> Bool {
        state.withLock { $0.refused.contains(ObjectIdentifier(channel)) }
    }

    /// Its request arrived whole: it is answered.
    func answering(_ channel: any Channel, now: NIODeadline = .now()) {
        state.withLock { state in
            if let index = state.served.firstIndex(where: { $0.channel === channel }) { state.served[index].answering = now }
        }
    }

    /// Its answer has stood still for `MetricsServer.stallGrace` (or moves again): while it
    /// stands still, a newcomer may take its place.
    func stalled(_ channel: any Channel, _ isStalled: Bool) {
        state.withLock { state in
            if let index = state.served.firstIndex(where: { $0.channel === channel }) { state.served[index].stalled = isStalled }
        }
    }

    /// It ended; true when accepting was paused and may resume.
    @discardableResult
    func release(_ channel: any Channel) -> Bool {
        state.withLock { state in
            state.served.removeAll { $0.channel === channel }
            state.refused.removeAll { $0 == ObjectIdentifier(channel) }
            guard state.paused, state.refused.count < refusalLimit else { return false }
            state.paused = false
            return true
        }
    }

    var count: Int { state.withLock { $0.served.count + $0.refused.count } }
    var stalledCount: Int { state.withLock { $0.served.count(where: \.stalled) } }
}
