/// A Gateway host whose gateway.bind is a host address (0.0.0.0, localhost, ::): OpenClaw 2026.9
/// refuses the config and its Gateway does not start, whatever else is right.
extension DiagnosisRules {
    static let gatewayBindAlias = DiagnosisRule.machine(.gatewayBindAlias, explains: [.openclawConfig: [.bindHostAlias]]) { machine in
        machine.checks.filter { $0.id == .openclawConfig && $0.reason == .bindHostAlias }.prefix(1).map {
            Diagnosis(.gatewayBindAlias, .check($0, target: nil), evidence: [.init(.openclawConfig)])
        }
    }
}

extension DiagnosisID {
    package static let gatewayBindAlias = DiagnosisID(rawValue: "gateway-bind-alias")
}
