import DNSSD
import Doctor
import FoundationEssentials
import Probes

/// What one probe of one Gateway says, as watch keeps it: doctor's judgement of every layer
/// (its checks, from the same evidence, and its diagnoses, from its rules) reduced to the facts
/// that change over time.
package struct ProbeVerdict: Sendable, Equatable {
    /// The first check that failed and the diagnosis doctor gives for it; nil when the Gateway is up.
    package var failure: Failure?
    /// Every diagnosis doctor gave for this Gateway in this probe (counted in the metrics).
    package var diagnoses: [DiagnosisID] = []
    package var fingerprint: TLSFingerprint?
    package var notAfter: Date?
    /// What this node pins the Gateway to (gateway.remote.tlsFingerprint), when it does.
    package var pin: TLSFingerprint?
    /// The Gateway's beacons advertise the certificate it presents (nil: none advertises one).
    package var beaconAgrees: Bool?
    /// The protocol version the Gateway answered with (hello-ok, or the one a refusal expects).
    package var protocolVersion: Int?
    package var serverVersion: String?
    /// The address TCP connected to (of every address tried, the one that answered).
    package var address: IPAddress?
    /// How long each layer took, by check id (gw.tcp, gw.tls, gw.http, gw.websocket, gw.connect).
    package var durations: [CheckID: Duration] = [:]
    /// How long the Gateway locked this address out (AUTH_RATE_LIMITED's retryAfterMs): no
    /// probe before then, another try would only extend the lockout.
    package var lockedOutFor: Duration?
    /// Why the probe could not run on this machine (no descriptor or socket memory left): no
    /// verdict at all, the Gateway keeps the health it had and is probed again soon.
    package var localShortage: String?

    /// In doctor's words: the failing check's id, the diagnosis's id, and the diagnosis itself.
    package struct Failure: Sendable, Equatable {
        package let check: CheckID
        package let diagnosis: DiagnosisID
        /// Doctor's finding, for the words of its cause and fix.
        package var finding: Diagnosis?

        package init(check: CheckID, diagnosis: DiagnosisID, finding: Diagnosis? = nil) {
            self.check = check
            self.diagnosis = diagnosis
            self.finding = finding
        }
    }

    package init(failure: Failure? = nil) {
        self.failure = failure
    }

    package var isUp: Bool { failure == nil && localShortage == nil }

    /// The probe said something of the Gateway (it was not cut short on this machine).
    package var isJudged: Bool { localShortage == nil }

    /// Judges `report` as doctor does (`GatewayJudgement`, from this machine's facts), then
    /// names its causes with `DiagnosisRules`; only this Gateway's diagnoses are kept.
    /// `machineCauses`: the machine's own, `DiagnosisRules.diagnose(machine)`, found once for
    /// every probe.
    package static func judge(
        _ report: ProbeReport, beacon: GatewayBeacon?, pin: Pin?, machine: MachineResult, machineCauses: [Diagnosis], budget: Duration,
        now: Date
    ) -> ProbeVerdict {
        if let shortage = report.localShortage {
            var verdict = ProbeVerdict()
            verdict.localShortage = shortage
            return verdict
        }
        let judgement = GatewayJudgement(facts: machine.facts, discovery: machine.discovery, budget: budget, now: now)
        let result = judgement.judge(report, beacon: beacon, pin: pin)
        let checks = result.checks
        let label = report.target.label
        let diagnoses = (machineCauses + DiagnosisRules.diagnose(result, on: machine))
            .filter { diagnosis in diagnosis.evidence.contains { $0.target == label } }
        var verdict = ProbeVerdict()
        verdict.diagnoses = diagnoses.map(\.id)
        if let failed = checks.first(where: { $0.status == .fail }) {
            let named = diagnoses.first { $0.evidence.contains { $0.check == failed.id } } ?? diagnoses.first
            verdict.failure = Failure(check: failed.id, diagnosis: named?.id ?? .checkFailed, finding: named)
        }
        verdict.fingerprint = report.tlsFacts?.fingerprint
        verdict.notAfter = report.tlsFacts?.certificate?.notAfter
        verdict.pin = pin?.fingerprint
        if let evidence = result.evidence.pin, !evidence.records.isEmpty { verdict.beaconAgrees = evidence.renewalAdvertised }
        verdict.address = report.connectedAddress
        (verdict.protocolVersion, verdict.serverVersion) = versions(report.connect?.outcome)
        if case .rejected(let error, _)? = report.connect?.outcome, error.detailCode == .authRateLimited {
            verdict.lockedOutFor = .milliseconds(min(max(error.retryAfterMs ?? 0, 0), 3_600_000))
        }
        for check in checks where check.status != .skip && check.id != .gwDNS {
            verdict.durations[check.id] = check.elapsed
        }
        return verdict
    }

    /// The protocol and server version a connect answer shows.
    static func versions(_ outcome: ConnectOutcome?) -> (Int?, String?) {
        switch outcome {
        case .helloOk(let hello)?: (hello.protocolVersion, hello.serverVersion)
        case .rejected(let error, _)?: (error.expectedProtocol, nil)
        default: (nil, nil)
        }
    }
}
