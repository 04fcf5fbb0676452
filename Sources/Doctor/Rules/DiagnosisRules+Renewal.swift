import Probes

/// A certificate renewed under a running Gateway (issue 32 case 6): since 2026.9 it reloads the
/// new certificate and republishes its fingerprint in its own beacon. A pin that fails while a
/// beacon of the Gateway advertises the certificate it presents is a renewal, not an
/// interception; a record that kept the old fingerprint is stale, on the one Gateway it names.
extension DiagnosisRules {
    static let renewals: [DiagnosisRule] = [certificateRenewed, staleFingerprintRecord]

    static let certificateRenewed = DiagnosisRule.gateway(
        .certificateRenewed, explains: [.gwPin: [.pinMismatch], .gwConnect: [.withheldPinMismatch]]
    ) { result, _ in
        guard let check = result.failing(.gwPin, [.pinMismatch]), case .pin(let pin) = check.evidence, pin.renewalAdvertised
        else { return nil }
        let label = result.target.label
        let withheld = result.failing(.gwConnect, [.withheldPinMismatch]) != nil
        let evidence = [CheckID.gwPin] + (withheld ? [.gwConnect] : [])
        return Diagnosis(
            .certificateRenewed, .certificateRenewed(target: label, pin: pin), evidence: evidence.map { .init($0, target: label) })
    }

    /// gw.pin failing for the record a probe was made from, or warning for another path's.
    static let staleFingerprintRecord = DiagnosisRule.gateway(
        .staleFingerprintRecord, explains: [.gwPin: [.advertisedMismatch]], warns: [.gwPin: [.recordStale, .advertisedStale]]
    ) { result, _ in
        guard let check = result.check(.gwPin), [.advertisedMismatch, .recordStale, .advertisedStale].contains(check.reason),
            case .pin(let pin) = check.evidence, !pin.staleRecords.isEmpty
        else { return nil }
        let label = result.target.label
        return Diagnosis(
            .staleFingerprintRecord,
            .staleFingerprintRecord(target: label, stale: pin.staleRecords, observed: pin.observed, confirmed: pin.renewalAdvertised),
            evidence: [.init(.gwPin, target: label)])
    }
}
