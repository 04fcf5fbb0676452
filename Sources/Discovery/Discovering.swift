import DNSSD
import Synchronization

/// Discovery as a command asks for it: `LiveDiscovery` runs a `DiscoverySession` on this
/// machine's paths; `RecordedDiscovery` replays events, so that what a command makes of them
/// (its request from the flags, its output, its exit status) is tested without Avahi or DNS.
package protocol Discovering: Sendable {
    /// As `DiscoverySession.snapshot`.
    func snapshot(
        _ request: DiscoveryRequest, timeout: Duration?, untilAllForNow: Bool, initial: [DiscoveryIssue],
        onEvent: (DiscoveryEvent, BeaconCollection) -> Void
    ) async -> DiscoverySnapshot
}

extension Discovering {
    /// Until every path has reported all it knows, or `timeout`.
    package func snapshot(_ request: DiscoveryRequest, timeout: Duration?) async -> DiscoverySnapshot {
        await snapshot(request, timeout: timeout, untilAllForNow: true, initial: [], onEvent: { _, _ in })
    }
}

/// The paths of this machine: mDNS through avahi-daemon, unicast DNS-SD, manual targets.
package struct LiveDiscovery: Discovering {
    package init() {}

    package func snapshot(
        _ request: DiscoveryRequest, timeout: Duration?, untilAllForNow: Bool, initial: [DiscoveryIssue],
        onEvent: (DiscoveryEvent, BeaconCollection) -> Void
    ) async -> DiscoverySnapshot {
        await DiscoverySession.snapshot(request, timeout: timeout, untilAllForNow: untilAllForNow, initial: initial, onEvent: onEvent)
    }
}

/// Events recorded from a discovery (or written by a test), replayed in order whatever is
/// asked; it keeps the requests it was given, for the test to check what the command asked.
package final class RecordedDiscovery: Discovering {
    private let events: [DiscoveryEvent]
    private let timesOut: Bool
    private let asked = Mutex<[DiscoveryRequest]>([])

    /// `timesOut`: the replay ends as a discovery that ran out of time does (after every event).
    package init(events: [DiscoveryEvent], timesOut: Bool = false) {
        self.events = events
        self.timesOut = timesOut
    }

    /// The requests it was given, in order.
    package var requests: [DiscoveryRequest] { asked.withLock { $0 } }

    package func snapshot(
        _ request: DiscoveryRequest, timeout: Duration?, untilAllForNow: Bool, initial: [DiscoveryIssue],
        onEvent: (DiscoveryEvent, BeaconCollection) -> Void
    ) async -> DiscoverySnapshot {
        asked.withLock { $0.append(request) }
        var collection = BeaconCollection()
        for issue in initial { collection.apply(.error(issue)) }
        for event in events {
            collection.apply(event)
            onEvent(event, collection)
            if event == .allForNow && untilAllForNow { break }
        }
        return DiscoverySnapshot(beacons: collection.beacons, issues: collection.errors, timedOut: timesOut, elapsed: .zero)
    }
}
