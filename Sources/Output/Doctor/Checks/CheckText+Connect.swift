import DNSSD
import Doctor
import Probes

/// The words of gw.connect: the Gateway's answer to the connect request (its error codes as
/// OpenClaw names them, packages/gateway-protocol/src/connect-error-details.ts), then what
/// happened to the credentials.
extension CheckText {
    static func connect(_ check: Check, _ evidence: ConnectEvidence, answer: CheckReason) -> CheckText {
        let said = answerWords(evidence, answer: answer)
        switch evidence.decision {
        case nil: return said
        case .send(let grant)?:
            guard check.status == .pass else { return said }
            return CheckText(said.message + " (sent: \(grantWords(grant, host: evidence.host)))", fix: said.fix)
        case .withhold(let withheld)?:
            let (why, fix) = withholding(withheld, evidence)
            let message = "\(credentialWords(evidence.offered)) not sent: \(why); without it: \(said.message)"
            // The Gateway's own refusal (a protocol mismatch, a closed socket) stays the finding, with its fix.
            return CheckText(message, fix: check.reason == answer ? said.fix : fix)
        }
    }

    /// The Gateway's answer to a request that carried `evidence.sent`, and how doctor got there
    /// when it took more than one request (a starting Gateway, the v3 node envelope).
    static func answerWords(_ evidence: ConnectEvidence, answer: CheckReason) -> CheckText {
        let said = answerOnly(evidence, answer: answer)
        guard let history = triesWords(evidence, answer: answer) else { return said }
        return CheckText(said.message + " " + history, fix: said.fix)
    }

    static func answerOnly(_ evidence: ConnectEvidence, answer: CheckReason) -> CheckText {
        let sent = evidence.sent
        switch evidence.phase.outcome {
        case .helloOk(let hello):
            var parts = ["hello-ok: protocol \(hello.protocolVersion.map(String.init) ?? "?") (offered \(evidence.offeredRange))"]
            if let version = hello.serverVersion { parts.append("Gateway \(SafeText.display(Array(version.utf8.prefix(40))))") }
            if let role = hello.role { parts.append("role \(SafeText.display(Array(role.utf8.prefix(20))))") }
            parts.append(sent.device.map { "as device \($0.deviceId.prefix(12))…" } ?? sent.token.map { "with \($0)" } ?? "")
            let message = parts.filter { !$0.isEmpty }.joined(separator: ", ")
            return answer == .olderProtocol ? olderProtocol(message, hello: hello) : CheckText(message)
        case .rejected(let error, let close):
            return rejected(error, close: close, answer: answer, evidence: evidence)
        case .closed(let close):
            if let words = closedWords(close, answer: answer) { return words }
            return CheckText(
                "the Gateway closed the WebSocket \(describe(close)) without answering connect",
                fix: "see the Gateway's log for the close cause; a proxy in between may cut the WebSocket")
        case .unexpected(let text):
            return CheckText(
                "no answer to connect, but: \(SafeText.display(Array(text.utf8.prefix(80))))",
                fix:
                    "this is not an OpenClaw Gateway, or one far older or newer than this clawnet (protocol "
                    + "\(ProtocolRange.probe))"
            )
        case .timedOut:
            return CheckText(
                "no answer to connect within \(seconds(evidence.budget)) s: the Gateway took the challenge, not the request",
                fix: "the Gateway is busy or hung: see its log (`openclaw gateway status`)")
        case .failed(let reason):
            return CheckText("connect: \(reason)", fix: "see the Gateway's log")
        }
    }

    /// `CODE/DETAIL_CODE: message (close 1008: reason)`, as the Gateway said it.
    static func said(_ error: ConnectError, close: CloseFrame?) -> String {
        let detailCode = error.detailCode.map { "/" + SafeText.display(Array($0.word.utf8.prefix(60))) } ?? ""
        let closed = close.map { close in
            " (close \(close.code.map(String.init) ?? "without a code")"
                + (close.reason.isEmpty || close.reason.hasPrefix(error.message)
                    ? "" : ": \(SafeText.display(Array(close.reason.utf8.prefix(123))))")
                + ")"
        }
        return SafeText.display(Array(error.code.word.utf8.prefix(40))) + detailCode + ": "
            + SafeText.display(Array(error.message.utf8.prefix(160))) + (closed ?? "")
    }

    static func rejected(_ error: ConnectError, close: CloseFrame?, answer: CheckReason, evidence: ConnectEvidence) -> CheckText {
        let said = said(error, close: close)
        let sent = evidence.sent
        switch answer {
        case .protocolMismatch: return protocolMismatch(error, said: said, offered: evidence.offeredRange)
        case .credentialsRequired:
            let sentWhat = sent.token == nil ? "doctor sent none" : "the token alone does not do (token auth is off on the Gateway?)"
            return CheckText(
                "answers connect, and asks for a token or a paired device (\(said)); \(sentWhat): nothing is left on the Gateway")
        case .pairingRequired: return pairing(error, said: said, evidence: evidence)
        case .gatewayStarting:
            return CheckText(
                "\(said)\(error.retryAfterMs.map { " (retry after \($0) ms)" } ?? ""): the Gateway is starting",
                fix:
                    "it is still starting (\(SafeText.display(Array((error.reason ?? "no reason given").utf8.prefix(60))))): wait, "
                    + "then run doctor again with a longer --timeout; if it never ends, `openclaw gateway status` and the Gateway's "
                    + "log on its host"
            )
        case .tokenMissing, .tokenMismatch:
            let next =
                error.recommendedNextStep.map { " (the Gateway recommends: \(SafeText.display(Array($0.word.utf8.prefix(40)))))" } ?? ""
            let what = sent.token.map { "sent \($0)" } ?? "sent no token"
            return CheckText(
                "\(said); doctor \(what)\(next)", fix: tokenFix(missing: answer == .tokenMissing, next: error.recommendedNextStep))
        case .authRejected:
            return CheckText(
                said,
                fix: error.recommendedNextStep == .waitThenRetry
                    ? "too many failed attempts from this address: wait, then check the token or password"
                    : "compare gateway.auth on the Gateway host with gateway.remote on this node")
        case .deviceAuthRejected:
            return CheckText(
                said, fix: "give --as-device the node's own ~/.openclaw/identity/device.json, and check both clocks (`timedatectl`)")
        default:
            return intermediaryRefusal(answer, error, said: said) ?? openClaw2Refusal(answer, error, said: said)
                ?? CheckText(said, fix: "see the Gateway's log for why it refused the connect request")
        }
    }

    /// The fix for a token the Gateway refused, after its recommended next step
    /// (resolveUnauthorizedHandshakeContext in handshake-auth-helpers.ts).
    static func tokenFix(missing: Bool, next: ConnectError.NextStep?) -> String {
        let source = "on the Gateway host `openclaw config get gateway.auth.token`"
        if missing || next == .updateAuthConfiguration {
            return "the Gateway requires a token: \(source), then set gateway.remote.token to it on this node (or give --token-file FILE)"
        }
        if next == .waitThenRetry { return "too many failed attempts: wait a minute, then fix gateway.remote.token (\(source))" }
        return "the token is not the Gateway's: \(source), then set gateway.remote.token on this node to it (or --token-file FILE)"
    }

    static func describe(_ close: CloseFrame) -> String {
        let reason = close.reason.isEmpty ? "" : ": \(SafeText.display(Array(close.reason.utf8.prefix(123))))"
        let meaning = close.code.flatMap(closeCodeWords).map { " \($0)" } ?? ""
        return "(close \(close.code.map(String.init) ?? "without a code")\(meaning)\(reason))"
    }
}
