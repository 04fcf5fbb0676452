import Glibc
import NIOCore
import Synchronization

/// The process's descriptor limit (RLIMIT_NOFILE's soft value).
enum DescriptorLimit {
    static var soft: Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        // RLIM_INFINITY is all ones: clamped like any other large value.
        return min(Int(clamping: limit.rlim_cur), 1 << 20)
    }
}

/// Counts the stand-in's connections, shared by every connection: all of them (at most
/// `limits.connections`, so that advertise keeps descriptors to withdraw its records), per
/// address those that have not logged in yet (at most `limits.waitingPerAddress`), and per
/// address the WebSockets that have not logged in, as the Gateway's pre-auth budget does
/// (src/gateway/server/preauth-connection-budget.ts). One address cannot hold the others out:
/// past its own limit a new connection of it takes the place of its oldest waiting one, and
/// when every place is taken a connection of another address takes the place of the oldest
/// waiting one of the address that holds the most. Nor can many addresses holding a few each:
/// when none holds more than the newcomer's would, the oldest waiting connection of all gives
/// way (a client that logs in at once is the newest, far from its turn), so a fresh client
/// always gets in, and the bound keeps descriptors for the withdrawal.
final class StandInBudget: Sendable {
    enum Admission {
        /// Taken, closing `evicted` (a waiting connection) to make room.
        case admitted(evicted: (any Channel)?)
        /// Every place holds a connection that logged in: close it at once.
        case refused
    }

    let limits: StandInLimits
    private let state = Mutex(State())

    private struct State {
        /// Every connection, its address, and its place in the order of arrival.
        var open: [ObjectIdentifier: (channel: any Channel, address: String, order: Int)] = [:]
        var arrivals = 0
        /// Per address, the connections that have not logged in, oldest first.
        var waiting: [String: [ObjectIdentifier]] = [:]
        var unauthenticated: [String: Int] = [:]

        /// Forgets a connection; its channel, if it was still counted.
        mutating func remove(_ id: ObjectIdentifier) -> (any Channel)? {
            guard let (channel, address, _) = open.removeValue(forKey: id) else { return nil }
            stopWaiting(id, address)
            return channel
        }

        /// The connection that has waited longest, of any address (each address's list is oldest first).
        var oldestWaiting: ObjectIdentifier? {
            waiting.values.compactMap(\.first).min { (open[$0]?.order ?? 0) < (open[$1]?.order ?? 0) }
        }

        mutating func stopWaiting(_ id: ObjectIdentifier, _ address: String) {
            guard var ids = waiting[address], let index = ids.firstIndex(of: id) else { return }
            ids.remove(at: index)
            waiting[address] = ids.isEmpty ? nil : ids
        }
    }

    init(limits: StandInLimits) {
        self.limits = limits
    }

    /// A new connection from `address`, counted as waiting until it logs in.
    func admit(_ channel: any Channel, from address: String) -> Admission {
        state.withLock { state in
            let held = state.waiting[address]?.count ?? 0
            var evicted: ObjectIdentifier?
            if held >= limits.waitingPerAddress {
                evicted = state.waiting[address]?.first
            } else if state.open.count >= limits.connections {
                // The address that holds the most waiting connections gives up its oldest, when it holds more than this one's;
                // else the oldest waiting connection of all.
                guard let most = state.waiting.max(by: { $0.value.count < $1.value.count }) else { return .refused }
                evicted = most.value.count > held + 1 ? most.value.first : state.oldestWaiting
            }
            let victim = evicted.flatMap { state.remove($0) }
            let id = ObjectIdentifier(channel)
            state.arrivals += 1
            state.open[id] = (channel, address, state.arrivals)
            state.waiting[address, default: []].append(id)
            return .admitted(evicted: victim)
        }
    }

    /// It logged in (hello-ok): it is no longer waiting, and never evicted.
    func loggedIn(_ channel: any Channel) {
        state.withLock { state in
            let id = ObjectIdentifier(channel)
            if let address = state.open[id]?.address { state.stopWaiting(id, address) }
        }
    }

    func connectionClosed(_ channel: any Channel) {
        _ = state.withLock { $0.remove(ObjectIdentifier(channel)) }
    }

    /// Connections held now, and those of `address` still waiting.
    var count: Int { state.withLock { $0.open.count } }
    func waiting(_ address: String) -> Int { state.withLock { $0.waiting[address]?.count ?? 0 } }

    /// An upgrade from `address`; false when the address holds as many unauthenticated
    /// WebSockets as allowed.
    func acquireUnauthenticated(_ address: String) -> Bool {
        state.withLock { state in
            let held = state.unauthenticated[address, default: 0]
            guard held < limits.unauthenticatedPerAddress else { return false }
            state.unauthenticated[address] = held + 1
            return true
        }
    }

    /// The WebSocket logged in or closed.
    func releaseUnauthenticated(_ address: String) {
        state.withLock { state in
            let held = state.unauthenticated[address, default: 0]
            state.unauthenticated[address] = held > 1 ? held - 1 : nil
        }
    }
}

/// One connection's standing with the budget: released once, whichever comes first (hello-ok
/// or the close).
final class StandInAdmissionTicket: Sendable {
    private let budget: StandInBudget
    private let channel: any Channel
    let address: String
    private let state = Mutex(State())

    private struct State {
        var holdsUnauthenticated = false
        var loggedIn = false
        var refusedForBudget = false
    }

    init(budget: StandInBudget, channel: any Channel, address: String) {
        self.budget = budget
        self.channel = channel
        self.address = address
    }

    var limits: StandInLimits { budget.limits }
    var loggedIn: Bool { state.withLock { $0.loggedIn } }
    /// The upgrade was refused for the budget: the HTTP handler answers 503.
    var refusedForBudget: Bool { state.withLock { $0.refusedForBudget } }

    /// Takes a place in the address's budget for a new WebSocket; false when it is full.
    func acquire() -> Bool {
        let held = budget.acquireUnauthenticated(address)
        state.withLock {
            $0.holdsUnauthenticated = held
            $0.refusedForBudget = !held
        }
        return held
    }

    func logIn() {
        state.withLock { $0.loggedIn = true }
        budget.loggedIn(channel)
        release()
    }

    func release() {
        let held = state.withLock { state in
            defer { state.holdsUnauthenticated = false }
            return state.holdsUnauthenticated
        }
        if held { budget.releaseUnauthenticated(address) }
    }
}

/// Failed authentication per address: 10 within a minute lock the address out for 5 minutes;
/// loopback is exempt (createAuthRateLimiter in src/gateway/auth-rate-limit.ts). Bounded like
/// the Gateway's map.
final class StandInRateLimit: Sendable {
    static let maxAttempts = 10
    static let windowMs: Int64 = 60_000
    static let lockoutMs: Int64 = 300_000
    static let maxEntries = 10_000
    private let entries = Mutex<[String: (attempts: [Int64], lockedUntil: Int64?)]>([:])

    /// How many addresses it tracks.
    var count: Int { entries.withLock { $0.count } }

    /// Milliseconds until the lockout of `address` ends, or nil when it may try.
    func lockedOut(_ address: String, nowMs: Int64) -> Int64? {
        guard !StandInAdmission.isLoopback(address) else { return nil }
        return entries.withLock { entries in
            guard let until = entries[address]?.lockedUntil, nowMs < until else { return nil }
            return until - nowMs
        }
    }

    func recordFailure(_ address: String, nowMs: Int64) {
        guard !StandInAdmission.isLoopback(address) else { return }
        entries.withLock { entries in
            if entries[address] == nil, entries.count >= Self.maxEntries {
                // Keep what still matters (a lockout not over, a failure inside the window); with
                // that many addresses live, a new one goes untracked: the map never outgrows its bound.
                entries = entries.filter {
                    ($0.value.lockedUntil ?? 0) > nowMs || $0.value.attempts.contains { $0 > nowMs - Self.windowMs }
                }
                if entries.count >= Self.maxEntries { return }
            }
            var entry = entries[address] ?? (attempts: [], lockedUntil: nil)
            if let until = entry.lockedUntil, nowMs < until { return }
            entry.attempts = entry.attempts.filter { $0 > nowMs - Self.windowMs } + [nowMs]
            if entry.attempts.count >= Self.maxAttempts { entry.lockedUntil = nowMs + Self.lockoutMs }
            entries[address] = entry
        }
    }
}
