import Avahi
import DNSClient
import DNSSD

/// What one discovery found: the merged beacons and the problems, and whether the time
/// ran out before every path had reported.
package struct DiscoverySnapshot: Sendable {
    package var beacons: [GatewayBeacon]
    package var issues: [DiscoveryIssue]
    package var timedOut: Bool
    package var elapsed: Duration
}

extension DiscoverySession {
    /// Runs `request` until every path has reported all it knows (unless `untilAllForNow` is
    /// false: then until every path has ended, or this task is cancelled) or `timeout` passes.
    /// `onEvent` sees each event and the collection so far, for output while it runs.
    /// `initial` issues (the config's) come first among the issues.
    package static func snapshot(
        _ request: DiscoveryRequest, timeout: Duration?, untilAllForNow: Bool = true, initial: [DiscoveryIssue] = [],
        onEvent: (DiscoveryEvent, BeaconCollection) -> Void = { _, _ in }
    ) async -> DiscoverySnapshot {
        let started = ContinuousClock.now
        var request = request
        // A name that does not resolve is still reported: lookups give up before the deadline.
        if let timeout { request.lookupTimeout = min(request.lookupTimeout, timeout * 3 / 4) }
        // Names that never resolve (a flood, hosts gone without a goodbye) are counted, and what
        // did resolve is reported, before the deadline cuts the browse off.
        if let timeout { request.multicast.resolveBudget = timeout * 3 / 4 }
        // A server that does not answer is reported as such, not taken for an empty domain: its
        // tries end before the time does (doctor's --timeout 4s gives discovery 2 s).
        if let timeout {
            let client = request.unicast.client
            request.unicast.client.attemptTimeout = min(client.attemptTimeout, timeout * 3 / 4 / client.attempts)
        }
        var collection = BeaconCollection()
        for issue in initial { collection.apply(.error(issue)) }
        let timedOut = await run(backends(request), deadline: timeout, known: request.known) { event in
            collection.apply(event)
            onEvent(event, collection)
            return !(event == .allForNow && untilAllForNow)
        }
        return DiscoverySnapshot(
            beacons: collection.beacons, issues: collection.errors, timedOut: timedOut, elapsed: ContinuousClock.now - started)
    }
}
