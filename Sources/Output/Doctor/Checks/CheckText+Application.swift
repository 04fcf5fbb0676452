import DNSSD
import Doctor
import Probes

/// The words of gw.http, gw.websocket and gw.protocol: what answers on the Gateway's port.
extension CheckText {
    static func http(_ reason: CheckReason, _ evidence: HTTPEvidence) -> CheckText {
        let health = evidence.health.outcome
        switch health {
        case .response(let status, let body, let server, _):
            let shown =
                SafeText.display(Array(body.utf8.prefix(60))) + (server.map { " (Server: \(SafeText.display(Array($0.utf8))))" } ?? "")
            switch reason {
            case .notGatewayHealth:
                return CheckText(
                    "/healthz answered 200 but not with a Gateway's {\"ok\":true,...}: \(shown)", fix: anotherProgramFix(evidence.port))
            case .unhealthy: return CheckText("/healthz answered \(status) \(shown)", fix: anotherProgramFix(evidence.port))
            case .notReady:
                guard case .response(let ready, _, _, _)? = evidence.ready?.outcome else { break }
                return CheckText(
                    "/healthz 200, but /readyz \(ready): the Gateway is starting or draining",
                    fix: "wait a moment and run doctor again; if it stays, see the Gateway's log")
            default: break
            }
            return CheckText("/healthz 200 \(body.trimmingSpaces().prefix(60)), /readyz 200")
        case .failed(let reason): return CheckText("/healthz: \(reason)", fix: "see the Gateway's log")
        case .wantsTLS: return CheckText("/healthz: \(wantsTLS)", fix: tlsFix(evidence.hostHeader))
        case .timedOut(let bytes):
            return CheckText(
                "/healthz gave no complete answer within \(seconds(evidence.budget)) s (\(bytes) bytes)",
                fix: "the server is hung or slow: see its log")
        }
    }

    static func webSocket(_ evidence: WebSocketEvidence) -> CheckText {
        let proxyFix =
            "connect to the Gateway itself, or let the proxy pass WebSockets (nginx: `proxy_http_version 1.1; proxy_set_header Upgrade "
            + "$http_upgrade; proxy_set_header Connection \"upgrade\";`)"
        switch evidence.phase.outcome {
        case .opened, .frameTooLarge:
            let idle = idleWords(evidence.idle?.outcome, tick: evidence.tickInterval) + admittedAfter(evidence.refusals)
            guard case .closed? = evidence.idle?.outcome else {
                return CheckText("101 Switching Protocols with a valid Sec-WebSocket-Accept" + idle)
            }
            return CheckText(
                "101 Switching Protocols" + idle + ": something in the path cuts idle WebSockets",
                fix: ProxyDirectives.idleTimeout(nil))
        case .closedBeforeFirstFrame, .framesBroken, .timedOut(upgraded: true, _): return CheckText("101 Switching Protocols")
        case .upgradeRefused(let rejection): return upgradeRejected(rejection, evidence, proxyFix: proxyFix)
        case .upgradeFailed(let reason): return CheckText(reason, fix: proxyFix)
        case .wantsTLS: return CheckText(wantsTLS, fix: tlsFix(evidence.hostHeader))
        case .timedOut(_, let bytes):
            return CheckText("no answer to the WebSocket upgrade within \(seconds(evidence.budget)) s (\(bytes) bytes)", fix: proxyFix)
        case .failed(let reason): return CheckText(reason, fix: "see the Gateway's log")
        }
    }

    static func firstFrame(_ evidence: WebSocketEvidence) -> CheckText {
        let notGateway = "this is not an OpenClaw Gateway"
        switch evidence.phase.outcome {
        case .opened(let frame, _):
            switch frame.content {
            case .challenge(let nonce): return CheckText("connect.challenge (nonce \(nonce.prefix(12))…)")
            case .unexpected(let problem):
                return CheckText(
                    "\(problem): \(SafeText.display(Array(frame.text.utf8.prefix(80))))",
                    fix: "\(notGateway), or one far older or newer than this clawnet (protocol v3/v4)")
            }
        case .frameTooLarge(let limit):
            return CheckText(
                "the first frame is larger than \(limit / 1024) KiB, the limit before the handshake is complete",
                fix: "\(notGateway) (its connect.challenge is a few hundred bytes)")
        case .closedBeforeFirstFrame(let code):
            return CheckText(
                "the server closed the WebSocket\(code.map { " (code \($0))" } ?? "") before its first frame",
                fix: "see the Gateway's log: it refused the connection before the handshake")
        case .timedOut(_, let bytes):
            return CheckText(
                "no complete first frame within \(seconds(evidence.budget)) s (\(bytes) bytes arrived): the server stalls",
                fix: "the Gateway sends connect.challenge at once; a slow or broken proxy in between?")
        case .framesBroken(let reason):
            return CheckText(reason, fix: "\(notGateway) (its connect.challenge comes at once, in one small frame)")
        case .upgradeRefused, .upgradeFailed, .wantsTLS, .failed:
            return skipped(.gwProtocol, .needsWebSocket)
        }
    }

    /// What a program other than the Gateway on its port means to do about it.
    static func anotherProgramFix(_ port: Int) -> String {
        "a Gateway answers /healthz with 200 {\"ok\":true,...}: on the Gateway host `ss -ltnp 'sport = :\(port)'` names what listens; "
            + "stop it or move the Gateway (gateway.port), or let a proxy pass /healthz and WebSockets through"
    }

    static let wantsTLS = "the server speaks TLS on this port (plain HTTP got no answer, a TLS handshake did): it expects wss://"

    /// A plain probe met a TLS server: wss:// is the way in, and a beacon should say so.
    static func tlsFix(_ hostHeader: String) -> String {
        "check it as `clawnet doctor \(ShellWord.quoted("wss://" + hostHeader))`; a Gateway with TLS should advertise gatewayTls=1 (and "
            + "gatewayTlsSha256) so nodes use wss://"
    }
}
