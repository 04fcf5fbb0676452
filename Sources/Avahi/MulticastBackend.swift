import DNSSD
import Host

/// Browsing `local.` through the system's avahi-daemon (libavahi-client over D-Bus). clawnet
/// never runs an mDNS responder of its own next to Avahi.
public struct MulticastBackend: Sendable {
    public var retryInterval: Duration

    public init(retryInterval: Duration = .seconds(1)) {
        self.retryInterval = retryInterval
    }

    /// Beacons of `types` in `local.`. Without `watch` the stream ends after `.allForNow`
    /// (or after an error that makes browsing impossible); with it, it runs until cancelled
    /// and reconnects when avahi-daemon comes back.
    public func browse(types: [ServiceType], watch: Bool) -> AsyncStream<DiscoveryEvent> {
        AvahiBrowseSession.events(options: .init(types: types, watch: watch, retryInterval: retryInterval))
    }
}
