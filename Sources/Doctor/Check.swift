import DNSSD

/// One line of doctor's report: a status, the reason as a code to decide on, and the message
/// and fix to read. Rules match on `reason`, never on `message`.
public struct Check: Sendable, Hashable, Encodable {
    public enum Status: String, Sendable, Codable, Comparable {
        case skip, pass, warn, fail

        public static func < (lhs: Status, rhs: Status) -> Bool {
            [skip, pass, warn, fail].firstIndex(of: lhs)! < [skip, pass, warn, fail].firstIndex(of: rhs)!
        }
    }

    public let id: CheckID
    public var status: Status
    public var reason: CheckReason
    public var message: String
    /// A concrete command or setting; every warn and fail has one.
    public var fix: String?
    public var elapsed: Duration
    public var detail: [String: String]

    public init(
        _ id: CheckID, _ status: Status, _ reason: CheckReason, _ message: String, fix: String? = nil,
        elapsed: Duration = .zero, detail: [String: String] = [:]
    ) {
        self.id = id
        self.status = status
        self.reason = reason
        self.message = message
        self.fix = fix
        self.elapsed = elapsed
        self.detail = detail
    }

    public var title: String { id.title }
    public var elapsedMs: Int { Int(elapsed.milliseconds) }

    private enum CodingKeys: String, CodingKey { case id, title, status, message, fix, elapsedMs, detail }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(status, forKey: .status)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(fix, forKey: .fix)
        try container.encode(elapsedMs, forKey: .elapsedMs)
        try container.encode(detail, forKey: .detail)
    }
}

/// Why a check came out as it did. One code per distinct outcome that a rule, a relaxation or
/// a test can tell apart; the message says the same in words.
public enum CheckReason: String, Sendable, Hashable, CaseIterable {
    /// The check passed.
    case ok
    /// The check did not run: its phase was not asked for, or it does not apply.
    case notRun
    /// Skipped, because the layer below gave nothing to build on (the table collapses a run of
    /// skips that share one of these).
    case needsBus, needsDaemon, needsAddress, needsTCP, needsTLS, noCertificate, needsWebSocket, needsChallenge

    // openclaw.config
    case configMissing, configInvalid, configUnreadable, bindLoopback, remoteURLMissing
    // openclaw.advertising (the switch that is off is in AdvertisingFacts)
    case notGatewayHost, advertisingOff, advertisingInWSL
    // mdns.dbus, mdns.daemon, mdns.interfaces, mdns.port5353, mdns.nss
    case busMissing, daemonUnavailable, noMulticastInterface, otherResponders, nsswitchMissing, nssMdnsMissing, nssModuleMissing
    // mdns.browse
    case localNotBrowsed, hostAnswersWithoutBeacon, hostSilent, nothingInLocal
    // dns.resolver, dns.widearea, tailscale.interface
    case resolvConfMissing, resolvConfUnreadable, noDomain, splitDNS, domainError, domainEmpty, notOnTailnet

    // gw.dns
    case noAddress, unknownTarget, nameNotFound, localNameWithoutNSS, magicDNSNotApplied
    // gw.tcp
    case nothingListensLocally, refused, timedOut, unreachable, partlyUnreachable
    // gw.tls
    case plainGateway, tlsVersion, notTLS, tlsAlert, handshakeFailed, handshakeTimedOut
    // gw.pin
    case pinMismatch, advertisedMismatch, advertisedStale
    // gw.cert
    case certificateUnreadable, certificateExpired, certificateNotYetValid, certificateExpiresSoon
    // gw.http
    case notReady, unhealthy, notGatewayHealth, healthFailed, healthTimedOut
    // gw.websocket (and gw.http): a TLS server asked in plain text
    case wantsTLS
    // gw.websocket
    case upgradeRefused, upgradeFailed, upgradeTimedOut, webSocketFailed
    // gw.protocol
    case unexpectedFirstFrame, frameTooLarge, closedBeforeFirstFrame, firstFrameTimedOut, framesBroken
    // gw.connect
    case credentialsRequired, pairingRequired, tokenMismatch, tokenMissing, authRejected, deviceAuthRejected, protocolMismatch
    case gatewayStarting, closedByGateway, connectRejected, connectTimedOut, unexpectedConnectAnswer, connectFailed
    // gw.connect: the credentials were not sent (CredentialPolicy)
    case withheldPinMismatch, withheldUnverified, withheldPlainText, withheldLocalListener
}
