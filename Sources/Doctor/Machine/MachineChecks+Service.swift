import Host

/// openclaw.config on a Gateway host, once more: systemd restarting its Gateway over and over
/// outweighs what the config says (the crash class users report, #71879 and the like).
extension MachineChecks {
    static func service(_ check: Check, _ facts: MachineFacts) -> Check {
        guard facts.isGatewayHost, let service = facts.gatewayService, case .config(var evidence) = check.evidence else { return check }
        evidence.service = service
        guard service.looping else {
            return Check(check.id, check.status, check.reason, elapsed: check.elapsed, evidence: .config(evidence))
        }
        return Check(.openclawConfig, .warn, .restartLoop, evidence: .config(evidence))
    }
}
