import Avahi
import DNSSD
import Host

/// Whether a Gateway's host is this machine (one of its addresses, or its mDNS host name), and
/// what 127.0.0.1 said on the Gateway's port: on its own host, doctor tells a Gateway that binds
/// loopback (127.0.0.1 answers) from one that is not running (it does not).
package enum GatewayHost: Sendable, Equatable {
    case elsewhere
    /// `loopback`: 127.0.0.1 answered on the port (nil: not asked); `service`: its systemd unit.
    case here(loopback: Bool?, service: GatewayService?)

    /// This machine's own addresses (loopback aside) and its mDNS host name (lower case, no dot).
    struct Own: Sendable {
        var addresses: Set<IPAddress> = []
        var names: Set<String> = []

        init() {}

        init(_ facts: MachineFacts) {
            addresses = Set(facts.interfaces.flatMap(\.addresses).filter { !$0.isLoopback }.map(\.withoutZone))
            if case .running(_, let hostName) = facts.avahi { names = [BeaconHost(hostName).key] }
        }

        func owns(host: String, addresses targets: [IPAddress]) -> Bool {
            names.contains(BeaconHost(host).key) || targets.contains { addresses.contains($0.withoutZone) }
        }
    }
}
