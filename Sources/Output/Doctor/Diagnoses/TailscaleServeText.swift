import DNSSD
import Doctor
import Host
import Probes

/// The words of Tailscale Serve in front of a Gateway (docs/gateway/tailscale.md): the Gateway
/// binds loopback, Serve answers HTTPS on 443 of the `*.ts.net` name and proxies to it, and
/// with gateway.auth.allowTailscale its identity headers authenticate.
extension CheckText {
    static func serveRouteMissing(_ evidence: TailnetEvidence) -> CheckText {
        let mode = evidence.settings.mode?.rawValue ?? "serve"
        let routes = evidence.serve.map { serve in
            serve.routes.isEmpty
                ? "Serve has no config"
                : "Serve proxies " + serve.routes.map { "\($0.site)\($0.path) to \($0.target)" }.joined(separator: ", ")
        }
        return CheckText(
            "gateway.tailscale.mode is \(mode), but \(routes ?? "Serve") and nothing to 127.0.0.1:\(evidence.gatewayPort): tailnet "
                + "nodes that use this machine's *.ts.net name get no Gateway. A 2026.9 Gateway does not start without its route "
                + "(#133827), so a Gateway that runs lost it later: tailscaled restarted, and its Serve config did not come back, "
                + "silently (#148308)",
            fix: "restart the Gateway (`openclaw gateway restart`: it sets the route up again when gateway.tailscale.mode is serve), or "
                + "`sudo tailscale serve --bg \(evidence.gatewayPort)`; `tailscale serve status` shows the result, and after each "
                + "restart of tailscaled check it again")
    }
}

extension DiagnosisText {
    static func tailscaleServeIdentity(_ finding: IntermediaryFinding) -> DiagnosisText {
        var reason = ""
        if case .connect(let connect, _) = finding.check.evidence { reason = connect.rejection?.authReason ?? "" }
        let shown = SafeText.display(Array(reason.utf8.prefix(96)))
        guard finding.path.isTailscaleServe else {
            return DiagnosisText(
                cause: "\(finding.target) expects Tailscale Serve's identity headers (\(shown)), and doctor reached it another way: only "
                    + "requests that Serve proxies from loopback carry them",
                fix: "connect through the Gateway's https://<host>.ts.net name (Serve), or give a token (gateway.remote.token, "
                    + "--token-file)")
        }
        return DiagnosisText(
            cause: "\(finding.target) is Tailscale Serve in front of a loopback-bound Gateway, and the Gateway refuses the Tailscale "
                + "identity Serve forwards (\(shown))",
            fix: "on the Gateway host set `\"gateway\": { \"bind\": \"loopback\", \"tailscale\": { \"mode\": \"serve\" }, \"auth\": { "
                + "\"allowTailscale\": true } }` and restart it; the Gateway checks the identity with `tailscale whois`, so tailscaled "
                + "must run there; or give a token (gateway.remote.token)")
    }

    static func tailscaleServeUpgrade(_ finding: IntermediaryFinding) -> DiagnosisText {
        DiagnosisText(
            cause: "\(finding.target) is Tailscale Serve in front of a loopback-bound Gateway: its health comes through, but the Gateway "
                + "answers the WebSocket upgrade with 400, so nodes fail with \"Unexpected server response: 400\"",
            fix: "on the Gateway host keep `gateway.bind` \"loopback\" with `gateway.tailscale.mode` \"serve\" and "
                + "`gateway.auth.allowTailscale` true, update OpenClaw there and restart it; until then reach it through an SSH tunnel "
                + "(`ssh -N -L 18789:127.0.0.1:18789 <gateway host>`, then ws://127.0.0.1:18789) or bind it to the tailnet "
                + "(gateway.bind \"tailnet\") and connect to wss://<tailnet address>:18789")
    }
}
