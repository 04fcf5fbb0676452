import DNSSD
import FoundationEssentials
import Host
import Probes

/// Everything doctor knows about one Gateway when it judges it, by layer: what its name gave,
/// and what each probe phase found. Built once from the probe's report; the checks are judged
/// from it, each keeping the part it read, and the rules read it through `GatewayResult`.
public struct GatewayEvidence: Sendable, Equatable {
    public let target: ProbeTarget
    public let beacon: GatewayBeacon?
    public internal(set) var dns: DNSEvidence
    public let tcp: TCPEvidence
    public let tls: TLSEvidence
    /// The certificate's fingerprint against the pin and the beacon (nil without a TLS session).
    public let pin: PinEvidence?
    public let http: HTTPEvidence?
    public let webSocket: WebSocketEvidence?
    public let connect: ConnectEvidence?
    /// What stands between doctor and the Gateway (a proxy, an edge), as far as it shows.
    public let path: PathEvidence
    /// The instant certificates are judged against.
    public let now: Date
    /// Whether its host is this machine (`GatewayJudgement` says).
    public internal(set) var host = GatewayHost.elsewhere

    /// `routes` is the main routing table (empty when unknown); `pin` what the Gateway is
    /// pinned to, and where that pin comes from.
    public init(
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
public struct Pin: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// `--pin`.
        case flag
        /// `gateway.remote.tlsFingerprint` in the node's config.
        case remoteConfig
    }

    public let fingerprint: TLSFingerprint
    public let source: Source

    public init(_ fingerprint: TLSFingerprint, source: Source = .flag) {
        self.fingerprint = fingerprint
        self.source = source
    }
}

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
        /// A `.local` name nsswitch did not resolve that avahi-daemon did (the addresses are
        /// Avahi's); `nssMdns`: nsswitch asks mDNS, so nss-mdns could not reach the daemon.
        case onlyAvahi(nssMdns: Bool)
        /// A `.local` name nsswitch did not resolve, and no host answered avahi-daemon for it.
        case noMDNSAnswer
        /// A `*.ts.net` name that only Tailscale's resolver 100.100.100.100 knows: these addresses.
        case magicDNSOnly([IPAddress])
    }

    /// The lookup's own words (getaddrinfo's, or its time limit).
    public let message: String
    public let kind: Kind

    public init(_ message: String, kind: Kind) {
        self.message = message
        self.kind = kind
    }
}

/// gw.dns: the name as given and what it gave.
public struct DNSEvidence: Sendable, Equatable {
    /// The host name or address (or the text that matched nothing).
    public let host: String
    public let addresses: [IPAddress]
    public let problem: DNSProblem?
    /// The target named no known Gateway and is no host name or URL.
    public var unknownTarget = false
}

/// gw.tcp: one attempt per address, and which of the silent ones this machine has no route to.
public struct TCPEvidence: Sendable, Equatable {
    public let attempts: [TCPAttempt]
    /// The addresses tried, in order.
    public let addresses: [IPAddress]
    public let port: Int
    public let budget: Duration
    /// Addresses that neither connected, refused nor reset (a firewall, no route).
    public let silent: [IPAddress]
    /// The silent addresses this machine has no specific route to; empty when the routing
    /// table is unknown.
    public let unroutable: [IPAddress]
    /// How the report names the target.
    public let label: String

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
    public var connected: TCPAttempt? { attempts.first { $0.outcome == .connected } }
}

/// gw.tls: the handshake on the first connection (nil when none was made or asked for).
public struct TLSEvidence: Sendable, Equatable {
    /// The target is to speak TLS (wss://, gatewayTls=1, gateway.tls.enabled).
    public let asked: Bool
    public let phase: PhaseTiming<TLSOutcome>?
    public let port: Int
    public let budget: Duration
    /// The address the handshake went to.
    public let address: IPAddress?

    public var facts: TLSFacts? {
        if case .established(let facts)? = phase?.outcome { return facts }
        return nil
    }
}

/// gw.pin: the certificate served, against the pin (the user's decides) and the beacon's hint.
public struct PinEvidence: Sendable, Equatable {
    public let observed: TLSFingerprint
    public let pin: Pin?
    /// The fingerprint the beacon's TXT advertises.
    public let advertised: TLSFingerprint?
    /// The Gateway's host, as TLS named it.
    public let host: String
    /// Whose certificate it is, as its form tells (nil when it could not be read).
    public var certificate: CertificateOrigin? = nil
    /// What each of the Gateway's beacons advertises (every path's, after a merge).
    public var records: [AdvertisedFingerprint] = []
}

/// gw.http: /healthz and /readyz, each on its own connection.
public struct HTTPEvidence: Sendable, Equatable {
    public let health: PhaseTiming<HTTPOutcome>
    public let ready: PhaseTiming<HTTPOutcome>?
    public let port: Int
    public let budget: Duration
    /// `host:port` as the Host header had it.
    public let hostHeader: String
}

/// gw.websocket and gw.protocol: the upgrade and the first frame.
public struct WebSocketEvidence: Sendable, Equatable {
    public let phase: PhaseTiming<WebSocketOutcome>
    public let budget: Duration
    public let hostHeader: String
    /// A WebSocket of its own held idle after the challenge (only behind a proxy).
    public var idle: PhaseTiming<IdleOutcome>? = nil
    /// The tick interval the Gateway announced in hello-ok (policy.tickIntervalMs), when the
    /// connect got that far: an idle WebSocket must outlive it.
    public var announcedTick: Duration? = nil

    /// How long a proxy must keep an idle WebSocket open: the Gateway's tick interval, else
    /// OpenClaw's default (TICK_INTERVAL_MS).
    public var tickInterval: Duration { announcedTick ?? GatewayProbe.tickInterval }
    /// The openings the Gateway refused with a transient 503 before this one.
    public var refusals: [UpgradeTry] = []

    /// The server switched protocols (101), whatever came after.
    public var upgraded: Bool {
        switch phase.outcome {
        case .opened, .frameTooLarge, .closedBeforeFirstFrame, .framesBroken: true
        case .timedOut(let upgraded, _): upgraded
        case .upgradeRefused, .upgradeFailed, .wantsTLS, .failed: false
        }
    }

    /// The first frame, when the upgrade worked and one came.
    public var opened: FirstFrame? {
        if case .opened(let frame, _) = phase.outcome { return frame }
        return nil
    }

    /// The challenge's nonce, when the first frame is a connect.challenge.
    public var challenge: String? {
        if case .challenge(let nonce)? = opened?.content { return nonce }
        return nil
    }
}

/// gw.connect: the Gateway's answer to the connect request, and what the request carried.
public struct ConnectEvidence: Sendable, Equatable {
    public let phase: PhaseTiming<ConnectOutcome>
    /// What the target had to show (a token only goes to its own Gateway).
    public let offered: ConnectCredentials
    /// Whether they went with the request, and why (nil: nothing to send).
    public let decision: CredentialDecision?
    public let budget: Duration
    public let host: String
    public let port: Int
    public let hostHeader: String
    /// Every request and its answer, in order; the last one's answer is `phase`.
    public var tries: [ConnectTry] = []

    /// What the request carried.
    public var sent: ConnectCredentials { decision.map(\.sends) == false ? .none : offered }

    /// The Gateway's refusal, when it refused.
    public var rejection: ConnectError? {
        if case .rejected(let error, _) = phase.outcome { return error }
        return nil
    }

    /// The range the last request offered: the try's, else the one the Gateway echoed in its
    /// refusal (clientMinProtocol, clientMaxProtocol), else a probe's.
    public var offeredRange: ProtocolRange {
        if let range = tries.last?.range { return range }
        if let min = rejection?.clientMinProtocol, let max = rejection?.clientMaxProtocol, min <= max {
            return ProtocolRange(min: min, max: max)
        }
        return .probe
    }

    /// The tries before the last one that a starting or draining Gateway answered with
    /// UNAVAILABLE (or closed with 1012, 1013).
    public var pausedTries: [ConnectTry] { tries.dropLast().filter { $0.outcome.pause != nil } }

    /// How long doctor waited for a starting Gateway, in all.
    public var waited: Duration { tries.map(\.waited).reduce(.zero, +) }

    /// The protocol the Gateway speaks: hello-ok's, or the version it expects.
    public var gatewayProtocol: Int? {
        if case .helloOk(let hello) = phase.outcome { return hello.protocolVersion }
        return rejection?.expectedProtocol
    }

    /// A node host refused with expectedProtocol 3 that asked again in the v3 envelope.
    public var fellBackToLegacyNode: Bool { tries.contains { $0.legacyNodeEnvelope } }

    /// The pairing refusals of a device, in order (two when doctor asked again).
    public var pairingRefusals: [ConnectError] { tries.compactMap(\.rejection).filter { $0.pairingReason != nil } }
}
