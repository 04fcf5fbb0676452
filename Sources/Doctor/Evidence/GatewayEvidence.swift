import DNSSD
import FoundationEssentials
import Host
import Probes

/// Everything doctor knows about one Gateway when it judges it, by layer: what its name gave,
/// and what each probe phase found. Built once from the probe's report; the checks are judged
/// from it, each keeping the part it read, and the rules read it through `GatewayResult`.
package struct GatewayEvidence: Sendable, Equatable {
    package let target: ProbeTarget
    package let beacon: GatewayBeacon?
    package internal(set) var dns: DNSEvidence
    package let tcp: TCPEvidence
    package let tls: TLSEvidence
    /// The certificate's fingerprint against the pin and the beacon (nil without a TLS session).
    package let pin: PinEvidence?
    package let http: HTTPEvidence?
    package let webSocket: WebSocketEvidence?
    package let connect: ConnectEvidence?
    /// What stands between doctor and the Gateway (a proxy, an edge), as far as it shows.
    package let path: PathEvidence
    /// The instant certificates are judged against.
    package let now: Date
    /// Whether its host is this machine (`GatewayJudgement` says).
    package internal(set) var host = GatewayHost.elsewhere

    /// `routes` is the main routing table (empty when unknown); `pin` what the Gateway is
    /// pinned to, and where that pin comes from.
    package init(
        _ report: ProbeReport, beacon: GatewayBeacon? = nil, dnsProblem: DNSProblem? = nil, pin: Pin? = nil, budget: Duration,
        routes: [Route] = [], now: Date = Date()
    ) {
        let target = report.target
        let hostHeader = GatewayProbe.hostHeader(target)
        self.target = target
        self.beacon = beacon
        self.now = now
        dns = DNSEvidence(host: target.host, addresses: target.addresses, problem: dnsProblem)
        tcp = TCPEvidence(report, budget: budget, routes: routes)
        tls = TLSEvidence(asked: target.tls, phase: report.tls, port: target.port, budget: budget, address: report.connectedAddress)
        self.pin = report.tlsFacts.map { facts in
            PinEvidence(
                observed: facts.fingerprint, pin: pin, advertised: target.advertisedFingerprint,
                host: target.host, certificate: CertificateOrigin(facts), records: AdvertisedFingerprint.all(beacon))
        }
        path = PathEvidence(report: report)
        http = report.health.map {
            HTTPEvidence(health: $0, ready: report.ready, port: target.port, budget: budget, hostHeader: hostHeader)
        }
        var webSocket = report.websocket.map {
            WebSocketEvidence(phase: $0, budget: budget, hostHeader: hostHeader, idle: report.idle, refusals: report.upgradeRefusals)
        }
        if case .helloOk(let hello)? = report.connect?.outcome { webSocket?.announcedTick = hello.tickInterval }
        self.webSocket = webSocket
        connect = report.connect.map { phase in
            ConnectEvidence(
                phase: phase, offered: target.credentials, decision: report.credentials, budget: budget,
                host: target.host, port: target.port, hostHeader: hostHeader, tries: report.connectTries)
        }
    }

    /// What each layer hands to the layers that need it: an address, a connection, a TLS
    /// session (or none asked for), an opened WebSocket, the challenge.
    func delivered(_ id: CheckID) -> Bool {
        switch id {
        case .gwDNS: !dns.addresses.isEmpty
        case .gwTCP: tcp.connected != nil
        case .gwTLS: !tls.asked || tls.facts != nil
        case .gwWebSocket: webSocket?.upgraded == true
        case .gwProtocol: webSocket?.challenge != nil
        default: true
        }
    }
}

/// The fingerprint a Gateway is pinned to, and where the pin comes from.
package struct Pin: Sendable, Equatable {
    package enum Source: Sendable, Equatable {
        /// `--pin`.
        case flag
        /// `gateway.remote.tlsFingerprint` in the node's config.
        case remoteConfig
    }

    package let fingerprint: TLSFingerprint
    package let source: Source

    package init(_ fingerprint: TLSFingerprint, source: Source = .flag) {
        self.fingerprint = fingerprint
        self.source = source
    }
}

/// Why a Gateway's name gave no address, as far as doctor could tell.
package struct DNSProblem: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// The name does not exist (NXDOMAIN).
        case notFound
        /// No answer in time, or the resolver failed for now.
        case noAnswer
        case other
        /// A `.local` name, and nsswitch does not ask mDNS (no libnss-mdns).
        case localWithoutNSS
        /// A `.local` name nsswitch did not resolve that avahi-daemon did (the addresses are
        /// Avahi's); `nssMdns`: nsswitch asks mDNS, so nss-mdns could not reach the daemon.
        case onlyAvahi(nssMdns: Bool)
        /// A `.local` name nsswitch did not resolve, and no host answered avahi-daemon for it.
        case noMDNSAnswer
        /// A `*.ts.net` name that only Tailscale's resolver 100.100.100.100 knows: these addresses.
        case magicDNSOnly([IPAddress])
    }

    /// The lookup's own words (getaddrinfo's, or its time limit).
    package let message: String
    package let kind: Kind

    package init(_ message: String, kind: Kind) {
        self.message = message
        self.kind = kind
    }
}

/// gw.dns: the name as given and what it gave.
package struct DNSEvidence: Sendable, Equatable {
    /// The host name or address (or the text that matched nothing).
    package let host: String
    package let addresses: [IPAddress]
    package let problem: DNSProblem?
    /// The target named no known Gateway and is no host name or URL.
    package var unknownTarget = false
}

/// gw.tcp: one attempt per address, and which of the silent ones this machine has no route to.
package struct TCPEvidence: Sendable, Equatable {
    package let attempts: [TCPAttempt]
    /// The addresses tried, in order.
    package let addresses: [IPAddress]
    package let port: Int
    package let budget: Duration
    /// Addresses that neither connected, refused nor reset (a firewall, no route).
    package let silent: [IPAddress]
    /// The silent addresses this machine has no specific route to; empty when the routing
    /// table is unknown.
    package let unroutable: [IPAddress]
    /// How the report names the target.
    package let label: String

    init(_ report: ProbeReport, budget: Duration, routes: [Route]) {
        attempts = report.tcp
        addresses = report.target.addresses
        port = report.target.port
        self.budget = budget
        label = report.target.label
        let silentAttempts = report.tcp.filter { ![.connected, .refused, .reset].contains($0.outcome) }.map(\.address)
        silent = report.target.addresses.filter(silentAttempts.contains)
        unroutable = routes.isEmpty ? [] : silent.filter { RoutingTable.specificRoute(to: $0, in: routes) == nil }
    }

    /// The first attempt that connected.
    package var connected: TCPAttempt? { attempts.first { $0.outcome == .connected } }
}

/// gw.tls: the handshake on the first connection (nil when none was made or asked for).
package struct TLSEvidence: Sendable, Equatable {
    /// The target is to speak TLS (wss://, gatewayTls=1, gateway.tls.enabled).
    package let asked: Bool
    package let phase: PhaseTiming<TLSOutcome>?
    package let port: Int
    package let budget: Duration
    /// The address the handshake went to.
    package let address: IPAddress?

    package var facts: TLSFacts? {
        if case .established(let facts)? = phase?.outcome { return facts }
        return nil
    }
}

/// gw.pin: the certificate served, against the pin (the user's decides) and the beacon's hint.
package struct PinEvidence: Sendable, Equatable {
    package let observed: TLSFingerprint
    package let pin: Pin?
    /// The fingerprint the beacon's TXT advertises.
    package let advertised: TLSFingerprint?
    /// The Gateway's host, as TLS named it.
    package let host: String
    /// Whose certificate it is, as its form tells (nil when it could not be read).
    package var certificate: CertificateOrigin? = nil
    /// What each of the Gateway's beacons advertises (every path's, after a merge).
    package var records: [AdvertisedFingerprint] = []
}

/// gw.http: /healthz and /readyz, each on its own connection.
package struct HTTPEvidence: Sendable, Equatable {
    package let health: PhaseTiming<HTTPOutcome>
    package let ready: PhaseTiming<HTTPOutcome>?
    package let port: Int
    package let budget: Duration
    /// `host:port` as the Host header had it.
    package let hostHeader: String
}

/// gw.websocket and gw.protocol: the upgrade and the first frame.
package struct WebSocketEvidence: Sendable, Equatable {
    package let phase: PhaseTiming<WebSocketOutcome>
    package let budget: Duration
    package let hostHeader: String
    /// A WebSocket of its own held idle after the challenge (only behind a proxy).
    package var idle: PhaseTiming<IdleOutcome>? = nil
    /// The tick interval the Gateway announced in hello-ok (policy.tickIntervalMs), when the
    /// connect got that far: an idle WebSocket must outlive it.
    package var announcedTick: Duration? = nil

    /// How long a proxy must keep an idle WebSocket open: the Gateway's tick interval, else
    /// OpenClaw's default (TICK_INTERVAL_MS).
    package var tickInterval: Duration { announcedTick ?? GatewayProbe.tickInterval }
    /// The openings the Gateway refused with a transient 503 before this one.
    package var refusals: [UpgradeTry] = []

    /// The server switched protocols (101), whatever came after.
    package var upgraded: Bool {
        switch phase.outcome {
        case .opened, .frameTooLarge, .closedBeforeFirstFrame, .framesBroken: true
        case .timedOut(let upgraded, _): upgraded
        case .upgradeRefused, .upgradeFailed, .wantsTLS, .failed: false
        }
    }

    /// The first frame, when the upgrade worked and one came.
    package var opened: FirstFrame? {
        if case .opened(let frame, _) = phase.outcome { return frame }
        return nil
    }

    /// The challenge's nonce, when the first frame is a connect.challenge.
    package var challenge: String? {
        if case .challenge(let nonce)? = opened?.content { return nonce }
        return nil
    }
}

/// gw.connect: the Gateway's answer to the connect request, and what the request carried.
package struct ConnectEvidence: Sendable, Equatable {
    package let phase: PhaseTiming<ConnectOutcome>
    /// What the target had to show (a token only goes to its own Gateway).
    package let offered: ConnectCredentials
    /// Whether they went with the request, and why (nil: nothing to send).
    package let decision: CredentialDecision?
    package let budget: Duration
    package let host: String
    package let port: Int
    package let hostHeader: String
    /// Every request and its answer, in order; the last one's answer is `phase`.
    package var tries: [ConnectTry] = []

    /// What the request carried.
    package var sent: ConnectCredentials { decision.map(\.sends) == false ? .none : offered }

    /// The Gateway's refusal, when it refused.
    package var rejection: ConnectError? {
        if case .rejected(let error, _) = phase.outcome { return error }
        return nil
    }

    /// The range the last request offered: the try's, else the one the Gateway echoed in its
    /// refusal (clientMinProtocol, clientMaxProtocol), else a probe's.
    package var offeredRange: ProtocolRange {
        if let range = tries.last?.range { return range }
        if let min = rejection?.clientMinProtocol, let max = rejection?.clientMaxProtocol, min <= max {
            return ProtocolRange(min: min, max: max)
        }
        return .probe
    }

    /// The tries before the last one that a starting or draining Gateway answered with
    /// UNAVAILABLE (or closed with 1012, 1013).
    package var pausedTries: [ConnectTry] { tries.dropLast().filter { $0.outcome.pause != nil } }

    /// How long doctor waited for a starting Gateway, in all.
    package var waited: Duration { tries.map(\.waited).reduce(.zero, +) }

    /// The protocol the Gateway speaks: hello-ok's, or the version it expects.
    package var gatewayProtocol: Int? {
        if case .helloOk(let hello) = phase.outcome { return hello.protocolVersion }
        return rejection?.expectedProtocol
    }

    /// A node host refused with expectedProtocol 3 that asked again in the v3 envelope.
    package var fellBackToLegacyNode: Bool { tries.contains { $0.legacyNodeEnvelope } }

    /// The pairing refusals of a device, in order (two when doctor asked again).
    package var pairingRefusals: [ConnectError] { tries.compactMap(\.rejection).filter { $0.pairingReason != nil } }
}
