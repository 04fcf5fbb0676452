import DNSSD
import Doctor
import FoundationEssentials
import Synchronization

/// The watch's current picture, shared between the loop that writes it and the HTTP server
/// that reads it (/metrics, /sd): a snapshot behind a lock, copied out whole.
package final class WatchBoard: Sendable {
    private let state = Mutex(WatchSnapshot())

    package init() {}

    package func snapshot() -> WatchSnapshot { state.withLock { $0 } }

    func update(_ body: (inout WatchSnapshot) -> Void) { state.withLock { body(&$0) } }
}

/// What the loop hands itself from the tasks around it: the latest roster from discovery,
/// finished probes, a reload asked for; each hand-over rings a doorbell that holds at most one
/// ring, so that nothing here grows while the loop is busy (finished probes are at most the
/// probes in flight).
final class Mailbox: Sendable {
    struct Contents: Sendable {
        var roster: [GatewayBeacon]?
        /// The session that sent `roster` has said all it knows.
        var rosterComplete = false
        var rosterSession = 0
        var verdicts: [(id: String, verdict: ProbeVerdict)] = []
        var reload = false
        /// Discovery's errors since the loop last looked, at most `issueLimit`.
        private(set) var issues: [DiscoveryIssue] = []

        mutating func add(_ issue: DiscoveryIssue) {
            if issues.count < Mailbox.issueLimit { issues.append(issue) }
        }
    }

    /// A path reports an outage once, a DNS server that stops answering once per poll: a
    /// busy loop still prints the first few, and never holds more.
    static let issueLimit = 16

    private let contents = Mutex(Contents())
    let rings: AsyncStream<Void>
    private let bell: AsyncStream<Void>.Continuation

    init() {
        (rings, bell) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func post(_ body: (inout Contents) -> Void) {
        contents.withLock { body(&$0) }
        bell.yield()
    }

    func ring() { bell.yield() }

    func take() -> Contents {
        contents.withLock { contents in
            defer { contents = Contents() }
            return contents
        }
    }
}
