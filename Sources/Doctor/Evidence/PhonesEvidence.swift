import DNSSD

/// discovery.phones: what OpenClaw's phone nodes would do with each discovered beacon (each
/// path's sighting of each Gateway), on a first connect; `PhoneVerdicts` follows the apps.
package struct PhonesEvidence: Sendable, Equatable {
    package struct Beacon: Sendable, Equatable {
        package let name: String
        package let android: PhoneVerdict
        package let ios: PhoneVerdict
        package var refused: Bool { android.isRefused || ios.isRefused }
    }

    package let beacons: [Beacon]

    /// `beacons` as discovery merged them: a phone sees each path's beacon apart.
    package init(beacons: [GatewayBeacon]) {
        let discovered = beacons.flatMap { $0.sightings.isEmpty ? [$0] : $0.sightings }.filter { !$0.isManualOnly }
        self.beacons = discovered.map { beacon in
            let verdicts = beacon.phones
            return Beacon(name: beacon.instance.displayName, android: verdicts.android, ios: verdicts.ios)
        }
    }
}

extension MachineChecks {
    /// A warning when a phone would refuse a discovered Gateway.
    static func phones(_ discovery: DiscoverySummary) -> Check {
        let evidence = PhonesEvidence(beacons: discovery.beacons.filter { $0.sources != [.manual] })
        let wrapped = CheckEvidence.phones(evidence)
        guard !evidence.beacons.isEmpty else { return Check(.discoveryPhones, .skip, .noGatewaysSeen, evidence: wrapped) }
        if evidence.beacons.contains(where: \.refused) { return Check(.discoveryPhones, .warn, .phoneRefuses, evidence: wrapped) }
        return Check(.discoveryPhones, .pass, .ok, evidence: wrapped)
    }
}
