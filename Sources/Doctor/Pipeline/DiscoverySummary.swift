import Avahi
import DNSSD

/// What discovery found, as doctor needs it.
package struct DiscoverySummary: Sendable {
    package var localBrowsed: Bool
    package var domains: [DomainName]
    package var beacons: [GatewayBeacon]
    package var issues: [DiscoveryIssue]
    /// The DNS servers given with --server for the wide-area domains (empty: the system's).
    package var askedServers: [DNSServer] = []

    /// When nothing answered in local.: whether the hosts of Gateways found another way
    /// answer mDNS (reverse lookups of their LAN addresses through Avahi).
    package var hostAnswers: [HostAnswer]
    /// The `.local` names of Gateways (a TARGET, the node's gateway.remote.url) that no host
    /// answered by mDNS in time.
    package var unansweredLocalNames: [String] = []

    package init(
        localBrowsed: Bool, domains: [DomainName], beacons: [GatewayBeacon], issues: [DiscoveryIssue], hostAnswers: [HostAnswer] = []
    ) {
        self.localBrowsed = localBrowsed
        self.domains = domains
        self.beacons = beacons
        self.issues = issues
        self.hostAnswers = hostAnswers
    }

    var localBeacons: [GatewayBeacon] { beacons.filter { $0.sources.contains(.mdns) } }

    /// mDNS could be asked (local. was browsed, avahi-daemon runs) and no Gateway answered in
    /// local.: the one statement of it, from which the probe stage asks the Gateways' hosts
    /// why, mdns.browse warns, and the rules look for the cause.
    func localIsEmptyThoughUsable(_ facts: MachineFacts) -> Bool {
        localBrowsed && facts.avahiRunning && localBeacons.isEmpty
    }
}

/// Does a Gateway's host, found by DNS-SD or named by the user, answer mDNS from here?
package struct HostAnswer: Sendable, Hashable {
    package let address: IPAddress
    /// The Gateway that lives there, as doctor labels it.
    package let gateway: String
    package let answer: AvahiAddressLookup.Answer
    /// Its Gateway refused every connection (nothing listens on its port): a stopped Gateway.
    package var gatewayStopped = false

    package init(address: IPAddress, gateway: String, answer: AvahiAddressLookup.Answer) {
        self.address = address
        self.gateway = gateway
        self.answer = answer
    }

    package var name: String? {
        if case .name(let name) = answer { return name }
        return nil
    }
}
