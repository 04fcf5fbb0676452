/// The causes discovery.gateways names (GatewaysEvidence): a beacon whose TXT contradicts its
/// SRV, a host name two machines claim, one Gateway advertised under several names, several
/// distinct Gateways (OpenClaw's `multiple_gateways`).
extension DiagnosisRules {
    static let sightings: [DiagnosisRule] = [
        sighting(.beaconDisagrees, .txtDisagreesWithSRV), sighting(.hostNameCollision, .hostNameCollision),
        sighting(.gatewayAdvertisedTwice, .advertisedTwice), sighting(.multipleGateways, .multipleGateways),
    ]

    /// The warning of discovery.gateways with `reason`, as its cause.
    static func sighting(_ id: DiagnosisID, _ reason: CheckReason) -> DiagnosisRule {
        .machine(id, warns: [.discoveryGateways: [reason]]) { machine in
            machine.checks.filter { $0.id == .discoveryGateways && $0.status == .warn && $0.reason == reason }.prefix(1).map {
                Diagnosis(id, .check($0, target: nil), evidence: [.init(.discoveryGateways)])
            }
        }
    }
}
