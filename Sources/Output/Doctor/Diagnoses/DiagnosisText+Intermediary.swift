import DNSSD
import Doctor
import Probes

/// The words of the causes in front of a Gateway: whose certificate is pinned, and what a proxy
/// does to the layers behind it, each with the directive of the program doctor saw.
extension DiagnosisText {
    static func intermediary(_ id: DiagnosisID, _ finding: IntermediaryFinding) -> DiagnosisText {
        let target = finding.target
        let path = finding.path
        let through = path.intermediary.map { " (\($0) answers there)" } ?? ""
        switch id {
        case .edgeCertificate: return edgeCertificate(finding)
        case .pinOnRenewingCertificate:
            let owner = path.intermediary.map { ", and it is \($0)'s certificate, not the Gateway's: the pin belongs to \($0)" } ?? ""
            return DiagnosisText(
                cause: "\(target) is pinned to a certificate \(issued(path)): its CA renews it, and each renewal breaks the pin\(owner)",
                fix: CheckText.repin(path.host, port: path.port))
        case .proxyUpstream:
            return DiagnosisText(
                cause: "\(target): the proxy in front of the Gateway\(through) cannot reach it (\(CheckText(finding.check).message)): its "
                    + "upstream is down, on another port, or spoken to in the other scheme (http:// to a Gateway with TLS, or https:// "
                    + "to a plain one)",
                fix: ProxyDirectives.upstream(path.intermediary, gatewayTLS: finding.gatewayTLS, port: finding.gatewayPort))
        case .proxyDropsUpgrade:
            return DiagnosisText(
                cause: "\(target): the Gateway's health comes through the proxy\(through), its WebSocket does not "
                    + "(\(CheckText(finding.check).message)): the proxy drops the Upgrade and Connection headers",
                fix: ProxyDirectives.passUpgrade(path.intermediary))
        case .proxyIdleTimeout:
            return DiagnosisText(
                cause: "\(target): a proxy\(through) closes idle WebSockets sooner than OpenClaw's "
                    + "\(CheckText.seconds(GatewayProbe.tickInterval)) s tick: nodes connect, then drop and reconnect over and over",
                fix: ProxyDirectives.idleTimeout(path.intermediary))
        case .originNotAllowed:
            let trust =
                path.intermediary == nil
                ? ""
                : "; behind a proxy that sends X-Forwarded-Host (Caddy does by default) also "
                    + ProxyDirectives.trustedProxies(loopback: finding.loopback)
                    + ": OpenClaw refuses every Origin that comes with a forwarded host from a proxy it does not trust"
            return DiagnosisText(
                cause: "\(target) refuses the Origin of the WebSocket upgrade (CONTROL_UI_ORIGIN_NOT_ALLOWED)\(through): a browser page "
                    + "there cannot connect",
                fix: "add the page's origin, exactly as the browser sends it (`\"gateway\": { \"controlUi\": { \"allowedOrigins\": "
                    + "[\"https://\(Self.jsonSafeHost(path.host))\"] } }`), on the Gateway host\(trust)")
        case .tailscaleServeIdentity: return tailscaleServeIdentity(finding)
        case .tailscaleServeUpgrade: return tailscaleServeUpgrade(finding)
        case .proxyAttribution: return proxyAttribution(finding)
        case .identityAwareProxy: return identityAwareProxy(finding)
        default:
            return proxyNotTrusted(finding)
        }
    }

    /// `issued by <issuer>, valid until <date>`, or `self-signed`.
    static func issued(_ path: PathEvidence) -> String {
        switch path.certificate {
        case .issued(let issuer, let notAfter)?:
            return "issued by \(SafeText.display(Array(issuer.utf8.prefix(120)))), valid until \(CheckText.iso(notAfter))"
        case .selfSigned?: return "self-signed"
        case nil: return "whose issuer was not read"
        }
    }

    static func edgeCertificate(_ finding: IntermediaryFinding) -> DiagnosisText {
        let path = finding.path
        let owner = path.intermediary.map { "\($0)'s certificate" } ?? "a certificate"
        return DiagnosisText(
            cause: "\(finding.target) presents \(owner) (\(issued(path))), not the one pinned for the Gateway: whatever terminates TLS "
                + "there is an edge in front of the Gateway, and a pin on it belongs to the edge, which changes it at each renewal "
                + "(\(CheckText(finding.check).message))",
            fix: "connect to the Gateway itself and pin its own certificate (wss://<gateway host>:\(finding.gatewayPort ?? 18789)); or let "
                + "the edge pass TLS through (nginx: a `stream { server { listen 443; proxy_pass 127.0.0.1:18789; } }` block); or pin "
                + "the edge's certificate and re-pin at each renewal: " + CheckText.repin(path.host, port: path.port))
    }

    static func proxyNotTrusted(_ finding: IntermediaryFinding) -> DiagnosisText {
        let path = finding.path
        var reason = ""
        if case .connect(let connect, _) = finding.check.evidence { reason = connect.rejection?.authReason ?? "" }
        guard let intermediary = path.intermediary else {
            return DiagnosisText(
                cause: "\(finding.target) uses auth mode trusted-proxy and admits only connections from its proxies; doctor reached it "
                    + "directly (\(SafeText.display(Array(reason.utf8.prefix(96)))))",
                fix: "check it through the proxy's URL; nodes and apps must connect through the proxy too, or the Gateway needs another "
                    + "auth mode (gateway.auth.mode token) for them")
        }
        let fix: String
        switch reason {
        case "trusted_proxy_loopback_source":
            fix =
                "a proxy on the Gateway host connects from loopback: set gateway.auth.trustedProxy.allowLoopback to true (with "
                + "\"127.0.0.1\" in gateway.trustedProxies) and restart the Gateway"
        case "trusted_proxy_user_missing": fix = "make the proxy send the authenticated user: " + ProxyDirectives.userHeader(intermediary)
        case let missing where missing.hasPrefix("trusted_proxy_missing_header_"):
            fix =
                "make the proxy send the header gateway.auth.trustedProxy.requiredHeaders asks for ("
                + SafeText.display(Array(missing.dropFirst("trusted_proxy_missing_header_".count).utf8.prefix(60))) + ")"
        default: fix = ProxyDirectives.trustedProxies(loopback: finding.loopback)
        }
        return DiagnosisText(
            cause: "\(finding.target): the Gateway (auth mode trusted-proxy) does not accept \(intermediary) in front of it as its proxy "
                + "(\(SafeText.display(Array(reason.utf8.prefix(96))))): every connection through it is refused",
            fix: fix)
    }

    /// A host for a JSON snippet the operator pastes: a host name or an address as it is; any
    /// other text (from a URL or a beacon) is left out, never pasted into the config.
    static func jsonSafeHost(_ host: String) -> String {
        DomainName(host: host) != nil || IPAddress(host) != nil ? host : "<the page's host>"
    }
}
