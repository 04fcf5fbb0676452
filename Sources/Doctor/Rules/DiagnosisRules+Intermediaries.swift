import DNSSD
import Host
import Probes

/// The causes in front of a Gateway, found before the session's generic ones: a pin on a
/// certificate that is not the Gateway's own, and what a reverse proxy (nginx, Caddy, an edge)
/// does to the HTTP, WebSocket and connect layers behind it. Each names the intermediary when
/// doctor saw one (`PathEvidence`), so that its words can give that program's directive.
extension DiagnosisRules {
    static let intermediaries: [DiagnosisRule] = [
        edgeCertificate, pinOnRenewingCertificate, proxyUpstream, tailscaleServeUpgrade, proxyDropsUpgrade, proxyIdleTimeout,
        originNotAllowed, proxyNotTrusted, tailscaleServeIdentity,
    ]

    /// The pinned (or advertised) certificate is not the one served, and the one served is a
    /// CA's, or a proxy answered: the pin and the certificate belong to different parties.
    static let edgeCertificate = DiagnosisRule.gateway(.edgeCertificate, explains: [.gwPin: [.pinMismatch, .advertisedMismatch]]) {
        result, machine in
        guard let pin = result.failing(.gwPin, [.pinMismatch, .advertisedMismatch]) else { return nil }
        let path = result.evidence.path
        var issued = false
        if case .issued? = path.certificate { issued = true }
        guard issued || path.intermediary != nil else { return nil }
        return intermediary(.edgeCertificate, result, pin, machine)
    }

    /// The pin matches, on a certificate a CA renews: it breaks at the next renewal (a warning).
    static let pinOnRenewingCertificate = DiagnosisRule.gateway(.pinOnRenewingCertificate) { result, machine in
        guard let pin = result.check(.gwPin), pin.reason == .pinOnIssuedCertificate else { return nil }
        return intermediary(.pinOnRenewingCertificate, result, pin, machine)
    }

    /// Statuses a proxy answers with when its upstream fails: 502 (nothing, or another scheme,
    /// answers there), 503, 504 (the upstream timed out). A Gateway never answers them itself.
    static let upstreamFailures: Set<Int> = [502, 503, 504]

    /// A proxy answers /healthz (and the upgrade) with its upstream's failure; or a TLS upstream
    /// answered the proxy's plain HTTP with 400 (Go's and nginx's words for it).
    static let proxyUpstream = DiagnosisRule.gateway(.proxyUpstream, explains: [.gwHTTP: [.unhealthy], .gwWebSocket: [.upgradeRefused]]) {
        result, machine in
        guard result.evidence.path.intermediary != nil, let http = result.failing(.gwHTTP, [.unhealthy]),
            case .response(let status, let body, _, _)? = result.evidence.http?.health.outcome,
            upstreamFailures.contains(status)
                || (status == 400 && (UpstreamScheme.plainToTLS(body) || result.evidence.path.isTailscaleServe))
        else { return nil }
        let also = result.failing(.gwWebSocket, [.upgradeRefused]).map { [$0.id] } ?? []
        return intermediary(.proxyUpstream, result, http, machine, also: also)
    }

    /// The Gateway's health comes through the proxy, the WebSocket upgrade does not.
    static let proxyDropsUpgrade = DiagnosisRule.gateway(.proxyDropsUpgrade, explains: [.gwWebSocket: [.upgradeRefused, .upgradeFailed]]) {
        result, machine in
        guard result.evidence.path.intermediary != nil, result.check(.gwHTTP)?.status != .fail,
            let webSocket = result.failing(.gwWebSocket, [.upgradeRefused, .upgradeFailed])
        else { return nil }
        if let status = result.evidence.webSocket?.phase.outcome.rejection?.status, upstreamFailures.contains(status) { return nil }
        return intermediary(.proxyDropsUpgrade, result, webSocket, machine)
    }

    static let proxyIdleTimeout = DiagnosisRule.gateway(.proxyIdleTimeout, explains: [.gwWebSocket: [.closedWhenIdle]]) {
        result, machine in
        result.failing(.gwWebSocket, [.closedWhenIdle]).map { intermediary(.proxyIdleTimeout, result, $0, machine) }
    }

    static let originNotAllowed = DiagnosisRule.gateway(.originNotAllowed, explains: [.gwConnect: [.originNotAllowed]]) {
        result, machine in
        result.failing(.gwConnect, [.originNotAllowed]).map { intermediary(.originNotAllowed, result, $0, machine) }
    }

    static let proxyNotTrusted = DiagnosisRule.gateway(.proxyNotTrusted, explains: [.gwConnect: [.proxyNotTrusted]]) {
        result, machine in
        result.failing(.gwConnect, [.proxyNotTrusted]).map { intermediary(.proxyNotTrusted, result, $0, machine) }
    }

    /// Behind Tailscale Serve the Gateway refused the Tailscale identity headers.
    static let tailscaleServeIdentity = DiagnosisRule.gateway(.tailscaleServeIdentity, explains: [.gwConnect: [.tailscaleIdentityRefused]])
    {
        result, machine in
        result.failing(.gwConnect, [.tailscaleIdentityRefused]).map { intermediary(.tailscaleServeIdentity, result, $0, machine) }
    }

    /// A cause about what stands in front of the Gateway, shown by `check` (and `also`).
    static func intermediary(
        _ id: DiagnosisID, _ result: GatewayResult, _ check: Check, _ machine: MachineResult, also: [CheckID] = []
    ) -> Diagnosis {
        let label = result.target.label
        let facts = machine.facts
        let finding = IntermediaryFinding(
            target: label, check: check, path: result.evidence.path,
            gatewayTLS: facts.isGatewayHost ? facts.config.tlsEnabled ?? false : nil,
            gatewayPort: facts.isGatewayHost ? facts.config.gatewayPort : nil,
            loopback: !result.target.addresses.isEmpty && result.target.addresses.allSatisfy(\.isLoopback))
        return Diagnosis(id, .intermediary(finding), evidence: ([check.id] + also).map { .init($0, target: label) })
    }
}

/// What a rule found in front of a Gateway: the check that shows it, what doctor saw of the
/// path, and, on the Gateway's own host, whether the Gateway itself speaks TLS (which scheme a
/// proxy's upstream needs).
package struct IntermediaryFinding: Sendable, Equatable {
    package let target: String
    package let check: Check
    package let path: PathEvidence
    /// gateway.tls.enabled of this machine's Gateway; nil when this is not its host.
    package let gatewayTLS: Bool?
    /// gateway.port of this machine's Gateway; nil when this is not its host.
    package let gatewayPort: Int?
    /// doctor reached the proxy on loopback: it runs on this host (the Gateway sees it as 127.0.0.1
    /// when the Gateway runs here too).
    package let loopback: Bool
}

/// The answers by which a TLS server tells that it was spoken to in plain HTTP.
enum UpstreamScheme {
    /// Go's net/http (Caddy, Tailscale Serve's backend, most Go servers) and nginx.
    static let plainToTLSAnswers = ["client sent an http request to an https server", "the plain http request was sent to https port"]

    static func plainToTLS(_ body: String) -> Bool {
        let lowered = body.lowercased()
        return plainToTLSAnswers.contains { lowered.contains($0) }
    }
}
