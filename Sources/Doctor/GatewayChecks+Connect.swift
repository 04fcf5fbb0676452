import Probes

/// gw.connect: the Gateway's answer to the connect request that follows connect.challenge,
/// read with OpenClaw's error codes (packages/gateway-protocol/src/connect-error-details.ts),
/// then what happened to the credentials: withheld ones make the check say so, unless the
/// Gateway refused the bare request for a reason of its own.
extension GatewayChecks {
    static func connect(_ connect: ConnectEvidence?) -> Check {
        guard let connect else { return Check(.gwConnect, .skip, .notRun) }
        let (answerStatus, answer) = self.answer(connect.phase.outcome, sent: connect.sent)
        var (status, reason) = (answerStatus, answer)
        if case .withhold(let withheld)? = connect.decision, answerStatus != .fail {
            (status, reason) = withheld.verdict
        }
        return Check(.gwConnect, status, reason, elapsed: connect.phase.elapsed, evidence: .connect(connect, answer: answer))
    }

    /// The Gateway's answer to a request that carried `sent`.
    static func answer(_ outcome: ConnectOutcome, sent: ConnectCredentials) -> (Check.Status, CheckReason) {
        switch outcome {
        // A Gateway on the previous protocol answers nodes and probes (N-1), not current operator clients.
        case .helloOk(let hello) where (hello.protocolVersion ?? ProtocolRange.currentVersion) < ProtocolRange.currentVersion:
            (.warn, .olderProtocol)
        case .helloOk: (.pass, .ok)
        case .rejected(let error, _): rejected(error, sent: sent)
        case .closed: (.fail, .closedByGateway)
        case .unexpected: (.fail, .unexpectedConnectAnswer)
        case .timedOut: (.fail, .connectTimedOut)
        case .failed: (.fail, .connectFailed)
        }
    }

    static func rejected(_ error: ConnectError, sent: ConnectCredentials) -> (Check.Status, CheckReason) {
        if error.isProtocolMismatch { return (.fail, .protocolMismatch) }
        if let refusal = intermediaryRefusal(error) { return (.fail, refusal) }
        switch error.detailCode {
        case .deviceIdentityRequired? where sent.device == nil: return (.pass, .credentialsRequired)
        case .pairingRequired?: return (.fail, .pairingRequired)
        default: break
        }
        if error.code == .unavailable { return (.warn, .gatewayStarting) }
        switch error.detailCode {
        case .authTokenMissing?: return (.fail, .tokenMissing)
        case .authTokenMismatch?: return (.fail, .tokenMismatch)
        case .auth?: return (.fail, .authRejected)
        case .deviceAuth?: return (.fail, .deviceAuthRejected)
        default: return (.fail, .connectRejected)
        }
    }

}

extension CredentialDecision.Withheld {
    /// The status and reason gw.connect takes when the credentials were withheld for this.
    public var verdict: (status: Check.Status, reason: CheckReason) {
        switch self {
        case .pinMismatch: (.fail, .withheldPinMismatch)
        case .pinWithoutTLS, .plainText: (.warn, .withheldPlainText)
        case .unverifiedCertificate: (.warn, .withheldUnverified)
        case .foreignLocalListener: (.warn, .withheldLocalListener)
        }
    }
}
