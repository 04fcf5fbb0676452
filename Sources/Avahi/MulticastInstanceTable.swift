import DNSSD
import Host

/// One (interface, protocol) pair Avahi reports an instance on. Avahi reports each instance
/// once per pair, and resolves each on its own.
struct AvahiLink: Hashable, Sendable, Comparable {
    var interface: Int32
    var protocolFamily: Int32

    static func < (lhs: AvahiLink, rhs: AvahiLink) -> Bool {
        (lhs.interface, lhs.protocolFamily) < (rhs.interface, rhs.protocolFamily)
    }
}

/// What one resolve on one link returned.
struct AvahiResolution: Equatable, Sendable {
    var host: String
    var port: Int
    var address: IPAddress?
    var txt: TXTRecord
    var interfaceName: String?
}

struct MulticastInstanceKey: Hashable, Sendable {
    var type: ServiceType
    var domain: DomainName
    var name: InstanceName
}

/// The merge logic of the multicast backend, free of I/O so it can be tested with recorded
/// answers: Avahi's per-link browse and resolve results in, one DiscoveryEvent per change of an
/// instance out. IPv4 and IPv6 addresses and interfaces of one instance are merged.
struct MulticastInstanceTable {
    enum LinkState: Equatable {
        case pending
        case resolved(AvahiResolution, sequence: Int)
        /// Resolved once, then the resolver failed (a record changed and its replacement was
        /// late): the old answer stands while a new resolver tries again.
        case stale(AvahiResolution, sequence: Int)
        case failed
    }

    private struct Entry {
        var links: [AvahiLink: LinkState] = [:]
        var published: GatewayBeacon?
    }

    private var entries: [MulticastInstanceKey: Entry] = [:]
    private var sequence = 0

    /// Avahi reported the instance on a link. True when the link is new and needs a resolver.
    mutating func itemNew(_ key: MulticastInstanceKey, on link: AvahiLink) -> Bool {
        if entries[key]?.links[link] != nil { return false }
        entries[key, default: Entry()].links[link] = .pending
        return true
    }

    mutating func resolved(_ key: MulticastInstanceKey, on link: AvahiLink, _ resolution: AvahiResolution) -> DiscoveryEvent? {
        guard let state = entries[key]?.links[link], state != .failed else { return nil }
        sequence += 1
        entries[key]?.links[link] = .resolved(resolution, sequence: sequence)
        return publish(key)
    }

    /// A resolve on one link failed; other links of the instance may still resolve. Returns
    /// true when the link had an answer before: then it is worth resolving once more.
    @discardableResult
    mutating func resolveFailed(_ key: MulticastInstanceKey, on link: AvahiLink) -> Bool {
        switch entries[key]?.links[link] {
        case .pending:
            entries[key]?.links[link] = .failed
            return false
        case .resolved(let resolution, let sequence):
            entries[key]?.links[link] = .stale(resolution, sequence: sequence)
            return true
        default:
            return false
        }
    }

    /// Avahi withdrew the instance on a link (a goodbye, or the cache entry expired).
    mutating func itemRemoved(_ key: MulticastInstanceKey, on link: AvahiLink) -> DiscoveryEvent? {
        guard entries[key]?.links.removeValue(forKey: link) != nil else { return nil }
        if entries[key]!.links.isEmpty {
            let published = entries.removeValue(forKey: key)?.published
            return published.map { .removed($0) }
        }
        return publish(key)
    }

    /// The daemon connection was lost: every link is gone, but what was published stays until
    /// the daemon is back and can say whether it still exists (see `unconfirmed`).
    mutating func dropAllLinks() {
        for key in entries.keys { entries[key]?.links.removeAll() }
        entries = entries.filter { $0.value.published != nil }
    }

    /// Published before a reconnect and not reported again since.
    var unconfirmed: [MulticastInstanceKey] {
        entries.filter { $0.value.links.isEmpty && $0.value.published != nil }.map(\.key)
    }

    /// Remove `key` if it is still unconfirmed (a resolve of it failed).
    mutating func removeIfUnconfirmed(_ key: MulticastInstanceKey) -> DiscoveryEvent? {
        guard let entry = entries[key], entry.links.isEmpty else { return nil }
        entries.removeValue(forKey: key)
        return entry.published.map(DiscoveryEvent.removed)
    }

    /// True while the link has no resolver's answer that is current: pending or stale.
    func wantsResolver(_ key: MulticastInstanceKey, on link: AvahiLink) -> Bool {
        switch entries[key]?.links[link] {
        case .pending, .stale: true
        default: false
        }
    }

    /// Links whose resolve has not finished yet.
    var pendingCount: Int {
        entries.values.reduce(0) { $0 + $1.links.values.filter { $0 == .pending }.count }
    }

    /// How many instances of `type` Avahi currently reports (what is kept from before a
    /// reconnect does not count).
    func count(of type: ServiceType) -> Int {
        entries.filter { $0.key.type == type && !$0.value.links.isEmpty }.count
    }

    var publishedBeacons: [GatewayBeacon] { entries.values.compactMap(\.published) }

    /// Instances Avahi reports that no resolve has answered for yet: every link failed, was
    /// never tried, or is still resolving.
    var unresolved: [MulticastInstanceKey] {
        entries.filter { !$0.value.links.isEmpty && $0.value.published == nil }.map(\.key)
    }

    /// Recompute the beacon of `key` and report it when it changed. A new instance is reported
    /// at its first resolve (the first beacon comes fast); a known one only once none of its
    /// links is still resolving, so a reconnect or a second address family does not show a
    /// half-resolved beacon in between.
    private mutating func publish(_ key: MulticastInstanceKey) -> DiscoveryEvent? {
        guard let entry = entries[key], let beacon = Self.beacon(for: key, links: entry.links) else { return nil }
        let previous = entry.published
        if previous != nil, entry.links.values.contains(.pending) { return nil }
        guard previous != beacon else { return nil }
        entries[key]?.published = beacon
        return previous == nil ? .added(beacon) : .updated(beacon)
    }

    /// One beacon from all resolved links: host, port and TXT from the newest resolve (they
    /// agree unless the service just changed), addresses and interfaces from all of them.
    static func beacon(for key: MulticastInstanceKey, links: [AvahiLink: LinkState]) -> GatewayBeacon? {
        var resolutions: [(AvahiResolution, Int)] = []
        for state in links.values {
            switch state {
            case .resolved(let resolution, let sequence), .stale(let resolution, let sequence):
                resolutions.append((resolution, sequence))
            default:
                break
            }
        }
        guard let newest = resolutions.max(by: { $0.1 < $1.1 })?.0 else { return nil }
        return GatewayBeacon(
            instance: key.name, serviceType: key.type, domain: key.domain, source: .mdns,
            interfaces: resolutions.compactMap(\.0.interfaceName), host: newest.host, port: newest.port,
            addresses: resolutions.compactMap(\.0.address), txt: newest.txt
        )
    }
}
