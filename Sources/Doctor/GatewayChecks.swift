import Avahi
import DNSSD
import FoundationEssentials
import Host
import Probes

/// Why a Gateway's name gave no address, as far as doctor could tell.
public struct DNSProblem: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// The name does not exist (NXDOMAIN).
        case notFound
        /// No answer in time, or the resolver failed for now.
        case noAnswer
        case other
        /// A `.local` name, and nsswitch does not ask mDNS (no libnss-mdns).
        case localWithoutNSS
        /// A `*.ts.net` name that only Tailscale's resolver 100.100.100.100 knows: these addresses.
        case magicDNSOnly([IPAddress])
    }

    public let message: String
    public let kind: Kind

    public init(_ message: String, kind: Kind) {
        self.message = message
        self.kind = kind
    }
}

/// The checks of one Gateway, from its probe report: gw.dns, gw.tcp, gw.tls, gw.pin, gw.cert,
/// gw.http, gw.websocket, gw.protocol, gw.connect. A check whose layer did not run is a skip
/// that says why.
public enum GatewayChecks {
    public static func run(
        _ report: ProbeReport, dnsProblem: DNSProblem?, pin: TLSFingerprint?, pinSource: String = "--pin", budget: Duration,
        routes: [Route] = [], now: Date = Date()
    ) -> [Check] {
        let target = report.target
        var checks = [dns(target, problem: dnsProblem)]
        guard !target.addresses.isEmpty else {
            return checks + skipped(CheckID.gateway.dropFirst(), .needsAddress, "needs an address")
        }
        checks.append(tcp(report, budget: budget, routes: routes))
        guard report.connectedAddress != nil else {
            return checks + skipped(CheckID.gateway.dropFirst(2), .needsTCP, "needs a TCP connection")
        }
        checks.append(tls(report, budget: budget))
        if let facts = report.tlsFacts {
            checks.append(pinCheck(target, observed: facts.fingerprint, pin: pin, source: pinSource))
            checks.append(certificate(facts, now: now))
        } else {
            checks +=
                target.tls
                ? skipped([.gwPin, .gwCert], .needsTLS, "needs a TLS handshake")
                : skipped([.gwPin, .gwCert], .noCertificate, "plain ws:// Gateway: no certificate")
        }
        if target.tls && report.tlsFacts == nil {
            return checks + skipped([.gwHTTP, .gwWebSocket, .gwProtocol, .gwConnect], .needsTLS, "needs a TLS handshake")
        }
        checks.append(http(report, budget: budget))
        checks += websocket(report, budget: budget)
        checks.append(connect(report, budget: budget))
        return checks
    }

    /// Checks that could not run, each saying why.
    static func skipped(_ ids: some Sequence<CheckID>, _ reason: CheckReason, _ why: String) -> [Check] {
        ids.map { Check($0, .skip, reason, why) }
    }

    static func dns(_ target: ProbeTarget, problem: DNSProblem?) -> Check {
        if target.addresses.isEmpty {
            let host = ConnectURL.withoutTrailingDot(target.host)
            let message = problem?.message ?? "no address for \(host)"
            switch problem?.kind {
            case .notFound?:
                return Check(
                    .gwDNS, .fail, .nameNotFound, "\(message) (NXDOMAIN: the name does not exist)",
                    fix: "check the spelling, and the A/AAAA records of \(host) (`dig \(host)`)")
            case .localWithoutNSS?:
                return Check(
                    .gwDNS, .fail, .localNameWithoutNSS, "\(message): nsswitch does not ask mDNS for .local names",
                    fix: "`sudo apt install libnss-mdns` (it adds mdns4_minimal to the hosts: line of /etc/nsswitch.conf)")
            case .magicDNSOnly(let addresses)?:
                return Check(
                    .gwDNS, .fail, .magicDNSNotApplied,
                    "\(message); Tailscale's resolver 100.100.100.100 knows it (\(addresses.map(\.description).joined(separator: ", "))): "
                        + "MagicDNS is not applied on this machine",
                    fix:
                        "`sudo tailscale set --accept-dns=true`; on Linux Tailscale installs its resolver through systemd-resolved or "
                        + "NetworkManager (/etc/resolv.conf must point to 127.0.0.53 or be managed by tailscaled)",
                    detail: ["magicDNS": addresses.map(\.description).joined(separator: ",")])
            default:
                return Check(
                    .gwDNS, .fail, .noAddress, message,
                    fix: HostNameKind(host) == .multicastDNS
                        ? "`.local` names resolve through Avahi (install libnss-mdns for other programs); is the Gateway host up?"
                        : "check the A/AAAA records of \(host) (`dig \(host)`) and the resolver in /etc/resolv.conf")
            }
        }
        let addresses = target.addresses.map(\.description).joined(separator: ", ")
        return Check(
            .gwDNS, .pass, .ok,
            IPAddress(target.host) != nil ? "address \(addresses)" : "\(ConnectURL.withoutTrailingDot(target.host)) → \(addresses)",
            detail: ["addresses": addresses])
    }

    static func tcp(_ report: ProbeReport, budget: Duration, routes: [Route] = []) -> Check {
        let port = report.target.port
        let detail = Dictionary(
            report.tcp.map { ($0.address.description, $0.outcome.word) }, uniquingKeysWith: { first, _ in first })
        if let good = report.tcp.first(where: { $0.outcome == .connected }) {
            let failed = report.tcp.filter { $0.outcome != .connected }
            let note =
                failed.isEmpty ? "" : "; not on \(failed.map { "\($0.address) (\($0.outcome.description))" }.joined(separator: ", "))"
            // An advertised address this machine has no route to: a node that tries it first waits.
            let lost = failed.filter { $0.outcome != .refused && RoutingTable.specificRoute(to: $0.address, in: routes) == nil }
            if !lost.isEmpty && !routes.isEmpty {
                return Check(
                    .gwTCP, .warn, .partlyUnreachable,
                    "connected to \(authority(good.address, port)) in \(good.elapsed.milliseconds) ms\(note): this machine has no route to "
                        + "\(lost.map(\.address.description).joined(separator: ", "))",
                    fix:
                        "on the Gateway host keep that address out of the beacon (Avahi: deny-interfaces=docker0 in "
                        + "/etc/avahi/avahi-daemon.conf); nodes try every advertised address",
                    elapsed: good.elapsed, detail: detail)
            }
            return Check(
                .gwTCP, .pass, .ok, "connected to \(authority(good.address, port)) in \(good.elapsed.milliseconds) ms\(note)",
                elapsed: good.elapsed, detail: detail)
        }
        let elapsed = report.tcp.map(\.elapsed).max() ?? .zero
        let all = report.tcp.map { "\(authority($0.address, port)) \($0.outcome.description)" }.joined(separator: "; ")
        if report.tcp.allSatisfy({ $0.outcome == .refused }), report.target.addresses.allSatisfy(\.isLoopback) {
            return Check(
                .gwTCP, .fail, .nothingListensLocally, "no Gateway listens on this machine (\(all))",
                fix: "start the Gateway here (`openclaw gateway`), or name the one to check: `clawnet doctor wss://<host>:\(port)`",
                elapsed: elapsed, detail: detail)
        }
        if report.tcp.allSatisfy({ $0.outcome == .refused }) {
            return Check(
                .gwTCP, .fail, .refused, "connection refused: \(all) (nothing listens there)",
                fix:
                    "is the Gateway running, and listening on this address? On the Gateway host: `ss -ltnp | grep \(port)`; gateway.bind "
                    + "loopback accepts local connections only",
                elapsed: elapsed, detail: detail)
        }
        if report.tcp.contains(where: { $0.outcome == .timedOut }) {
            return Check(
                .gwTCP, .fail, .timedOut,
                "no answer within \(budget.secondsText(fractionDigits: 1)) s: \(all): a firewall drops the packets, or the host is down",
                fix:
                    "allow TCP \(port) on the Gateway host's firewall (`sudo ufw allow \(port)/tcp`, or nftables/iptables) and on the "
                    + "network in between; check the host is up",
                elapsed: elapsed, detail: detail)
        }
        return Check(
            .gwTCP, .fail, .unreachable, "cannot connect: \(all)",
            fix:
                "check the route to the Gateway (`ip route get \(report.target.addresses.first?.description ?? "")`) and that the host is "
                + "on this network",
            elapsed: elapsed, detail: detail)
    }

    static func tls(_ report: ProbeReport, budget: Duration) -> Check {
        guard report.target.tls, let phase = report.tls else {
            return Check(.gwTLS, .skip, .plainGateway, "plain ws:// Gateway: no TLS advertised (gatewayTls) or asked for (wss://)")
        }
        switch phase.outcome {
        case .established(let facts):
            let detail = ["version": facts.version.description, "cipher": facts.cipher ?? "unknown", "sha256": facts.fingerprint.hex]
            guard facts.version == .tls13 else {
                return Check(
                    .gwTLS, .fail, .tlsVersion,
                    "the server negotiated \(facts.version) (\(facts.cipher ?? "cipher unknown")); OpenClaw Gateways require TLS 1.3",
                    fix:
                        "something other than the Gateway answers TLS (a proxy or load balancer?): make it speak TLS 1.3 or pass TLS "
                        + "through",
                    elapsed: phase.elapsed, detail: detail)
            }
            return Check(
                .gwTLS, .pass, .ok, "\(facts.version), \(facts.cipher ?? "cipher unknown"), sha256 \(facts.fingerprint.hex)",
                elapsed: phase.elapsed, detail: detail)
        case .notTLS(let first):
            let shown = SafeText.display(first.prefix(24))
            let http = first.starts(with: Array("HTTP/".utf8))
            return Check(
                .gwTLS, .fail, .notTLS, "the server answered \"\(shown)…\" instead of a TLS handshake",
                fix: http
                    ? "the Gateway serves plain HTTP/WebSocket: connect with ws:// (or enable gateway.tls on it)"
                    : "something that is neither TLS nor the Gateway listens on port \(report.target.port)",
                elapsed: phase.elapsed)
        case .alert(let alert):
            return Check(
                .gwTLS, .fail, .tlsAlert, "the server refused the handshake with \(alert)",
                fix: "OpenClaw Gateways speak TLS 1.3; check what listens on port \(report.target.port)", elapsed: phase.elapsed)
        case .handshakeFailed(let reason):
            return Check(
                .gwTLS, .fail, .handshakeFailed, "TLS handshake failed: \(reason)",
                fix: "check that the Gateway, not a proxy, answers on port \(report.target.port)", elapsed: phase.elapsed)
        case .timedOut(let bytes):
            return Check(
                .gwTLS, .fail, .handshakeTimedOut,
                "no TLS handshake within \(budget.secondsText(fractionDigits: 1)) s (\(bytes) bytes received): the server accepts "
                    + "connections but does not answer TLS",
                fix:
                    "is the Gateway hung, or is this a plain TCP service? Try `openssl s_client -connect "
                    + "\(authority(report.connectedAddress!, report.target.port))`",
                elapsed: phase.elapsed)
        }
    }

    /// OpenClaw's rule: the user's pin decides; a TXT fingerprint is a hint and never
    /// overrides it.
    static func pinCheck(_ target: ProbeTarget, observed: TLSFingerprint, pin: TLSFingerprint?, source: String = "--pin") -> Check {
        let detail = ["observed": observed.hex]
        if let pin {
            guard pin == observed else {
                return Check(
                    .gwPin, .fail, .pinMismatch,
                    "TLS certificate pin mismatch for \(ConnectURL.withoutTrailingDot(target.host)) "
                        + "(expected \(pin.hex), observed \(observed.hex))",
                    fix:
                        "if the Gateway's certificate was rotated, check the new one on the Gateway host (`openssl x509 -in "
                        + "~/.openclaw/gateway/tls/gateway-cert.pem -outform DER | sha256sum`) and pin that; otherwise something "
                        + "intercepts TLS",
                    detail: detail.merging(["expected": pin.hex]) { $1 })
            }
            if let advertised = target.advertisedFingerprint, advertised != observed {
                return Check(
                    .gwPin, .warn, .advertisedStale,
                    "matches your pin; the beacon's TXT advertises another fingerprint (\(advertised.hex)): a stale beacon?",
                    fix: "restart the Gateway so it advertises its current certificate", detail: detail)
            }
            return Check(.gwPin, .pass, .ok, "matches the pin (\(source))", detail: detail)
        }
        if let advertised = target.advertisedFingerprint {
            guard advertised == observed else {
                return Check(
                    .gwPin, .fail, .advertisedMismatch,
                    "the certificate's fingerprint \(observed.hex) differs from the beacon's gatewayTlsSha256 \(advertised.hex)",
                    fix:
                        "either the Gateway's certificate was rotated and its beacon is stale (restart the Gateway), or a TLS-terminating "
                        + "proxy sits in the path: check the fingerprint on the Gateway host",
                    detail: detail.merging(["advertised": advertised.hex]) { $1 })
            }
            return Check(.gwPin, .pass, .ok, "matches the fingerprint the beacon advertises", detail: detail)
        }
        return Check(
            .gwPin, .pass, .ok, "nothing pinned yet: a node's first connection shows \(observed.hex) and asks to trust it", detail: detail)
    }

    static func certificate(_ facts: TLSFacts, now: Date) -> Check {
        guard let certificate = facts.certificate else {
            return Check(
                .gwCert, .warn, .certificateUnreadable, facts.certificateProblem ?? "the certificate could not be read",
                fix: "regenerate the Gateway's certificate")
        }
        let detail = [
            "subject": certificate.subject, "issuer": certificate.issuer, "notBefore": iso(certificate.notBefore),
            "notAfter": iso(certificate.notAfter), "selfSigned": String(certificate.selfSigned),
            "subjectAlternativeNames": certificate.subjectAlternativeNames.joined(separator: ","),
        ]
        let regenerate =
            "OpenClaw makes a new certificate when ~/.openclaw/gateway/tls is removed and the Gateway restarts; nodes then need the new pin"
        if certificate.notAfter < now {
            return Check(
                .gwCert, .fail, .certificateExpired, "the certificate (\(certificate.subject)) expired on \(iso(certificate.notAfter))",
                fix: regenerate, detail: detail)
        }
        if certificate.notBefore > now {
            return Check(
                .gwCert, .fail, .certificateNotYetValid,
                "the certificate is not valid before \(iso(certificate.notBefore)): a clock is wrong",
                fix: "check the time on both machines (`timedatectl`)", detail: detail)
        }
        let kind = certificate.selfSigned ? "self-signed" : "issued by \(certificate.issuer)"
        if certificate.notAfter.timeIntervalSince(now) < 14 * 86_400 {
            return Check(
                .gwCert, .warn, .certificateExpiresSoon, "\(certificate.subject), \(kind), expires on \(iso(certificate.notAfter))",
                fix: regenerate, detail: detail)
        }
        return Check(.gwCert, .pass, .ok, "\(certificate.subject), \(kind), valid until \(iso(certificate.notAfter))", detail: detail)
    }

    static func http(_ report: ProbeReport, budget: Duration) -> Check {
        guard let health = report.health else { return Check(.gwHTTP, .skip, .notRun, "not run") }
        let elapsed = health.elapsed
        switch health.outcome {
        case .response(200, let body, let server):
            guard HealthBody.isGateway(body) else {
                return Check(
                    .gwHTTP, .fail, .notGatewayHealth,
                    "/healthz answered 200 but not with a Gateway's {\"ok\":true,...}: \(SafeText.display(Array(body.utf8.prefix(60))))"
                        + (server.map { " (Server: \(SafeText.display(Array($0.utf8))))" } ?? ""),
                    fix: anotherProgramFix(report.target.port), elapsed: elapsed, detail: server.map { ["server": $0] } ?? [:])
            }
            if case .response(let status, _, _)? = report.ready?.outcome, status != 200 {
                return Check(
                    .gwHTTP, .warn, .notReady, "/healthz 200, but /readyz \(status): the Gateway is starting or draining",
                    fix: "wait a moment and run doctor again; if it stays, see the Gateway's log", elapsed: elapsed)
            }
            return Check(.gwHTTP, .pass, .ok, "/healthz 200 \(body.trimmingSpaces().prefix(60)), /readyz 200", elapsed: elapsed)
        case .response(let status, let body, let server):
            return Check(
                .gwHTTP, .fail, .unhealthy,
                "/healthz answered \(status) \(SafeText.display(Array(body.utf8.prefix(60))))"
                    + (server.map { " (Server: \(SafeText.display(Array($0.utf8))))" } ?? ""),
                fix: anotherProgramFix(report.target.port), elapsed: elapsed, detail: server.map { ["server": $0] } ?? [:])
        case .failed(let reason):
            return Check(.gwHTTP, .fail, .healthFailed, "/healthz: \(reason)", fix: "see the Gateway's log", elapsed: elapsed)
        case .wantsTLS:
            return Check(.gwHTTP, .fail, .wantsTLS, "/healthz: \(wantsTLS)", fix: tlsFix(report.target), elapsed: elapsed)
        case .timedOut(let bytes):
            return Check(
                .gwHTTP, .fail, .healthTimedOut,
                "/healthz gave no complete answer within \(budget.secondsText(fractionDigits: 1)) s (\(bytes) bytes)",
                fix: "the server is hung or slow: see its log", elapsed: elapsed)
        }
    }

    static func websocket(_ report: ProbeReport, budget: Duration) -> [Check] {
        guard let phase = report.websocket else {
            return [Check(.gwWebSocket, .skip, .notRun, "not run"), Check(.gwProtocol, .skip, .notRun, "not run")]
        }
        let elapsed = phase.elapsed
        let proxyFix =
            "connect to the Gateway itself, or let the proxy pass WebSockets (nginx: `proxy_http_version 1.1; proxy_set_header Upgrade "
            + "$http_upgrade; proxy_set_header Connection \"upgrade\";`)"
        /// The upgrade worked: "101 Switching Protocols", with the words each outcome has always used.
        func switched(withAccept: Bool) -> Check {
            Check(
                .gwWebSocket, .pass, .ok,
                withAccept ? "101 Switching Protocols with a valid Sec-WebSocket-Accept" : "101 Switching Protocols",
                elapsed: elapsed)
        }
        let noWebSocket = Check(.gwProtocol, .skip, .needsWebSocket, "needs a WebSocket")
        switch phase.outcome {
        case .opened(let frame, _):
            switch frame.content {
            case .unexpected(let problem):
                return [
                    switched(withAccept: true),
                    Check(
                        .gwProtocol, .fail, .unexpectedFirstFrame, "\(problem): \(SafeText.display(Array(frame.text.utf8.prefix(80))))",
                        fix: "this is not an OpenClaw Gateway, or one far older or newer than this clawnet (protocol v3/v4)",
                        elapsed: elapsed),
                ]
            case .challenge(let nonce):
                return [
                    switched(withAccept: true),
                    Check(.gwProtocol, .pass, .ok, "connect.challenge (nonce \(nonce.prefix(12))…)", elapsed: elapsed),
                ]
            }
        case .upgradeRefused(let status):
            return [
                Check(
                    .gwWebSocket, .fail, .upgradeRefused,
                    "the server answered the WebSocket upgrade with HTTP \(status): not a Gateway, or a proxy that does not pass "
                        + "WebSockets",
                    fix: proxyFix, elapsed: elapsed),
                noWebSocket,
            ]
        case .upgradeFailed(let reason):
            return [
                Check(.gwWebSocket, .fail, .upgradeFailed, reason, fix: proxyFix, elapsed: elapsed),
                noWebSocket,
            ]
        case .wantsTLS:
            return [
                Check(.gwWebSocket, .fail, .wantsTLS, wantsTLS, fix: tlsFix(report.target), elapsed: elapsed, detail: ["wantsTLS": "true"]),
                noWebSocket,
            ]
        case .frameTooLarge(let limit):
            return [
                switched(withAccept: true),
                Check(
                    .gwProtocol, .fail, .frameTooLarge,
                    "the first frame is larger than \(limit / 1024) KiB, the limit before the handshake is complete",
                    fix: "this is not an OpenClaw Gateway (its connect.challenge is a few hundred bytes)", elapsed: elapsed),
            ]
        case .closedBeforeFirstFrame(let code):
            return [
                switched(withAccept: false),
                Check(
                    .gwProtocol, .fail, .closedBeforeFirstFrame,
                    "the server closed the WebSocket\(code.map { " (code \($0))" } ?? "") before its first frame",
                    fix: "see the Gateway's log: it refused the connection before the handshake", elapsed: elapsed),
            ]
        case .timedOut(let upgraded, let bytes):
            if upgraded {
                return [
                    switched(withAccept: false),
                    Check(
                        .gwProtocol, .fail, .firstFrameTimedOut,
                        "no complete first frame within \(budget.secondsText(fractionDigits: 1)) s (\(bytes) bytes arrived): the server "
                            + "stalls",
                        fix: "the Gateway sends connect.challenge at once; a slow or broken proxy in between?", elapsed: elapsed),
                ]
            }
            return [
                Check(
                    .gwWebSocket, .fail, .upgradeTimedOut,
                    "no answer to the WebSocket upgrade within \(budget.secondsText(fractionDigits: 1)) s (\(bytes) bytes)",
                    fix: proxyFix, elapsed: elapsed),
                noWebSocket,
            ]
        case .framesBroken(let reason):
            return [
                switched(withAccept: false),
                Check(
                    .gwProtocol, .fail, .framesBroken, reason,
                    fix: "this is not an OpenClaw Gateway (its connect.challenge comes at once, in one small frame)", elapsed: elapsed),
            ]
        case .failed(let reason):
            return [
                Check(.gwWebSocket, .fail, .webSocketFailed, reason, fix: "see the Gateway's log", elapsed: elapsed),
                noWebSocket,
            ]
        }
    }

    /// What a program other than the Gateway on its port means to do about it.
    static func anotherProgramFix(_ port: Int) -> String {
        "a Gateway answers /healthz with 200 {\"ok\":true,...}: on the Gateway host `ss -ltnp 'sport = :\(port)'` names what listens; "
            + "stop it or move the Gateway (gateway.port), or let a proxy pass /healthz and WebSockets through"
    }

    static let wantsTLS = "the server speaks TLS on this port (plain HTTP got no answer, a TLS handshake did): it expects wss://"

    /// A plain probe met a TLS server: wss:// is the way in, and a beacon should say so.
    static func tlsFix(_ target: ProbeTarget) -> String {
        "check it as `clawnet doctor wss://\(GatewayProbe.hostHeader(target))`; a Gateway with TLS should advertise gatewayTls=1 (and "
            + "gatewayTlsSha256) so nodes use wss://"
    }

    static func authority(_ address: IPAddress, _ port: Int) -> String {
        Endpoint(host: address.description, port: port).description
    }

    static func iso(_ date: Date) -> String {
        UTCDay.timestamp(unixSeconds: Int64(date.timeIntervalSince1970.rounded(.down)))
    }
}
