import DNSSD
import Host

/// Browsing `local.` through the system's avahi-daemon (libavahi-client over D-Bus). clawnet
/// never runs an mDNS responder of its own next to Avahi.
package struct MulticastBackend: Sendable {
    package var retryInterval: Duration
    /// A one-shot browse stops resolving after this long, reporting what resolved and a count of
    /// what did not (see `AvahiBrowseSession.Options.resolveBudget`).
    package var resolveBudget: Duration?

    package init(retryInterval: Duration = .seconds(1), resolveBudget: Duration? = nil) {
        self.retryInterval = retryInterval
        self.resolveBudget = resolveBudget
    }

    /// Beacons of `types` in `local.`. Without `watch` the stream ends after `.allForNow`
    /// (or after an error that makes browsing impossible); with it, it runs until cancelled
    /// and reconnects when avahi-daemon comes back.
    package func browse(types: [ServiceType], watch: Bool) -> AsyncStream<DiscoveryEvent> {
        AvahiBrowseSession.events(options: .init(types: types, watch: watch, retryInterval: retryInterval, resolveBudget: resolveBudget))
    }
}
