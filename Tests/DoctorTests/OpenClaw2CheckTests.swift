import DNSSD
import Foundation
import Testing

@testable import Doctor
@testable import Output
@testable import Probes

/// gw.connect and gw.websocket for what OpenClaw 2 answers (issue 32), judged from recorded
/// answers: each its own reason, cause and fix.
@Suite("gw.connect: OpenClaw 2's answers")
struct OpenClaw2CheckTests {
    func judged(_ outcome: ConnectOutcome) -> (check: Check, causes: [DiagnosisID]) {
        var report = Recorded.healthyReport(Recorded.target())
        report.connect = PhaseTiming(outcome: outcome, elapsed: .milliseconds(3))
        let evidence = Recorded.evidence(report)
        let checks = GatewayChecks.run(evidence)
        let check = checks.first { $0.id == .gwConnect } ?? GatewayChecks.connect(evidence.connect)
        return (check, causes(evidence, checks))
    }

    /// The causes doctor names for this Gateway, on a machine with nothing to say.
    func causes(_ evidence: GatewayEvidence, _ checks: [Check]) -> [DiagnosisID] {
        let machine = MachineResult(checks: [], facts: MachineFacts.gather(RecordedSystem()), discovery: Recorded.discovery(local: false))
        return DiagnosisRules.diagnose(GatewayResult(evidence: evidence, checks: checks), on: machine).map(\.id)
    }

    static func refusal(_ code: String, _ detail: String?, reason: String? = nil, retryAfterMs: Int? = nil) -> ConnectError {
        var error = ConnectError(
            code: code, message: "refused", detailCode: detail, requestId: "req-1", reason: reason, recommendedNextStep: nil,
            canRetryWithDeviceToken: nil, expectedProtocol: nil, clientMinProtocol: 3, clientMaxProtocol: 4, retryAfterMs: retryAfterMs)
        error.retryable = true
        return error
    }

    static let cases: [(String, ConnectOutcome, Check.Status, CheckReason, DiagnosisID, String)] = [
        (
            "restarting", .rejected(refusal("UNAVAILABLE", nil, reason: "gateway-restarting", retryAfterMs: 1000), close: nil), .warn,
            .gatewayRestarting, .gatewayRestarting, "restarting (gateway-restarting)"
        ),
        (
            "close 1012", .closed(CloseFrame(code: 1012, reason: "service restart")), .warn, .gatewayRestarting, .gatewayRestarting,
            "close 1012, service restart"
        ),
        (
            "rate limited", .rejected(refusal("INVALID_REQUEST", "AUTH_RATE_LIMITED", retryAfterMs: 90_000), close: nil), .fail,
            .rateLimited, .authRateLimited, "wait 90 s (retryAfterMs 90000)"
        ),
        (
            "close 1009", .closed(CloseFrame(code: 1009, reason: "Max payload size exceeded")), .fail, .frameTooLargeBeforeLogin,
            .frameTooLarge, "64 KiB"
        ),
        (
            "pairing rejected", .rejected(refusal("NOT_PAIRED", "PAIRING_REJECTED"), close: CloseFrame(code: 4008, reason: "")), .fail,
            .pairingRejected, .pairingRejected, "rejected pairing request req-1"
        ),
        (
            "pairing expired", .rejected(refusal("NOT_PAIRED", "PAIRING_EXPIRED"), close: nil), .fail, .pairingExpired, .pairingExpired,
            "expired unapproved"
        ),
        (
            "operator access denied", .rejected(refusal("NOT_PAIRED", "OPERATOR_ACCESS_DENIED"), close: nil), .fail,
            .operatorAccessDenied, .operatorAccessDenied, "assign this user or device a role"
        ),
        (
            "verified user required", .rejected(refusal("NOT_PAIRED", "AUTH_VERIFIED_USER_REQUIRED"), close: nil), .fail,
            .verifiedUserRequired, .verifiedUserRequired, "trusted proxy or Tailscale Serve"
        ),
        (
            "a Tailscale code without authReason", .rejected(refusal("INVALID_REQUEST", "AUTH_TAILSCALE_WHOIS_FAILED"), close: nil), .fail,
            .tailscaleIdentityRefused, .tailscaleServeIdentity, "AUTH_TAILSCALE_WHOIS_FAILED"
        ),
        (
            "an identity header required", .rejected(refusal("INVALID_REQUEST", "AUTH_IDENTITY_HEADER_REQUIRED"), close: nil), .fail,
            .proxyNotTrusted, .proxyNotTrusted, "AUTH_IDENTITY_HEADER_REQUIRED"
        ),
    ]

    @Test("each OpenClaw 2 answer: its status, reason, cause id, and words that say it", arguments: cases)
    func classified(name: String, outcome: ConnectOutcome, status: Check.Status, reason: CheckReason, cause: DiagnosisID, words: String) {
        let (check, causes) = judged(outcome)
        #expect(check.status == status && check.reason == reason, "\(name): \(check.status) \(check.reason)")
        let text = CheckText(check)
        #expect("\(text.message) \(text.fix ?? "")".contains(words), "\(name): \(text.message) / \(text.fix ?? "")")
        #expect(causes.contains(cause), "\(name): \(causes)")
        if status != .pass { #expect(text.fix?.isEmpty == false, "\(name) has no fix") }
    }

    @Test("a mismatch reads the Gateway's own numbers: its probe floor, build and reload, never a hardcoded version")
    func mismatchNumbers() {
        var error = ConnectError(
            code: "INVALID_REQUEST", message: "protocol mismatch", detailCode: "PROTOCOL_MISMATCH", requestId: nil, reason: nil,
            recommendedNextStep: nil, canRetryWithDeviceToken: nil, expectedProtocol: 6, clientMinProtocol: 3, clientMaxProtocol: 4,
            retryAfterMs: nil)
        error.minimumProbeProtocol = 5
        error.gatewayBuildId = "2027.1.2-abc"
        error.reloadRequired = true
        let message = CheckText(judged(.rejected(error, close: CloseFrame(code: 1002, reason: "protocol mismatch"))).check).message
        for words in ["node is older than its Gateway", "speaks protocol v6 (probes and nodes from v5)", "build 2027.1.2-abc", "reload"] {
            #expect(message.contains(words), "\(words): \(message)")
        }
    }

    @Test("a waiting pairing with a device says what SSH-verified auto-approval needs from this node; the Gateway's hint is shown")
    func sshVerify() {
        var error = Self.refusal("NOT_PAIRED", "PAIRING_REQUIRED", reason: "not-paired")
        error.remediationHint = "Approve this device from the pending pairing requests."
        let device = DeviceIdentity.generate()
        var target = Recorded.target()
        target.credentials = ConnectCredentials(device: device)
        var report = Recorded.healthyReport(target)
        report.connect = PhaseTiming(outcome: .rejected(error, close: nil), elapsed: .milliseconds(3))
        let text = CheckText(GatewayChecks.connect(Recorded.evidence(report).connect))
        #expect(text.message.contains("(the Gateway says: Approve this device from the pending pairing requests.)"), "\(text.message)")
        #expect(text.fix?.contains("gateway.nodes.pairing.sshVerify") == true, "\(text.fix ?? "")")
        #expect(text.fix?.contains("`openclaw node identity --json` here must print device \(device.deviceId.prefix(12))") == true)
    }

    @Test("#55294: HTTP 503 \"Too many unauthenticated sockets\" on the upgrade is its own cause")
    func unauthenticatedLimit() {
        var report = Recorded.healthyReport(Recorded.target())
        report.websocket = PhaseTiming(
            outcome: .upgradeRefused(
                UpgradeRejection(status: 503, location: nil, retryAfter: nil, body: "Too many unauthenticated sockets")),
            elapsed: .milliseconds(2))
        report.connect = nil
        let evidence = Recorded.evidence(report)
        let checks = GatewayChecks.run(evidence)
        let webSocket = checks.first { $0.id == .gwWebSocket }
        #expect(webSocket?.status == .fail && webSocket?.reason == .unauthenticatedLimit)
        #expect(causes(evidence, checks) == [.unauthenticatedLimit], "\(causes(evidence, checks))")
    }
}
