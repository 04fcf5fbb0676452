import DNSSD
import Foundation
import Testing

@testable import Doctor
@testable import Output
@testable import Probes

/// gw.connect when credentials were withheld or sent, and the diagnosis of a pin that did not
/// match on the connection that would have carried them. Recorded facts only.
@Suite("gw.connect: credentials withheld or sent")
struct CredentialCheckTests {
    static let token = GatewayToken("hunter2-planted", source: "--token-file /t")!
    static let deviceRequired = ConnectOutcome.rejected(
        ConnectError(
            code: "NOT_PAIRED", message: "device identity required", detailCode: "DEVICE_IDENTITY_REQUIRED", requestId: nil, reason: nil,
            recommendedNextStep: nil, canRetryWithDeviceToken: nil, expectedProtocol: nil, clientMinProtocol: nil, clientMaxProtocol: nil,
            retryAfterMs: nil), close: nil)

    func connect(_ report: ProbeReport) -> Check {
        GatewayChecks.connect(Recorded.evidence(report).connect)
    }

    func report(_ decision: CredentialDecision?, outcome: ConnectOutcome = deviceRequired) -> ProbeReport {
        var target = Recorded.target()
        target.credentials = ConnectCredentials(token: Self.token)
        var report = Recorded.healthyReport(target)
        report.connect = PhaseTiming(outcome: outcome, elapsed: .milliseconds(3))
        report.credentials = decision
        return report
    }

    static let cases: [(String, CredentialDecision.Withheld, Check.Status, CheckReason, String)] = [
        (
            "pin mismatch", .pinMismatch(expected: Recorded.otherSHA, observed: Recorded.certificateSHA), .fail, .withheldPinMismatch,
            "observed \(Recorded.certificateSHA.hex)"
        ),
        (
            "self-signed, unpinned", .unverifiedCertificate(observed: Recorded.certificateSHA, chain: .selfSigned), .warn,
            .withheldUnverified, "--pin sha256:\(Recorded.certificateSHA.hex)"
        ),
        ("plain ws:// to the Internet", .plainText(host: "203.0.113.1"), .warn, .withheldPlainText, "clear text"),
        ("a pin on ws://", .pinWithoutTLS(expected: Recorded.otherSHA), .warn, .withheldPlainText, "wss://"),
        ("a listener run by nobody", .foreignLocalListener(owner: 65534), .warn, .withheldLocalListener, "uid 65534"),
        ("a listener whose owner is unknown", .foreignLocalListener(owner: nil), .warn, .withheldLocalListener, "could not tell"),
    ]

    @Test("withheld: the status and reason of the case, why in words, the Gateway's answer without them, a fix", arguments: cases)
    func withheld(name: String, withheld: CredentialDecision.Withheld, status: Check.Status, reason: CheckReason, words: String) {
        let check = connect(report(.withhold(withheld)))
        #expect(check.status == status && check.reason == reason, "\(name): \(check.status) \(check.reason)")
        let text = check.message + " " + (check.fix ?? "")
        #expect(text.contains(words), "\(name): \(text)")
        #expect(check.message.hasPrefix("the token from --token-file /t not sent: "), "\(name): \(check.message)")
        #expect(check.message.contains("without it: answers connect"), "\(name): \(check.message)")
        #expect(check.fix?.isEmpty == false && check.detail["credentials"] == "withheld")
        #expect(!text.contains("hunter2"), "\(name): the token itself")
    }

    @Test("withheld, and the Gateway refused the bare request for its own reason: that reason stays, the note is added")
    func ownFailureStays() {
        let closed = ConnectOutcome.closed(CloseFrame(code: 1008, reason: "invalid request frame"))
        let check = connect(report(.withhold(.plainText(host: "gw.example")), outcome: closed))
        #expect(check.status == .fail && check.reason == .closedByGateway, "\(check.reason)")
        #expect(check.message.contains("not sent: plain ws:// to gw.example"), "\(check.message)")
    }

    @Test("sent: the message says what verified the peer; no decision (nothing to send) changes nothing")
    func sent() {
        let hello = ConnectOutcome.helloOk(HelloOk(protocolVersion: 4, serverVersion: "x", role: "operator", scopes: []))
        let pinned = connect(report(.send(.pinned), outcome: hello))
        #expect(pinned.status == .pass && pinned.message.contains("sent: the certificate matches the pin"), "\(pinned.message)")
        #expect(pinned.detail["credentials"] == "sent")
        let local = connect(report(.send(.localListener(owner: 0)), outcome: hello))
        #expect(local.message.contains("run by root"), "\(local.message)")
        let none = connect(report(nil, outcome: hello))
        #expect(none.detail["credentials"] == nil && none.status == .pass)
    }

    @Test("a pin mismatch on the connect connection is part of pin-changed; alone (the first connection matched) it is its own")
    func diagnosis() {
        let withheld = report(.withhold(.pinMismatch(expected: Recorded.otherSHA, observed: Recorded.certificateSHA)))
        let connect = connect(withheld)
        let machine = MachineResult(checks: [], facts: MachineFacts.gather(RecordedSystem()), discovery: Recorded.discovery(local: false))
        let pinFail = Check(.gwPin, .fail, .pinMismatch)
        for (checks, evidence) in [([pinFail, connect], [CheckID.gwPin, .gwConnect]), ([connect], [.gwConnect])] {
            let result = GatewayResult(evidence: Recorded.evidence(withheld), checks: checks)
            let causes = DiagnosisRules.pinChanged.apply(machine, result, after: [])
            #expect(causes.map(\.id) == [.pinChanged] && causes.first?.evidence.map(\.check) == evidence, "\(causes)")
            let all = DiagnosisRules.diagnose(machine, gateways: [result])
            #expect(all.map(\.id) == [.pinChanged], "nothing left unexplained: \(all.map(\.id))")
        }
    }
}
