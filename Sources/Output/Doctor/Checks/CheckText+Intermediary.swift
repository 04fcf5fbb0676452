import DNSSD
import Doctor
import FoundationEssentials
import Probes

/// The words of what stands in front of a Gateway, in its checks: a pin on a certificate a CA
/// renews, the chain it came with, a WebSocket held idle behind a proxy, and the Gateway's
/// refusals of what a proxy forwarded.
extension CheckText {
    static func pinOnIssued(_ pin: Pin, _ evidence: PinEvidence) -> CheckText {
        guard case .issued(let issuer, let notAfter)? = evidence.certificate else { return CheckText("matches the pin") }
        return CheckText(
            "matches the pin (\(pin.source == .flag ? "--pin" : "gateway.remote.tlsFingerprint")), on a certificate issued by "
                + "\(SafeText.display(Array(issuer.utf8.prefix(120)))), valid until \(iso(notAfter)): its CA renews it, and each "
                + "renewal breaks the pin",
            fix: repin(evidence.host))
    }

    /// What to do after a renewal, and how to stop needing to;
    /// `port`: the one doctor connected to, when known; else 443 and a word to change it.
    static func repin(_ host: String, port: Int? = nil) -> String {
        "after each renewal read the new fingerprint (`openssl s_client -connect \(ShellWord.quoted("\(host):\(port ?? 443)")) "
            + "-servername \(ShellWord.quoted(host)) </dev/null | "
            + "openssl x509 -outform DER | sha256sum`\(port == nil ? ", with the right port" : "") and re-pin it: "
            + "gateway.remote.tlsFingerprint on a node host; on "
            + "iOS or Android forget the Gateway and trust it again. Or pin the Gateway's own self-signed certificate (ten years) by "
            + "connecting to the Gateway itself"
    }

    /// `, presented with CN=intermediate (issued by CN=root)`: the chain beyond the leaf.
    static func chainWords(_ facts: TLSFacts) -> String {
        let rest = facts.presentedChain.dropFirst()
        guard !rest.isEmpty else { return "" }
        let shown = rest.map {
            "\(SafeText.display(Array($0.subject.utf8.prefix(80)))) (issued by "
                + "\(SafeText.display(Array($0.issuer.utf8.prefix(80)))))"
        }
        return ", presented with " + shown.joined(separator: ", ")
    }

    /// What the idle watch saw, said after the opening's own words.
    static func idleWords(_ idle: IdleOutcome?, tick: Duration = GatewayProbe.tickInterval) -> String {
        switch idle {
        case .closed(let after)?:
            "; a WebSocket held idle after connect.challenge was closed after \(seconds(after)) s with no frame in between, before "
                + "OpenClaw's \(seconds(tick)) s tick"
        case .heldOpen(let held)?:
            "; a proxy answers here: a WebSocket held idle \(seconds(held)) s after connect.challenge stayed open (doctor cannot see "
                + "idle timeouts between \(seconds(held)) s and OpenClaw's \(seconds(tick)) s tick)"
        case .notWatched?, nil: ""
        }
    }

    /// The Gateway refused what a proxy forwarded: the Origin, or the proxy itself.
    static func intermediaryRefusal(_ answer: CheckReason, _ error: ConnectError, said: String) -> CheckText? {
        switch answer {
        case .originNotAllowed:
            return CheckText(
                "\(said): the Gateway refuses the Origin of the WebSocket upgrade",
                fix: "add the page's origin to gateway.controlUi.allowedOrigins on the Gateway host")
        case .proxyNotTrusted:
            let reason = error.authReason.map { SafeText.display(Array($0.utf8.prefix(96))) } ?? "?"
            return CheckText(
                "\(said) (\(reason)): the Gateway's auth mode is trusted-proxy, and it does not take this connection as its proxy's",
                fix: "connect through the proxy that authenticates users, and list it in gateway.trustedProxies")
        case .tailscaleIdentityRefused:
            let reason = error.authReason.map { SafeText.display(Array($0.utf8.prefix(96))) } ?? "?"
            return CheckText(
                "\(said) (\(reason)): the Gateway wants Tailscale Serve's identity and did not get one it accepts",
                fix: "reach it through Tailscale Serve with gateway.auth.allowTailscale true on the Gateway host, or give a token")
        default:
            return nil
        }
    }
}
