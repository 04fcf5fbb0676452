import DNSSD
import FoundationEssentials

/// A Gateway to probe: where to connect, and what is known about it beforehand.
package struct ProbeTarget: Sendable, Hashable {
    /// What the user or discovery calls it (a URL, a host, an instance name), for reports.
    package var label: String
    /// The host for TLS SNI and the HTTP Host header, as text that leaves the program: the
    /// host name without its root dot, else an address (or, for a Gateway known by neither,
    /// its label).
    package let host: String
    /// The host name, when the Gateway has one.
    package let hostName: DomainName?
    package var addresses: [IPAddress]
    package var port: Int
    package var tls: Bool
    /// The fingerprint the beacon's TXT advertises (a hint, never a pin).
    package var advertisedFingerprint: TLSFingerprint?
    /// What the connect request shows this Gateway (a token only goes to its own Gateway).
    package var credentials: ConnectCredentials = .none
    /// Which peer may be shown them, decided on the connection that would carry them.
    package var policy = CredentialPolicy()
    /// The Origin the WebSocket upgrade carries, as a browser page's would (--origin); none by default.
    package var origin: BrowserOrigin?
    /// The key exchange groups the TLS handshakes offer (watch offers the classical ones only).
    package var keyExchange = TLSKeyExchange.withPostQuantum

    package init(
        label: String, host: String, addresses: [IPAddress], port: Int, tls: Bool, advertisedFingerprint: TLSFingerprint? = nil,
        credentials: ConnectCredentials = .none
    ) {
        self.label = label
        hostName = DomainName(host: host)
        self.host = hostName?.withoutTrailingDot ?? host
        self.addresses = addresses
        self.port = port
        self.tls = tls
        self.advertisedFingerprint = advertisedFingerprint
        self.credentials = credentials
    }
}

/// A TCP connection attempt to one address.
package struct TCPAttempt: Sendable, Hashable {
    package enum Outcome: Sendable, Hashable {
        case connected
        /// Something answered with a reset: nothing listens on that address and port.
        case refused
        /// No answer at all: a firewall drops the packets, or the host is down.
        case timedOut
        /// The network says there is no route (ICMP unreachable, no route).
        case unreachable(String)
        /// This machine could not open the socket (no descriptor or buffer left): the Gateway
        /// was not tried, and nothing is known of it.
        case localShortage(String)
        /// Accepted, then reset or closed at once: a server out of connections, or one that
        /// holds this address to a limit.
        case reset
        case failed(String)
    }

    package let address: IPAddress
    package let outcome: Outcome
    package let elapsed: Duration

    /// This machine could not open the socket: the address was not tried.
    package var isLocalShortage: Bool {
        if case .localShortage = outcome { return true }
        return false
    }

    package init(address: IPAddress, outcome: Outcome, elapsed: Duration) {
        self.address = address
        self.outcome = outcome
        self.elapsed = elapsed
    }
}

extension TCPAttempt.Outcome: Error, CustomStringConvertible {
    /// A stable word for JSON: connected, refused, timedOut, unreachable, localShortage, reset or failed.
    package var word: String {
        switch self {
        case .connected: "connected"
        case .refused: "refused"
        case .timedOut: "timedOut"
        case .unreachable: "unreachable"
        case .localShortage: "localShortage"
        case .reset: "reset"
        case .failed: "failed"
        }
    }

    package var description: String {
        switch self {
        case .connected: "connected"
        case .refused: "refused"
        case .timedOut: "no answer"
        case .reset: "reset at once"
        case .unreachable(let why), .localShortage(let why), .failed(let why): why
        }
    }
}

/// What the TLS handshake showed.
package struct TLSFacts: Sendable, Hashable {
    package let version: TLSProtocolVersion
    package let cipher: String?
    package let fingerprint: TLSFingerprint
    package let certificate: CertificateFacts?
    /// Why the certificate could not be read, when it could not.
    package let certificateProblem: String?
    /// The certificates as the server presented them (DER, leaf first): what a CA-issued
    /// certificate is verified with.
    package var chain: [[UInt8]] = []
}

package struct CertificateFacts: Sendable, Hashable {
    package let subject: String
    package let issuer: String
    package let subjectAlternativeNames: [String]
    package let notBefore: Date
    package let notAfter: Date
    package let selfSigned: Bool
    package let publicKey: String
}

package enum TLSOutcome: Sendable, Hashable, CustomStringConvertible {
    case established(TLSFacts)
    /// The server answered, but not with TLS; its first bytes.
    case notTLS(firstBytes: [UInt8])
    /// The server sent a TLS alert (e.g. 70 protocol_version: no version in common).
    case alert(TLSAlert)
    case handshakeFailed(String)
    /// No finished handshake in time; how many bytes arrived.
    case timedOut(bytesReceived: Int)

    package var description: String {
        switch self {
        case .established: "established"
        case .notTLS: "the answer is not TLS"
        case .alert(let alert): "TLS alert \(alert.code)"
        case .handshakeFailed(let reason): reason
        case .timedOut: "no handshake in time"
        }
    }
}

package enum HTTPOutcome: Sendable, Hashable {
    /// `server` and `via` are the response's Server and Via headers, which name what answers when
    /// it is not a Gateway, or what stands in front of it (a Gateway's own answers carry neither).
    case response(status: Int, body: String, server: String?, via: String? = nil)
    /// Asked in plain HTTP, the server answered with TLS: it wants wss://.
    case wantsTLS
    case failed(String)
    case timedOut(bytesReceived: Int)
}

/// The Gateway's first WebSocket frame, `connect.challenge` when all is well.
public struct FirstFrame: Sendable, Hashable {
    package enum Content: Sendable, Hashable {
        /// A well-formed connect.challenge and its nonce.
        case challenge(nonce: String)
        /// Anything else: what is wrong with the frame, in words.
        case unexpected(problem: String)
    }

    package let text: String
    package let content: Content

    package init(text: String, content: Content) {
        self.text = text
        self.content = content
    }
}

package enum WebSocketOutcome: Sendable, Hashable {
    case opened(FirstFrame, closedCleanly: Bool)
    /// The server answered the upgrade with another status (200: not a WebSocket endpoint; 403
    /// proxy attribution, a 302 to a login page, 429, 503: see `UpgradeRejection.kind`).
    case upgradeRefused(UpgradeRejection)
    case upgradeFailed(String)
    /// Asked in plain HTTP, the server answered with TLS: it wants wss://.
    case wantsTLS
    case frameTooLarge(limit: Int)
    case closedBeforeFirstFrame(code: UInt16?)
    case timedOut(upgraded: Bool, bytesReceived: Int)
    /// Upgraded, then frames no WebSocket server sends (a control frame over 125 bytes or in
    /// fragments, a flood of pings): what happened, in words.
    case framesBroken(String)
    case failed(String)
}

extension HTTPOutcome {
    var isResponse: Bool {
        if case .response = self { return true }
        return false
    }

    /// The answer names a program in front of the Gateway: a Gateway's own HTTP answers carry
    /// neither a Server nor a Via header (Node's http server adds none).
    package var namesIntermediary: Bool {
        if case .response(_, _, let server, let via) = self { return server != nil || via != nil }
        return false
    }
}

extension WebSocketOutcome {
    /// Whether an HTTP answer came back at all (a 101 or another status).
    var reachedServer: Bool {
        switch self {
        case .opened, .upgradeRefused, .frameTooLarge, .closedBeforeFirstFrame, .framesBroken: true
        case .timedOut(let upgraded, _): upgraded
        case .upgradeFailed, .wantsTLS, .failed: false
        }
    }
}

/// A WebSocket held idle after connect.challenge, as a node's is between the Gateway's ticks:
/// whether something in the path closed it, and when.
package enum IdleOutcome: Sendable, Hashable {
    /// Still open when the watch ended, after this long.
    case heldOpen(Duration)
    /// Closed this long after the challenge, with no frame in between.
    case closed(after: Duration)
    /// The watch could not start (no upgrade, no challenge): what happened, in words.
    case notWatched(String)
}

package struct PhaseTiming<Outcome: Sendable & Hashable>: Sendable, Hashable {
    package let outcome: Outcome
    package let elapsed: Duration
}

/// Everything one probe of one Gateway found, phase by phase. A phase is nil when it did
/// not run (an earlier one failed, or it does not apply, like TLS on a plain Gateway).
package struct ProbeReport: Sendable {
    package let target: ProbeTarget
    package var tcp: [TCPAttempt] = []
    package var tls: PhaseTiming<TLSOutcome>?
    package var health: PhaseTiming<HTTPOutcome>?
    package var ready: PhaseTiming<HTTPOutcome>?
    package var websocket: PhaseTiming<WebSocketOutcome>?
    /// The answer to the (last) connect request after the challenge.
    package var connect: PhaseTiming<ConnectOutcome>?
    /// A WebSocket held idle after the challenge; only behind a proxy (see `GatewayProbe.idleWatch`).
    package var idle: PhaseTiming<IdleOutcome>?
    /// Every connect request and its answer, in order (more than one when the Gateway was
    /// starting, asked for the older node protocol, or a pairing request was asked twice).
    package var connectTries: [ConnectTry] = []
    /// The openings a Gateway refused with a transient 503 before `websocket` (`UpgradeRetry`).
    package var upgradeRefusals: [UpgradeTry] = []
    /// Whether the target's credentials went with the connect request, and why (nil when it
    /// has none, or no request was made).
    package var credentials: CredentialDecision?
    /// Why a connection of this probe could not even be opened on this machine (EMFILE,
    /// ENOBUFS...): the probe says nothing of the Gateway, and watch judges it not at all.
    package var localShortage: String?

    package init(target: ProbeTarget) {
        self.target = target
    }

    /// The address that connected, when one did.
    package var connectedAddress: IPAddress? {
        tcp.first { $0.outcome == .connected }?.address
    }

    package var tlsFacts: TLSFacts? {
        if case .established(let facts)? = tls?.outcome { return facts }
        return nil
    }
}

/// How `--verbose` logs a phase: its outcome's name and its time ("helloOK in 12 ms"), never
/// a Swift value's dump with its nested types.
extension PhaseTiming: CustomStringConvertible {
    package var description: String { "\(LogWord.of(outcome)) in \(elapsed.milliseconds) ms" }
}

/// The name of a value for a log line: an enum case's name in words with the reason it
/// carries ("upgrade failed: bad accept") and its numbers ("response: status 200"), but no
/// other text (a body or frame is the peer's, not a reason); a value with a description of
/// its own as it describes itself, another struct as its fields.
enum LogWord {
    static func of(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional { return mirror.children.first.map { of($0.value) } ?? "none" }
        if let described = value as? any CustomStringConvertible { return described.description }
        switch mirror.displayStyle {
        case .enum:
            guard let (label, payload) = mirror.children.first.map({ ($0.label ?? "\(value)", $0.value) }) else { return words("\(value)") }
            let details = self.payload(payload)
            return words(label) + (details.isEmpty ? "" : ": \(details)")
        case .struct: return mirror.children.compactMap { child in child.label.map { "\($0) \(of(child.value))" } }.joined(separator: ", ")
        default: return "\(value)"
        }
    }

    /// A case's payload for the log: a lone reason as it is, labelled numbers and flags as
    /// "name value"; other text and nested values are left out.
    private static func payload(_ payload: Any) -> String {
        if let reason = payload as? String { return reason }
        if let rejection = payload as? UpgradeRejection { return "status \(rejection.status)" }
        let mirror = Mirror(reflecting: payload)
        let fields = mirror.displayStyle == .tuple ? Array(mirror.children) : [Mirror.Child(label: nil, value: payload)]
        return fields.compactMap { field in
            guard let label = field.label, !label.hasPrefix("."), field.value is any BinaryInteger || field.value is Bool else {
                return nil
            }
            return "\(words(label)) \(field.value)"
        }.joined(separator: ", ")
    }

    /// `upgradeFailed` as "upgrade failed", `wantsTLS` as "wants TLS".
    static func words(_ name: String) -> String {
        var words: [String] = []
        var previous: Character?
        for character in name {
            if words.isEmpty || character.isUppercase && previous?.isLowercase == true { words.append("") }
            words[words.count - 1].append(character)
            previous = character
        }
        return words.map { $0.allSatisfy(\.isUppercase) ? $0 : $0.lowercased() }.joined(separator: " ")
    }
}
