import DNSSD
import Doctor

/// The words of one check, written from its reason and its typed evidence: the message, and
/// the fix (a concrete command or setting; every warn and fail has one). The one place doctor's
/// checks become English; `CheckDetail` writes the JSON detail from the same evidence.
struct CheckText: Equatable {
    let message: String
    let fix: String?

    init(_ message: String, fix: String? = nil) {
        self.message = message
        self.fix = fix
    }

    init(_ check: Check) {
        self = Self.words(check)
    }

    static func words(_ check: Check) -> CheckText {
        let reason = check.reason
        switch check.evidence {
        case .none: return skipped(check.id, reason)
        case .config(let evidence): return config(reason, evidence)
        case .advertising(let evidence): return advertising(reason, evidence)
        case .bus(let address, let installed): return bus(reason, address, daemonInstalled: installed)
        case .daemon(let status): return daemon(check.reason, status)
        case .interfaces(let evidence): return interfaces(reason, evidence)
        case .port5353(let evidence): return port5353(evidence)
        case .nss(let evidence): return nss(reason, evidence)
        case .browse(let evidence): return browse(reason, evidence)
        case .resolver(let evidence): return resolver(reason, evidence)
        case .wideArea(let evidence): return wideArea(reason, evidence)
        case .tailnet(let evidence): return tailnet(reason, evidence)
        case .identity(let evidence): return identity(reason, evidence)
        case .gateways(let evidence): return gateways(reason, evidence)
        case .phones(let evidence): return phones(reason, evidence)
        case .dns(let evidence): return dns(reason, evidence)
        case .tcp(let evidence): return tcp(reason, evidence)
        case .tls(let evidence): return reason == .tlsNotConfigured ? tlsNotConfigured(evidence) : tls(evidence)
        case .pin(let evidence): return pin(reason, evidence)
        case .certificate(let facts): return certificate(reason, facts)
        case .http(let evidence): return http(reason, evidence)
        case .webSocket(let evidence): return check.id == .gwProtocol ? firstFrame(evidence) : webSocket(evidence)
        case .connect(let evidence, let answer): return connect(check, evidence, answer: answer)
        }
    }

    /// A check that did not run, by why.
    static func skipped(_ id: CheckID, _ reason: CheckReason) -> CheckText {
        switch reason {
        case .notRun: CheckText("not run")
        case .needsBus: CheckText("needs the D-Bus system bus")
        case .needsDaemon: CheckText("needs avahi-daemon")
        case .needsAddress: CheckText("needs an address")
        case .needsTCP: CheckText("needs a TCP connection")
        case .needsTLS: CheckText("needs a TLS handshake")
        case .noCertificate: CheckText("plain ws:// Gateway: no certificate")
        case .needsWebSocket: CheckText("needs a WebSocket")
        case .needsChallenge: CheckText("needs connect.challenge")
        case .localNotBrowsed where id == .mdnsBrowse: CheckText("local. was not browsed (--no-local)")
        case .localNotBrowsed: CheckText("mDNS is not checked (--no-local)")
        case .plainGateway: CheckText("plain ws:// Gateway: no TLS advertised (gatewayTls) or asked for (wss://)")
        case .noDomain: CheckText("no wide-area domain configured (--domain, discovery.wideArea.domain or OPENCLAW_WIDE_AREA_DOMAIN)")
        default: CheckText(reason.rawValue)
        }
    }
}
