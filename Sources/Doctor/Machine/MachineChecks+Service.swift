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

/// openclaw.config on a Gateway host whose gateway.bind is tailnet or custom: a 2026.9 Gateway
/// listens on 127.0.0.1:PORT too and does not start when it cannot (the OpenClaw 2 notes), so
/// nothing answering there is a Gateway that is not running as configured.
extension MachineChecks {
    static func loopback(_ check: Check, _ facts: MachineFacts) -> Check {
        guard check.status == .pass, facts.isGatewayHost, facts.loopbackListener == false else { return check }
        return Check(.openclawConfig, .warn, .loopbackListenerMissing, evidence: check.evidence)
    }
}
