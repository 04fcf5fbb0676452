import DNSSD

/// What happened to an advertisement.
package enum AdvertiseEvent: Sendable, Equatable {
    /// The service is on the network under this name.
    case established(name: String)
    /// The name was taken; Avahi's alternative is tried next.
    case renamed(from: String, to: String)
    /// Avahi cannot publish (or lost the daemon); in the latter case it publishes again when
    /// the daemon is back.
    case failed(DiscoveryIssue)
}

/// Publishing a beacon in `local.` through avahi-daemon.
package struct MulticastAdvertiser: Sendable {
    package init() {}

    package func advertise(name: String, type: ServiceType, port: Int, txt: TXTRecord) -> AsyncStream<AdvertiseEvent> {
        AvahiPublishSession.events(service: .init(name: name, type: type, port: port, txt: txt))
    }
}
