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

    /// Nothing in local., in a container or WSL2: the network it sees is its own bridge.
    static let containerMulticast = DiagnosisRule.machine(.containerMulticast) { machine in
        let facts = machine.facts
        // On a Gateway host the container already switched advertising off: gatewayNotAdvertising says so.
        guard facts.platform.isContained, facts.advertisingOff == nil, machine.discovery.localIsEmptyThoughUsable(facts),
            !machine.mdnsFailed
        else { return [] }
        return [Diagnosis(.containerMulticast, .contained(facts.platform), evidence: [.init(.mdnsBrowse), .init(.openclawAdvertising)])]
    }
}

extension PlatformFacts {
    /// A container or WSL2: multicast from here reaches a virtual bridge, not the LAN.
    public var isContained: Bool { container != nil || wsl2 }
}
