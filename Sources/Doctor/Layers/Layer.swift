import Probes

/// One layer doctor checks, and the only statement of the graph: what it needs, which probe
/// phases it takes, what the layers above lack when it gives nothing, and what it fails with.
/// `--check` closures, the probe phases to run and the skips of a layer whose need failed are
/// all read from here.
package struct Layer: Sendable {
    package let id: CheckID
    package let title: String
    /// The layers that must have run (and given something) before this one can.
    package let needs: [CheckID]
    /// The probe phases this layer itself reads; with those of its needs, what it takes.
    package let phases: GatewayProbe.Phases
    /// What a layer above says when this one gave nothing (`needs a TCP connection`).
    package let lacking: CheckReason?
    /// Part of the connection every probe phase opens for itself (an address, TCP, TLS): when
    /// it gives nothing, every layer above says so, not only the next one.
    package let isConnection: Bool
    /// The reasons this layer fails with; each is some rule's to explain (`DiagnosisRule.explains`).
    package let failures: Set<CheckReason>

    init(
        _ id: CheckID, _ title: String, needs: [CheckID] = [], phases: GatewayProbe.Phases = [], lacking: CheckReason? = nil,
        isConnection: Bool = false, fails failures: Set<CheckReason> = []
    ) {
        self.id = id
        self.title = title
        self.needs = needs
        self.phases = phases
        self.lacking = lacking
        self.isConnection = isConnection
        self.failures = failures
    }

    /// The machine's layers, in report order.
    package static let machine: [Layer] = [
        Layer(.openclawConfig, "OpenClaw configuration", fails: [.bindHostAlias]),
        Layer(.openclawAdvertising, "This Gateway's mDNS advertising"),
        Layer(.mdnsDBus, "D-Bus system bus", lacking: .needsBus, fails: [.busMissing]),
        Layer(.mdnsDaemon, "avahi-daemon", needs: [.mdnsDBus], lacking: .needsDaemon, fails: [.daemonUnavailable, .daemonNotInstalled]),
        Layer(.mdnsInterfaces, "Multicast interfaces", fails: [.noMulticastInterface]),
        Layer(.mdnsPort5353, "Other mDNS responders on UDP 5353"),
        Layer(.mdnsNSS, "nss-mdns for .local names"),
        Layer(.mdnsBrowse, "Gateways in local.", needs: [.mdnsDaemon]),
        Layer(.dnsResolver, "System resolver"),
        Layer(.dnsWideArea, "Wide-area DNS-SD", fails: [.splitDNS, .domainError]),
        Layer(.tailscaleInterface, "Tailscale"),
        Layer(.openclawIdentity, "This node's device identity", fails: [.identityInvalid, .identityUnreadable]),
        Layer(.discoveryGateways, "Gateways told apart"),
        Layer(.discoveryPhones, "What a phone would do"),
    ]

    /// Each Gateway's layers, in report (and probe) order.
    package static let gateway: [Layer] = [
        Layer(
            .gwDNS, "Name and addresses", lacking: .needsAddress, isConnection: true,
            fails: [.noAddress, .unknownTarget, .nameNotFound, .localNameWithoutNSS, .magicDNSNotApplied, .localNameUnanswered]),
        Layer(
            .gwTCP, "TCP connect", needs: [.gwDNS], phases: .tcp, lacking: .needsTCP, isConnection: true,
            fails: [.nothingListensLocally, .refused, .timedOut, .unreachable, .localShortage, .connectionReset]),
        Layer(
            .gwTLS, "TLS handshake", needs: [.gwTCP], phases: .tls, lacking: .needsTLS, isConnection: true,
            fails: [.tlsVersion, .notTLS, .tlsAlert, .handshakeFailed, .handshakeTimedOut]),
        Layer(.gwPin, "Certificate pin", needs: [.gwTLS], fails: [.pinMismatch, .advertisedMismatch]),
        Layer(.gwCert, "Certificate", needs: [.gwTLS], fails: [.certificateExpired, .certificateNotYetValid]),
        Layer(
            .gwHTTP, "HTTP health", needs: [.gwTLS], phases: .health,
            fails: [.unhealthy, .notGatewayHealth, .healthFailed, .healthTimedOut, .wantsTLS]),
        Layer(
            .gwWebSocket, "WebSocket upgrade", needs: [.gwTLS], phases: .websocket, lacking: .needsWebSocket,
            fails: [
                .upgradeRefused, .upgradeFailed, .upgradeTimedOut, .webSocketFailed, .wantsTLS, .closedWhenIdle, .proxyAttributionRequired,
                .identityProxy, .upgradeRateLimited, .unauthenticatedLimit,
            ]),
        Layer(
            .gwProtocol, "Gateway's first frame", needs: [.gwWebSocket], lacking: .needsChallenge,
            fails: [.unexpectedFirstFrame, .frameTooLarge, .closedBeforeFirstFrame, .firstFrameTimedOut, .framesBroken]),
        Layer(
            .gwConnect, "connect handshake", needs: [.gwProtocol], phases: .connect,
            fails: [
                .pairingRequired, .tokenMismatch, .tokenMissing, .authRejected, .deviceAuthRejected, .protocolMismatch, .closedByGateway,
                .connectRejected, .connectTimedOut, .unexpectedConnectAnswer, .connectFailed, .withheldPinMismatch,
                .originNotAllowed, .proxyNotTrusted, .tailscaleIdentityRefused, .rateLimited, .frameTooLargeBeforeLogin,
                .pairingRejected, .pairingExpired, .operatorAccessDenied, .verifiedUserRequired,
            ]),
    ]

    package static let all = machine + gateway

    static let byID = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })

    /// The requested layers and everything they need.
    package static func closure(of requested: Set<CheckID>) -> Set<CheckID> {
        var result = requested
        var queue = Array(requested)
        while let id = queue.popLast() {
            for need in id.needs where result.insert(need).inserted { queue.append(need) }
        }
        return result
    }

    /// The probe phases the requested layers take (all of them when nothing is requested).
    package static func phases(for requested: Set<CheckID>?) -> GatewayProbe.Phases {
        guard let requested else { return .all }
        return closure(of: requested).reduce(into: []) { phases, id in phases.formUnion(byID[id]?.phases ?? []) }
    }
}

extension CheckID {
    package var title: String { Layer.byID[self]?.title ?? rawValue }

    /// What this check needs to have run first.
    package var needs: [CheckID] { Layer.byID[self]?.needs ?? [] }

    /// The requested checks and everything they need.
    package static func closure(of requested: Set<CheckID>) -> Set<CheckID> { Layer.closure(of: requested) }
}
