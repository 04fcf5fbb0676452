import Probes

/// Tailscale Serve on the Gateway host: gateway.tailscale.mode asks for it, and Serve proxies
/// nothing to the Gateway's port (a warning: tailnet nodes that use the `*.ts.net` name get no
/// Gateway).
extension DiagnosisRules {
    static let tailscaleServeRoute = DiagnosisRule.machine(.tailscaleServeRoute) { machine in
        machine.checks.filter { $0.id == .tailscaleInterface && $0.reason == .serveRouteMissing }.prefix(1).map {
            Diagnosis(.tailscaleServeRoute, .check($0, target: nil), evidence: [.init(.tailscaleInterface)])
        }
    }
}

extension DiagnosisRules {
    /// Tailscale Serve answers on the `*.ts.net` name, /healthz comes through, and the WebSocket
    /// upgrade gets 400 from the loopback-bound Gateway behind it (what nodes report as
    /// "Unexpected server response: 400").
    static let tailscaleServeUpgrade = DiagnosisRule.gateway(.tailscaleServeUpgrade, explains: [.gwWebSocket: [.upgradeRefused]]) {
        result, machine in
        guard result.evidence.path.isTailscaleServe, let webSocket = result.failing(.gwWebSocket, [.upgradeRefused]),
            result.evidence.webSocket?.phase.outcome.rejection?.status == 400
        else { return nil }
        return intermediary(.tailscaleServeUpgrade, result, webSocket, machine)
    }
}
