import DNSSD
import Doctor
import Probes

/// The words of gw.websocket when the upgrade was refused with an answer that says why, as an
/// OpenClaw 2 Gateway or what stands in front of it answers (`UpgradeRejection.kind`).
extension CheckText {
    static func upgradeRejected(_ rejection: UpgradeRejection, _ evidence: WebSocketEvidence, proxyFix: String) -> CheckText {
        let status = "HTTP \(rejection.status)"
        switch rejection.kind {
        case .proxyAttribution:
            return CheckText(
                "the Gateway refused the WebSocket upgrade with \(status) \(UpgradeRejection.proxyAttributionType): it got proxy "
                    + "headers (X-Forwarded-For, Forwarded, X-Real-IP) it cannot attribute to a client",
                fix: ProxyDirectives.trustedProxies(loopback: false)
                    + "; make the proxy overwrite X-Forwarded-For with the client's address (nginx: `proxy_set_header "
                    + "X-Forwarded-For $remote_addr;`)")
        case .identityProxy(let location):
            return CheckText(
                "\(status) to \(shown(location)): something in front of the Gateway answers the WebSocket upgrade and sends the client "
                    + "to log in (OpenClaw's clients report websocket-upgrade-rejected, httpStatus \(rejection.status))",
                fix: identityProxyFix(location))
        case .rateLimited:
            return CheckText(
                "\(status) Too Many Requests\(said(rejection)): the Gateway refuses upgrades from this address after too many failed "
                    + "authentications (gateway.auth.rateLimit)\(waitWords(rejection.retryAfter)); doctor did not ask again",
                fix: "wait\(waitWords(rejection.retryAfter, lead: " ")) before any client on this address connects again, and find "
                    + "the one that keeps failing (a wrong gateway.remote.token or password, an old device token): every failed try "
                    + "extends the lockout")
        case .unavailable(let reason):
            return unavailable(reason, rejection, tries: evidence.refusals.count + 1)
        case .other:
            return CheckText(
                "the server answered the WebSocket upgrade with \(status): not a Gateway, or a proxy that does not pass WebSockets",
                fix: proxyFix)
        }
    }

    /// A 503 in the Gateway's words: why, and how often doctor asked.
    static func unavailable(_ reason: UpgradeRejection.UnavailableReason, _ rejection: UpgradeRejection, tries: Int) -> CheckText {
        let answered = "HTTP 503 \"\(shown(rejection.body.trimmingSpaces()))\"" + (tries > 1 ? " to each of \(tries) openings" : "")
        switch reason {
        case .admissionClosed:
            return CheckText(
                "\(answered): the Gateway is restarting, suspending or draining and takes no WebSocket for now (#141303); OpenClaw's "
                    + "clients open again after 1, 2, 4 ... seconds, and so did doctor within --timeout",
                fix: "transient: run doctor again in a minute (or with a longer --timeout); if it stays, the Gateway hangs while "
                    + "draining: `openclaw gateway status` and its log on the Gateway host, then `openclaw gateway restart`")
        case .handlersUnavailable:
            return CheckText(
                "\(answered): the Gateway is starting and its WebSocket handlers are not attached yet",
                fix: "transient: run doctor again in a moment; if it stays, see the Gateway's log")
        case .tooManyUnauthenticated:
            return CheckText(
                "\(answered): the Gateway holds as many connections from this address as it allows before they log in (its per-address "
                    + "budget for unauthenticated connections)",
                fix: "stop what on this address opens WebSockets without finishing the handshake (a client in a reconnect loop, several "
                    + "doctors or watches at once, a scanner); the Gateway drops each after its 15 s handshake limit")
        }
    }

    /// A passed upgrade after the Gateway refused earlier openings with a transient 503.
    static func admittedAfter(_ refusals: [UpgradeTry]) -> String {
        guard let first = refusals.first else { return "" }
        let waited = refusals.map(\.waited).reduce(.zero, +)
        let words = first.rejection.kind == .unavailable(.handlersUnavailable) ? "starting" : "restarting or draining"
        return " (after \(refusals.count) \(refusals.count == 1 ? "answer" : "answers") HTTP 503 over \(seconds(waited)) s: the "
            + "Gateway was \(words); doctor asked again as OpenClaw's clients do)"
    }

    /// How an identity-aware proxy lets a node through: Cloudflare Access by its service token or
    /// gateway.remote.edgeAuth (docs/gateway/cloudflare-access.md, docs/gateway/remote.md), others by their own credential.
    static func identityProxyFix(_ location: String) -> String {
        guard UpgradeRejection.isCloudflareAccess(location) else {
            let host = UpgradeRejection.host(of: location).map(shown) ?? "the login page"
            return "the node never reaches the Gateway until that proxy (its login at \(host)) lets it through: give the node the "
                + "credential the proxy accepts on the WebSocket upgrade (gateway.remote.edgeAuth headers, docs/gateway/remote.md "
                + "\"Gateway behind an identity-aware proxy\"), or let the proxy pass the Gateway's WebSocket without its login"
        }
        return "Cloudflare Access intercepts the upgrade: for a node, a service token (a Service Auth policy on the application; "
            + "CF_ACCESS_CLIENT_ID and CF_ACCESS_CLIENT_SECRET, which `openclaw connect URL --service` keeps as "
            + "gateway.cloudflareAccess.clientId and clientSecret); for the CLI and TUI, gateway.remote.edgeAuth with a Cf-Access-Token "
            + "header from `cloudflared access token -app=URL` (docs/gateway/cloudflare-access.md, docs/gateway/remote.md)"
    }

    /// ` (the message)`, the Gateway's own words of its refusal, when it gave them.
    static func said(_ rejection: UpgradeRejection) -> String {
        rejection.errorMessage.map { " (\"\(shown($0))\")" } ?? ""
    }

    /// `: wait 30 s (Retry-After)`, or nothing without a Retry-After.
    static func waitWords(_ retryAfter: RetryAfter?, lead: String = ", and asks to wait ") -> String {
        switch retryAfter {
        case .seconds(let seconds)?: "\(lead)\(seconds) s (Retry-After)"
        case .date(let date)?: "\(lead)until \(iso(date)) (Retry-After)"
        case nil: lead == " " ? " the lockout out (the Gateway sent no Retry-After)" : ""
        }
    }

    /// Text from the peer, made safe and short.
    static func shown(_ text: String) -> String {
        SafeText.display(Array(text.utf8.prefix(160)))
    }
}
