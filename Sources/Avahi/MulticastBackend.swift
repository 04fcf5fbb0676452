import DNSSD
import Host

/// Browsing `local.` through the system's avahi-daemon (libavahi-client over D-Bus). clawnet
/// never runs an mDNS responder of its own next to Avahi.
package struct MulticastBackend: Sendable {
    package var retryInterval: Duration

    package init(retryInterval: Duration = .seconds(1)) {
        self.retryInterval = retryInterval
    }

    /// Beacons of `types` in `local.`. Without `watch` the stream ends after `.allForNow`
    /// (or after an error that makes browsing impossible); with it, it runs until cancelled
    /// and reconnects when avahi-daemon comes back.
    package func browse(types: [ServiceType], watch: Bool) -> AsyncStream<DiscoveryEvent> {
        AvahiBrowseSession.events(options: .init(types: types, watch: watch, retryInterval: retryInterval))
    }
}
