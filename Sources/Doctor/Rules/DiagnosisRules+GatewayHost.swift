import DNSSD
import Host

/// The Gateway host itself: its Gateway in a restart loop (systemd's count and last exit status,
/// and the journal lines that name OpenClaw's own mDNS advertiser), and a machine in a container
/// or WSL2 whose multicast reaches a bridge, not the LAN (extensions/bonjour/src/advertiser.ts
/// turns advertising off in detected containers for that reason).
extension DiagnosisRules {
    static let gatewayRestartLoop = DiagnosisRule.machine(.gatewayRestartLoop) { machine in
        machine.checks.filter { $0.id == .openclawConfig && $0.reason == .restartLoop }.prefix(1).map {
            Diagnosis(.gatewayRestartLoop, .check($0, target: nil), evidence: [.init(.openclawConfig)])
        }
    }

    /// Nothing in local., in a container or WSL2 whose interfaces are on a virtual bridge.
    static let containerMulticast = DiagnosisRule.machine(.containerMulticast) { machine in
        let facts = machine.facts
        // On a Gateway host the container already switched advertising off: gatewayNotAdvertising says so.
        guard facts.onContainerBridge, facts.advertisingOff == nil, machine.discovery.localIsEmptyThoughUsable(facts),
            !machine.mdnsFailed
        else { return [] }
        return [Diagnosis(.containerMulticast, .contained(facts.platform), evidence: [.init(.mdnsBrowse), .init(.openclawAdvertising)])]
    }
}

extension PlatformFacts {
    /// A container or WSL2.
    package var isContained: Bool { container != nil || wsl2 }
}

extension MachineFacts {
    /// The default networks of container bridges: Docker's pools (172.17.0.0/16 on, inside
    /// 172.16.0.0/12, where WSL2's NAT network lives too), podman's 10.88.0.0/16, LXC's lxcbr0
    /// 10.0.3.0/24. A container with host networking, or on a macvlan, has LAN addresses instead.
    static let bridgeNetworks = ["172.16.0.0/12", "10.88.0.0/16", "10.0.3.0/24"].compactMap(IPNetwork.init)

    /// In a container or WSL2, and every multicast interface's IPv4 address on a default bridge
    /// network: multicast from here stays on that bridge. A container marker alone says nothing
    /// of its network (the test bed itself runs in one, its namespaces on their own LAN).
    var onContainerBridge: Bool {
        let addresses = multicastInterfaces.flatMap(\.addresses).filter { $0.family == .v4 }
        return platform.isContained && !addresses.isEmpty
            && addresses.allSatisfy { address in Self.bridgeNetworks.contains { $0.contains(address) } }
    }
}
