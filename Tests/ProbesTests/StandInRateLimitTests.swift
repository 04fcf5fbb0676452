import Testing

@testable import Probes

/// The stand-in's lockout map (auth-rate-limit.ts's shape): 10 failures in a minute lock an
/// address out for 5 minutes, and the map holds at most `maxEntries` addresses however many
/// strangers fail, forgetting first those whose failures and lockouts are over.
@Suite("the stand-in's rate limit")
struct StandInRateLimitTests {
    @Test("10 failures within a minute lock the address out for 5 minutes; loopback never")
    func lockout() {
        let limit = StandInRateLimit()
        for attempt in 0..<10 {
            #expect(limit.lockedOut("10.0.0.1", nowMs: Int64(attempt)) == nil, "attempt \(attempt)")
            limit.recordFailure("10.0.0.1", nowMs: Int64(attempt))
            limit.recordFailure("127.0.0.1", nowMs: Int64(attempt))
        }
        #expect(limit.lockedOut("10.0.0.1", nowMs: 9) == StandInRateLimit.lockoutMs)
        #expect(limit.lockedOut("10.0.0.1", nowMs: 9 + StandInRateLimit.lockoutMs) == nil)
        #expect(limit.lockedOut("127.0.0.1", nowMs: 9) == nil)
    }

    @Test("a map full of lockouts that are over: they are forgotten, the bound holds, a new address is tracked")
    func boundedWhenFullOfExpiredLockouts() {
        let limit = StandInRateLimit()
        for index in 0..<StandInRateLimit.maxEntries {
            let address = "10.\(index / 65_536).\(index / 256 % 256).\(index % 256)"
            for attempt in 0..<StandInRateLimit.maxAttempts { limit.recordFailure(address, nowMs: Int64(attempt)) }
        }
        #expect(limit.count == StandInRateLimit.maxEntries)
        let later = StandInRateLimit.lockoutMs + StandInRateLimit.windowMs + 10
        for attempt in 0..<StandInRateLimit.maxAttempts { limit.recordFailure("192.0.2.1", nowMs: later + Int64(attempt)) }
        #expect(limit.count == 1, "\(limit.count) addresses tracked")
        #expect(limit.lockedOut("192.0.2.1", nowMs: later + 10) != nil)
    }

    @Test("a map full of live lockouts: a new address goes untracked, the map does not grow")
    func boundedWhenFullOfLiveLockouts() {
        let limit = StandInRateLimit()
        for index in 0..<StandInRateLimit.maxEntries {
            limit.recordFailure("10.\(index / 65_536).\(index / 256 % 256).\(index % 256)", nowMs: 0)
        }
        limit.recordFailure("192.0.2.1", nowMs: 1)
        #expect(limit.count == StandInRateLimit.maxEntries)
    }
}
