import DNSSD
import Dispatch
import Testing

@testable import Host

/// getaddrinfo cannot be cancelled; its caller can. A lookup held in its thread (a seam
/// that stands for a resolver that never answers) shows who returns first.
@Suite("Host lookups: a caller that stops waiting returns at once", .timeLimit(.minutes(1)))
struct HostLookupCancellationTests {
    @Test("a cancelled caller returns while its lookup still holds its thread; the late answer is dropped")
    func cancelledWhileBlocked() async {
        let (entered, enter) = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let caller = Task {
            // An hour: only the cancellation can end this wait within the time limit.
            await HostLookup.addresses(of: "slow.example", timeout: .seconds(3600)) { _ in
                enter.yield()
                release.wait()
                return .success([IPAddress("10.0.0.9")!])
            }
        }
        for await _ in entered { break }
        caller.cancel()
        let result = await caller.value
        // Only now may the lookup finish: the caller's answer cannot have come from it.
        release.signal()
        guard case .failure(let failure) = result else {
            Issue.record("the cancelled caller got \(result), which only the held lookup could give")
            return
        }
        #expect(failure.message == "looking up slow.example was cancelled", "saw: \(failure.message)")
    }

    @Test("a caller cancelled before it asks returns without waiting for the lookup")
    func cancelledBeforeAsking() async {
        let release = DispatchSemaphore(value: 0)
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await HostLookup.addresses(of: "slow.example", timeout: .seconds(3600)) { _ in
                release.wait()
                return .success([])
            }
        }
        let result = await caller.value
        release.signal()
        guard case .failure(let failure) = result else {
            Issue.record("got \(result)")
            return
        }
        #expect(failure.kind == .noAnswer, "saw: \(failure.message)")
    }

    @Test("a lookup that answers in time is the answer")
    func answered() async {
        let result = await HostLookup.addresses(of: "fast.example", timeout: .seconds(3600)) { _ in .success([IPAddress("10.0.0.7")!]) }
        guard case .success(let addresses) = result else {
            Issue.record("got \(result)")
            return
        }
        #expect(addresses == [IPAddress("10.0.0.7")!])
    }

    @Test(
        "a lookup that times out blames mDNS for a .local name, a DNS server for any other",
        arguments: [("gw.local", true), ("GW.Local.", true), ("gw.example", false), ("local.example", false)])
    func timedOutWords(host: String, local: Bool) {
        // The words only: a lookup held past its time limit would hold a lookup thread other suites share.
        let words = HostLookup.unanswered(host)
        #expect(words.contains("mDNS") == local && words.contains("DNS server") == !local, "\(host): \(words)")
    }
}
