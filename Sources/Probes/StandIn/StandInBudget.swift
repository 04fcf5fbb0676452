import Glibc
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

/// Counts the stand-in's connections (all of them, and per address those whose WebSocket has
/// not logged in), shared by every connection, as the Gateway's pre-auth budget does
/// (src/gateway/server/preauth-connection-budget.ts).
final class StandInBudget: Sendable {
    let limits: StandInLimits
    private let state = Mutex(State())

    private struct State {
        var connections = 0
        var unauthenticated: [String: Int] = [:]
    }

    init(limits: StandInLimits) {
        self.limits = limits
    }

    /// A new connection; false when there are as many as the limit allows (close it at once).
    func admitConnection() -> Bool {
        state.withLock { state in
            guard state.connections < limits.connections else { return false }
            state.connections += 1
            return true
        }
    }

    func connectionClosed() {
        state.withLock { $0.connections = max(0, $0.connections - 1) }
    }

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
    let address: String
    private let state = Mutex(State())

    private struct State {
        var holdsUnauthenticated = false
        var loggedIn = false
        var refusedForBudget = false
    }

    init(budget: StandInBudget, address: String) {
        self.budget = budget
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
            if entries[address] == nil, entries.count >= Self.maxEntries { entries = entries.filter { $0.value.lockedUntil != nil } }
            var entry = entries[address] ?? (attempts: [], lockedUntil: nil)
            if let until = entry.lockedUntil, nowMs < until { return }
            entry.attempts = entry.attempts.filter { $0 > nowMs - Self.windowMs } + [nowMs]
            if entry.attempts.count >= Self.maxAttempts { entry.lockedUntil = nowMs + Self.lockoutMs }
            entries[address] = entry
        }
    }
}
