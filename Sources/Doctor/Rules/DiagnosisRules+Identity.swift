/// The causes of a node that keeps asking to pair ("approved, but still asks", "the requestId
/// changes on every try"): its device identity as OpenClaw's node host keeps it.
extension DiagnosisRules {
    static let identity: [DiagnosisRule] = [deviceIdentityUnstable, deviceIdentityElsewhere]

    /// A file the node host cannot use: a new key at every start, so a new pairing request at
    /// every start. (None yet is only a warning: the node host's first start makes one.)
    static let deviceIdentityUnstable = DiagnosisRule.machine(
        .deviceIdentityUnstable, explains: [.openclawIdentity: [.identityInvalid, .identityUnreadable]]
    ) { machine in
        machine.checks.filter { $0.id == .openclawIdentity && [.identityInvalid, .identityUnreadable].contains($0.reason) }
            .prefix(1).map { Diagnosis(.deviceIdentityUnstable, .check($0, target: nil), evidence: [.init(.openclawIdentity)]) }
    }

    /// Several ways of starting the node read different identities (the user's, sudo's, a
    /// systemd unit's): the Gateway sees several devices, and approving one leaves the others asking.
    static let deviceIdentityElsewhere = DiagnosisRule.machine(.deviceIdentityElsewhere, warns: [.openclawIdentity: [.identityElsewhere]]) {
        machine in
        machine.checks.filter { $0.id == .openclawIdentity && $0.reason == .identityElsewhere }.prefix(1).map {
            Diagnosis(.deviceIdentityElsewhere, .check($0, target: nil), evidence: [.init(.openclawIdentity)])
        }
    }
}
