import Probes

/// The causes of a connect handshake that works only in part: a Gateway still starting after
/// doctor asked again as OpenClaw's clients do (ConnectRetry), and a Gateway on the previous
/// protocol, which nodes and probes reach and current operator clients do not
/// (admitGatewayConnect in src/gateway/server/ws-connection/connect-admission.ts).
extension DiagnosisRules {
    static let handshake: [DiagnosisRule] = [gatewayStarting, gatewayProtocolOlder]

    /// A rule whose cause is one warning of a Gateway's layer, as that check found it.
    static func warning(_ id: DiagnosisID, _ layer: CheckID, _ reasons: Set<CheckReason>) -> DiagnosisRule {
        .gateway(id, warns: [layer: reasons]) { result, _ in
            guard let check = result.check(layer), check.status == .warn, reasons.contains(check.reason) else { return nil }
            let label = result.target.label
            return Diagnosis(id, .check(check, target: label), evidence: [.init(layer, target: label)])
        }
    }

    static let gatewayStarting = warning(.gatewayStarting, .gwConnect, [.gatewayStarting])
    static let gatewayProtocolOlder = warning(.gatewayProtocolOlder, .gwConnect, [.olderProtocol])
}
