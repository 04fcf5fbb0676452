import DNSSD
import Dispatch
import Glibc
import Host
import Synchronization

/// Targets typed by a user (`--manual HOST[:PORT]`, `ws://` and `wss://` URLs): resolved to
/// addresses with the system's resolver (getaddrinfo, so /etc/hosts and nss-mdns count) and
/// reported as beacons with source `manual`.
package struct ManualBackend: Sendable {
    package var lookupTimeout: Duration

    package init(lookupTimeout: Duration = .seconds(3)) {
        self.lookupTimeout = lookupTimeout
    }

    /// Emits a beacon for each target as its name resolves, then `.allForNow`. `defaultTLS`
    /// is what the OpenClaw config says for targets without a scheme.
    package func run(_ targets: [Endpoint], defaultTLS: Bool?, emit: @Sendable (DiscoveryEvent) async -> Void) async {
        let timeout = lookupTimeout
        await withTaskGroup(of: DiscoveryEvent?.self) { group in
            for target in targets {
                group.addTask { await Self.beacon(for: target, defaultTLS: defaultTLS, timeout: timeout) }
            }
            for await event in group { if let event { await emit(event) } }
        }
        await emit(.allForNow)
    }

    static func beacon(for target: Endpoint, defaultTLS: Bool?, timeout: Duration) async -> DiscoveryEvent? {
        guard let instance = try? InstanceName.truncating(target.description) else { return nil }
        var beacon = GatewayBeacon(
            instance: instance, serviceType: .gateway, domain: nil, source: .manual,
            host: target.host, port: target.port, addresses: [], txt: .empty,
            requestedTLS: target.scheme.map { $0 == .wss } ?? defaultTLS)
        if let address = target.address {
            beacon.addresses = [address]
        } else {
            switch await HostLookup.addresses(of: target.host, timeout: timeout) {
            case .success(let addresses): beacon.addresses = addresses
            case .failure(let problem): beacon.discoveryWarnings.append(problem.message)
            }
        }
        return .added(beacon)
    }
}
