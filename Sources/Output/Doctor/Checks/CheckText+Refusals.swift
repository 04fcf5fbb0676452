import DNSSD
import Doctor
import Probes

/// The words of the connect refusals OpenClaw 2 added (2026.8, 2026.9): a draining Gateway
/// (restart-unavailable.ts), the auth rate limit, the 64 KiB limit before login, the operator's
/// pairing decision, operator access policies (connect-error-details.ts and
/// docs/gateway/protocol/auth.md).
extension CheckText {
    /// OpenClaw 2's refusals, or nil for another answer.
    static func openClaw2Refusal(_ answer: CheckReason, _ error: ConnectError, said: String) -> CheckText? {
        switch answer {
        case .gatewayRestarting: restarting(error.pause, said: said, retryAfterMs: error.retryAfterMs)
        case .rateLimited: rateLimited(error, said: said)
        case .pairingRejected, .pairingExpired: pairingDecision(answer, error, said: said)
        case .operatorAccessDenied:
            CheckText(
                "\(said): the Gateway authenticated this client, and its operator access policy grants it nothing",
                fix: "not a credential problem: an administrator of the Gateway must assign this user or device a role "
                    + "(gateway.auth's access policy); OpenClaw's clients keep reconnecting and get in once access is granted")
        case .verifiedUserRequired:
            CheckText(
                "\(said): the Gateway's operator role policy wants a verified user identity, and this authentication method has none",
                fix: "connect through the trusted proxy or Tailscale Serve that vouches for the user, or use the shared "
                    + "gateway token or password (gateway.remote.token, --token-file)")
        default: nil
        }
    }

    /// UNAVAILABLE with gateway-restarting, -suspending, -closing, or a close 1012/1013.
    static func restarting(_ pause: GatewayPause?, said: String, retryAfterMs: Int?) -> CheckText {
        let state = pause.map(pauseWords) ?? "going away"
        return CheckText(
            "\(said)\(retryAfterMs.map { " (retry after \($0) ms)" } ?? ""): the Gateway is \(state)",
            fix: "a running Gateway restarting or draining: wait, then run doctor again with a longer --timeout; if it keeps "
                + "saying so, `openclaw gateway status` and the Gateway's log on its host (a restart loop, a suspension)")
    }

    /// AUTH_RATE_LIMITED: how long to wait, and no retry into it.
    static func rateLimited(_ error: ConnectError, said: String) -> CheckText {
        let wait =
            error.retryAfterMs.map { "wait \(Duration.milliseconds($0).secondsText(fractionDigits: 0)) s (retryAfterMs \($0))" }
            ?? "wait a few minutes"
        return CheckText(
            "\(said): rate limited (gateway.auth.rateLimit); doctor did not ask again: another try only extends the lockout",
            fix: "\(wait), then fix the credential that failed (gateway.remote.token, --token-file, the device identity) before "
                + "the next try; stop other clients on this machine that retry with a wrong token")
    }

    /// The operator's decision on a pending request (device.pair.resolved, or the code itself).
    static func pairingDecision(_ answer: CheckReason, _ error: ConnectError, said: String) -> CheckText {
        let request = error.requestId.map { " \(words($0))" } ?? ""
        let hint = error.remediationHint.map { " (the Gateway says: \(words($0)))" } ?? ""
        if answer == .pairingRejected {
            return CheckText(
                "\(said): an operator rejected pairing request\(request) for this device\(hint)",
                fix: "ask the Gateway's operator why; a new request is made on the next connect: approve it with "
                    + "`openclaw devices list`, then `openclaw devices approve <requestId>` on the Gateway host")
        }
        return CheckText(
            "\(said): pairing request\(request) expired unapproved (a pending request lasts 5 minutes after the device's last "
                + "try)\(hint)",
            fix: "connect again (a node host retries by itself) and approve the new request within 5 minutes: "
                + "`openclaw devices list`, then `openclaw devices approve <requestId>` on the Gateway host")
    }

    /// A close without an answer that says something of its own.
    static func closedWords(_ close: CloseFrame, answer: CheckReason) -> CheckText? {
        switch answer {
        case .frameTooLargeBeforeLogin:
            CheckText(
                "the Gateway closed the WebSocket \(describe(close)) before login: a frame over OpenClaw's 64 KiB limit before the "
                    + "handshake (MAX_PREAUTH_PAYLOAD_BYTES)",
                fix: "something in the path enlarges the connect request, or the client sends too much before hello-ok (a huge "
                    + "commands or caps list): keep the connect frame under 64 KiB; larger frames only after hello-ok")
        case .gatewayRestarting:
            restarting(
                .closed(code: close.code ?? 1012), said: "the Gateway closed the WebSocket \(describe(close)) without answering connect",
                retryAfterMs: nil)
        default: nil
        }
    }

    /// What OpenClaw's less common close codes mean (GATEWAY_CLOSE_CODE_HINTS in
    /// packages/gateway-client/src/client.ts, and the codes its server and clients use).
    static func closeCodeWords(_ code: UInt16) -> String? {
        switch code {
        case 1009: "message too big"
        case 1012: "service restart"
        case 1013: "try again later"
        case 4000: "tick timeout: no tick for two of the Gateway's tick intervals"
        case 4001: "gateway auth changed"
        case 4008: "pairing decided"
        default: nil
        }
    }
}
