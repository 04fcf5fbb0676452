/// The cause discovery.phones names: a discovered Gateway an OpenClaw phone would refuse
/// (PhonesEvidence), the report of openclaw#99031.
extension DiagnosisRules {
    static let phones: [DiagnosisRule] = [phoneRefuses]

    static let phoneRefuses = DiagnosisRule.machine(.phoneRefuses, warns: [.discoveryPhones: [.phoneRefuses]]) { machine in
        machine.checks.filter { $0.id == .discoveryPhones && $0.status == .warn && $0.reason == .phoneRefuses }.prefix(1).map {
            Diagnosis(.phoneRefuses, .check($0, target: nil), evidence: [.init(.discoveryPhones)])
        }
    }
}
