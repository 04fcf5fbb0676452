import DNSSD
import FoundationEssentials
import Probes

/// gw.connect: the Gateway's answer to the connect request that follows connect.challenge,
/// read with OpenClaw's error codes (packages/gateway-protocol/src/connect-error-details.ts).
extension GatewayChecks {
    static func connect(_ report: ProbeReport, budget: Duration) -> Check {
        guard let phase = report.connect else {
            return report.websocket == nil
                ? Check(.gwConnect, .skip, .notRun, "not run") : Check(.gwConnect, .skip, .needsChallenge, "needs connect.challenge")
        }
        return withCredentialNote(answer(phase, sent: sent(report), budget: budget), report)
    }

    /// The Gateway's answer to a request that carried `sent`.
    static func answer(_ phase: PhaseTiming<ConnectOutcome>, sent: ConnectCredentials, budget: Duration) -> Check {
        let elapsed = phase.elapsed
        switch phase.outcome {
        case .helloOk(let hello):
            var parts = ["hello-ok: protocol \(hello.protocolVersion.map(String.init) ?? "?")"]
            if let version = hello.serverVersion { parts.append("Gateway \(SafeText.display(Array(version.utf8.prefix(40))))") }
            if let role = hello.role { parts.append("role \(SafeText.display(Array(role.utf8.prefix(20))))") }
            parts.append(sent.device.map { "as device \($0.deviceId.prefix(12))…" } ?? sent.token.map { "with \($0)" } ?? "")
            var detail = ["protocol": hello.protocolVersion.map(String.init) ?? ""]
            detail["serverVersion"] = hello.serverVersion
            return Check(.gwConnect, .pass, .ok, parts.filter { !$0.isEmpty }.joined(separator: ", "), elapsed: elapsed, detail: detail)
        case .rejected(let error, let close):
            return rejected(error, close: close, sent: sent, elapsed: elapsed)
        case .closed(let close):
            return Check(
                .gwConnect, .fail, .closedByGateway,
                "the Gateway closed the WebSocket \(describe(close)) without answering connect",
                fix: "see the Gateway's log for the close cause; a proxy in between may cut the WebSocket", elapsed: elapsed)
        case .unexpected(let text):
            return Check(
                .gwConnect, .fail, .unexpectedConnectAnswer, "no answer to connect, but: \(SafeText.display(Array(text.utf8.prefix(80))))",
                fix:
                    "this is not an OpenClaw Gateway, or one far older or newer than this clawnet (protocol "
                    + "v\(ConnectRequest.protocolVersion))",
                elapsed: elapsed)
        case .timedOut:
            return Check(
                .gwConnect, .fail, .connectTimedOut,
                "no answer to connect within \(budget.secondsText(fractionDigits: 1)) s: the Gateway took the challenge, not the request",
                fix: "the Gateway is busy or hung: see its log (`openclaw gateway status`)", elapsed: elapsed)
        case .failed(let reason):
            return Check(.gwConnect, .fail, .connectFailed, "connect: \(reason)", fix: "see the Gateway's log", elapsed: elapsed)
        }
    }

    static func rejected(_ error: ConnectError, close: CloseFrame?, sent: ConnectCredentials, elapsed: Duration) -> Check {
        let detailCode = error.detailCode.map { "/" + SafeText.display(Array($0.word.utf8.prefix(60))) } ?? ""
        let closed = close.map { close in
            " (close \(close.code.map(String.init) ?? "without a code")"
                + (close.reason.isEmpty || close.reason.hasPrefix(error.message)
                    ? "" : ": \(SafeText.display(Array(close.reason.utf8.prefix(123))))")
                + ")"
        }
        let said =
            SafeText.display(Array(error.code.word.utf8.prefix(40))) + detailCode + ": "
            + SafeText.display(Array(error.message.utf8.prefix(160)))
            + (closed ?? "")
        var detail = ["code": error.code.word]
        detail["detailCode"] = error.detailCode?.word
        detail["requestId"] = error.requestId
        detail["recommendedNextStep"] = error.recommendedNextStep?.word
        if error.isProtocolMismatch { return protocolMismatch(error, said: said, elapsed: elapsed, detail: detail) }
        switch error.detailCode {
        case .deviceIdentityRequired? where sent.device == nil:
            let sentWhat = sent.token == nil ? "doctor sent none" : "the token alone does not do (token auth is off on the Gateway?)"
            return Check(
                .gwConnect, .pass, .credentialsRequired,
                "answers connect, and asks for a token or a paired device (\(said)); \(sentWhat): nothing is left on the Gateway",
                elapsed: elapsed, detail: detail)
        case .pairingRequired?:
            let request = error.requestId.map { SafeText.display(Array($0.utf8.prefix(128))) }
            return Check(
                .gwConnect, .fail, .pairingRequired,
                "\(said): the Gateway has not approved this device\(request.map { "; pairing request \($0) waits there" } ?? "")",
                fix: "on the Gateway host: `openclaw devices list`, then `openclaw devices approve \(request ?? "<requestId>")`",
                elapsed: elapsed, detail: detail)
        default: break
        }
        if error.code == .unavailable {
            return Check(
                .gwConnect, .warn, .gatewayStarting,
                "\(said)\(error.retryAfterMs.map { " (retry after \($0) ms)" } ?? ""): the Gateway is starting",
                fix: "wait a moment and run doctor again; if it stays, see the Gateway's log", elapsed: elapsed, detail: detail)
        }
        switch error.detailCode {
        case .authTokenMissing?, .authTokenMismatch?:
            let missing = error.detailCode == .authTokenMissing
            let next =
                error.recommendedNextStep.map { " (the Gateway recommends: \(SafeText.display(Array($0.word.utf8.prefix(40)))))" } ?? ""
            let what = sent.token.map { "sent \($0)" } ?? "sent no token"
            return Check(
                .gwConnect, .fail, missing ? .tokenMissing : .tokenMismatch, "\(said); doctor \(what)\(next)",
                fix: tokenFix(missing: missing, next: error.recommendedNextStep), elapsed: elapsed, detail: detail)
        case .auth?:
            return Check(
                .gwConnect, .fail, .authRejected, said,
                fix: error.recommendedNextStep == .waitThenRetry
                    ? "too many failed attempts from this address: wait, then check the token or password"
                    : "compare gateway.auth on the Gateway host with gateway.remote on this node", elapsed: elapsed, detail: detail)
        case .deviceAuth?:
            return Check(
                .gwConnect, .fail, .deviceAuthRejected, said,
                fix: "give --as-device the node's own ~/.openclaw/identity/device.json, and check both clocks (`timedatectl`)",
                elapsed: elapsed, detail: detail)
        default:
            return Check(
                .gwConnect, .fail, .connectRejected, said, fix: "see the Gateway's log for why it refused the connect request",
                elapsed: elapsed, detail: detail)
        }
    }

    static func protocolMismatch(_ error: ConnectError, said: String, elapsed: Duration, detail: [String: String]) -> Check {
        let ours = ConnectRequest.protocolVersion
        let theirs = error.expectedProtocol
        let fix =
            theirs.map { $0 < ours }.map { older in
                older
                    ? "the Gateway is older than its nodes: update OpenClaw on the Gateway host (`openclaw update`) and restart it"
                    : "the Gateway is newer than this node's protocol: update OpenClaw on the nodes"
            } ?? "update OpenClaw on the Gateway and the nodes to the same release"
        return Check(
            .gwConnect, .fail, .protocolMismatch,
            "\(said): the Gateway speaks protocol v\(theirs.map(String.init) ?? "?"), doctor asked for "
                + "v\(error.clientMinProtocol ?? ours)…v\(error.clientMaxProtocol ?? ours) as OpenClaw's clients do",
            fix: fix, elapsed: elapsed, detail: detail)
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
        return "(close \(close.code.map(String.init) ?? "without a code")\(reason))"
    }
}

/// The Gateway's health body, `{"ok":true,"status":"live"}` (src/gateway/server-http.ts):
/// anything else on /healthz is another program.
enum HealthBody {
    static func isGateway(_ body: String) -> Bool {
        struct Health: Decodable { let ok: Bool? }
        guard let data = body.data(using: .utf8), let health = try? JSONDecoder().decode(Health.self, from: data) else { return false }
        return health.ok == true
    }
}
