import Probes

/// openclaw.identity: whether the node on this machine shows the Gateway one device, every
/// time. OpenClaw's node host (src/infra/device-identity.ts loadOrCreateDeviceIdentity) uses a
/// new key at every start when its file cannot be read or does not hold a key pair, writes a
/// new one where none is, and each way of starting it (the user, sudo, a systemd unit) reads
/// its own state dir: a pairing approved for one device leaves the others asking.
extension MachineChecks {
    static func identity(_ facts: MachineFacts) -> Check {
        let files = facts.identities
        let isNode = facts.isNode || files.contains { $0.readers.contains(.asDevice) || $0.readers.contains(where: \.isService) }
        let evidence = CheckEvidence.identity(IdentityEvidence(files: files, isNode: isNode))
        guard isNode else { return Check(.openclawIdentity, .skip, .notNode, evidence: evidence) }
        guard let verdict = verdict(IdentityEvidence(files: files, isNode: isNode)) else {
            return Check(.openclawIdentity, .skip, .identityNotRead, evidence: evidence)
        }
        return Check(.openclawIdentity, verdict.status, verdict.reason, evidence: evidence)
    }

    /// The worst of the files: one the node host cannot use fails; several devices, a first
    /// identity still to be made, or a key others may read are warnings.
    static func verdict(_ evidence: IdentityEvidence) -> (status: Check.Status, reason: CheckReason)? {
        guard let primary = evidence.primary else { return nil }
        let files = evidence.files
        if files.contains(where: \.invalid) { return (.fail, .identityInvalid) }
        if files.contains(where: \.unreadable) { return (.fail, .identityUnreadable) }
        if evidence.distinctDevices > 1 { return (.warn, .identityElsewhere) }
        if primary.state == .missing || primary.state == .notIdentity { return (.warn, .identityMissing) }
        if files.contains(where: \.exposed) { return (.warn, .identityExposed) }
        return (.pass, .ok)
    }
}

extension IdentityReader {
    var isService: Bool {
        if case .service = self { return true }
        return false
    }
}
