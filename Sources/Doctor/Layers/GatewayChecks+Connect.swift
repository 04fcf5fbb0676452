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
        case .closed(let close): closed(close)
        case .unexpected: (.fail, .unexpectedConnectAnswer)
        case .timedOut: (.fail, .connectTimedOut)
        case .failed: (.fail, .connectFailed)
        }
    }

    /// A close without an answer: a restart (1012, 1013), a frame too large before login
    /// (1009, the 64 KiB pre-auth limit), or the Gateway's own reason.
    static func closed(_ close: CloseFrame) -> (Check.Status, CheckReason) {
        switch close.code {
        case let code? where GatewayPause.restartCloseCodes.contains(code): (.warn, .gatewayRestarting)
        case 1009?: (.fail, .frameTooLargeBeforeLogin)
        default: (.fail, .closedByGateway)
        }
    }

    static func rejected(_ error: ConnectError, sent: ConnectCredentials) -> (Check.Status, CheckReason) {
        if error.isProtocolMismatch { return (.fail, .protocolMismatch) }
        if let refusal = intermediaryRefusal(error) { return (.fail, refusal) }
        switch error.detailCode {
        case .deviceIdentityRequired? where sent.device == nil: return (.pass, .credentialsRequired)
        case .pairingRequired?: return (.fail, .pairingRequired)
        case .pairingRejected?: return (.fail, .pairingRejected)
        case .pairingExpired?: return (.fail, .pairingExpired)
        case .authRateLimited?: return (.fail, .rateLimited)
        case .operatorAccessDenied?: return (.fail, .operatorAccessDenied)
        case .verifiedUserRequired?: return (.fail, .verifiedUserRequired)
        default: break
        }
        if error.code == .unavailable { return (.warn, error.pause?.isStartup == false ? .gatewayRestarting : .gatewayStarting) }
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
    package var verdict: (status: Check.Status, reason: CheckReason) {
        switch self {
        case .pinMismatch: (.fail, .withheldPinMismatch)
        case .pinWithoutTLS, .plainText: (.warn, .withheldPlainText)
        case .unverifiedCertificate: (.warn, .withheldUnverified)
        case .foreignLocalListener: (.warn, .withheldLocalListener)
        }
    }
}
