import DNSSD
import FoundationEssentials
import Probes

/// What stands between doctor and the Gateway, as far as doctor can see it: the Server and Via
/// headers of the /healthz answer (a Gateway's own answers carry neither: Node's http server
/// adds none), whose certificate the address presents, and a WebSocket held idle behind a
/// proxy. What it cannot see: the proxy's upstream address and scheme, and its idle timeout
/// beyond `GatewayProbe.idleWatch`.
package struct PathEvidence: Sendable, Equatable {
    package let server: String?
    package let via: String?
    package let certificate: CertificateOrigin?
    /// The target's host as given (`*.ts.net` on 443 is Tailscale Serve).
    package let host: String
    package let port: Int

    init(report: ProbeReport) {
        if case .response(_, _, let server, let via)? = report.health?.outcome {
            (self.server, self.via) = (server, via)
        } else {
            (self.server, self.via) = (nil, nil)
        }
        certificate = report.tlsFacts.flatMap(CertificateOrigin.init)
        host = report.target.host.lowercased()
        port = report.target.port
    }

    /// The intermediary doctor names: from the Server header, else the Via header, else the
    /// certificate's issuer or the host.
    package var intermediary: Intermediary? {
        if let server { return Intermediary(server: server) }
        if let via { return .other(via) }
        if case .issued(let issuer, _)? = certificate, issuer.lowercased().contains("cloudflare") { return .cloudflare }
        if isTailscaleServe { return .tailscaleServe }
        return nil
    }

    /// A `*.ts.net` name on 443 with TLS: Tailscale Serve answers there, the Gateway binds
    /// loopback behind it (docs/gateway/tailscale.md).
    package var isTailscaleServe: Bool { host.hasSuffix(".ts.net") && port == 443 && certificate != nil }
}

/// A program in front of the Gateway, named where doctor gives its exact directive.
package enum Intermediary: Sendable, Equatable, CustomStringConvertible {
    case nginx, caddy, cloudflare, tailscaleServe
    case other(String)

    init(server: String) {
        let name = server.lowercased()
        if name.hasPrefix("nginx") || name.hasPrefix("openresty") {
            self = .nginx
        } else if name.hasPrefix("caddy") {
            self = .caddy
        } else if name.hasPrefix("cloudflare") {
            self = .cloudflare
        } else {
            self = .other(server)
        }
    }

    package var description: String {
        switch self {
        case .nginx: "nginx"
        case .caddy: "Caddy"
        case .cloudflare: "Cloudflare"
        case .tailscaleServe: "Tailscale Serve"
        case .other(let name): name
        }
    }
}

/// Whose certificate an address presents, as far as its form tells: OpenClaw's Gateway makes its
/// own self-signed one (generateSelfSignedCert in src/infra/tls/gateway.ts, ten years); one a CA
/// issued is renewed on the CA's schedule (Let's Encrypt: every 60-90 days), and is most often
/// an edge's or a proxy's (Cloudflare, Caddy, Tailscale Serve), unless gateway.tls.certPath
/// points the Gateway at it.
package enum CertificateOrigin: Sendable, Equatable {
    case selfSigned
    /// The issuer's name, and when the certificate ends (it is renewed before).
    case issued(issuer: String, notAfter: Date)

    init?(_ facts: TLSFacts) {
        guard let certificate = facts.certificate else { return nil }
        self = certificate.selfSigned ? .selfSigned : .issued(issuer: certificate.issuer, notAfter: certificate.notAfter)
    }
}
