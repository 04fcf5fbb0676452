import DNSSD

/// What this machine knows of a tailnet: the ranges its addresses come from and whether it
/// is on one. Tailscale's defaults are 100.64.0.0/10 and fd7a:115c:a1e0::/48, but Headscale
/// and custom setups hand out other ranges, so the interface decides too: the subnets of
/// `tailscale0`'s addresses, and routes that leave through it.
package struct Tailnet: Sendable, Equatable {
    /// Up Tailscale interfaces with an address.
    package let interfaces: [String]
    /// This machine's tailnet addresses.
    package let addresses: [IPAddress]
    /// Where tailnet addresses live, as far as this machine can tell.
    package let ranges: [IPNetwork]

    package init(interfaces: [NetworkInterface], routes: [Route]) {
        let tailscale = interfaces.filter { $0.isTailscale }
        self.interfaces = tailscale.filter { $0.isUp && !$0.addresses.isEmpty }.map(\.name)
        self.addresses = NetworkInterface.tailscaleAddresses(interfaces)
        let names = Set(tailscale.map(\.name))
        var ranges = IPNetwork.tailscaleDefaults
        for network in tailscale.flatMap(\.networks) + routes.filter({ names.contains($0.interface) }).map(\.network)
        where !network.isDefault && !network.address.isLinkLocal && !ranges.contains(network) {
            ranges.append(network)
        }
        self.ranges = ranges
    }

    /// On a tailnet: an up Tailscale interface, or an address in Tailscale's ranges.
    package var isJoined: Bool { !addresses.isEmpty }

    package func contains(_ address: IPAddress) -> Bool {
        if address.isTailscale { return true }
        return ranges.contains { $0.contains(address.withoutZone) }
    }
}
