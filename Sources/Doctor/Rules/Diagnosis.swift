import DNSSD
import Host

/// A cause a user needs, made from several checks: which rule found it, the checks that show
/// it, and the typed facts its words are written from.
package struct Diagnosis: Sendable, Equatable {
    package let id: DiagnosisID
    /// The checks that show it, each with the gateway's target when one is concerned.
    package let evidence: [Evidence]
    package let finding: Finding

    package init(_ id: DiagnosisID, _ finding: Finding, evidence: [Evidence]) {
        self.id = id
        self.finding = finding
        self.evidence = evidence
    }

    /// A check that shows the cause; printed `gw.tcp wss://host:port` for a Gateway's check.
    package struct Evidence: Sendable, Hashable, Encodable, CustomStringConvertible {
        package let check: CheckID
        package let target: String?

        package init(_ check: CheckID, target: String? = nil) {
            self.check = check
            self.target = target
        }

        package var description: String { target.map { "\(check) \($0)" } ?? check.rawValue }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }
    }

    /// What a rule found, typed: the cause's words are written from it (and from the checks it
    /// names), never read back. `target` is a Gateway's label in the report.
    package enum Finding: Sendable, Equatable {
        /// The cause is what one check found (of a Gateway when `target` is set).
        case check(Check, target: String?)
        /// No mDNS daemon: the bus is missing, else Avahi; the failing check has the fix, unless
        /// avahi-daemon is not installed (then installing it, which brings D-Bus, is the fix).
        case noMDNS(busMissing: Bool, daemonInstalled: Bool, failing: Check?)
        /// A Gateway's host answers mDNS (or does not), while its beacon is not in local.
        case hostAnswer(HostAnswer)
        case advertisingOff(AdvertisingSwitch, configPath: String)
        /// Nothing in local., and these `.local` names of Gateways got no mDNS answer.
        case mdnsTimeout(names: [String])
        /// Nothing in local., though these interfaces carry multicast.
        case multicastBlocked(interfaces: [String])
        /// Advertised (by mDNS or DNS-SD) at these addresses, and refused.
        /// `host`: whether that is this machine, and whether 127.0.0.1 answers there.
        case notListening(target: String, mdns: Bool, addresses: [IPAddress], port: Int, host: GatewayHost)
        /// Silent tailnet addresses; the tailnet as this machine sees it.
        case tailnetUnreachable(target: String, lost: [IPAddress], port: Int, tailnet: Tailnet)
        /// Silent addresses this machine has no route to; whether one of them looks like a
        /// Docker bridge, and whether the Gateway answered elsewhere.
        case unroutable(target: String, lost: [IPAddress], docker: Bool, answered: Bool)
        /// The pinned certificate's check (nil when it matched) and gw.connect when the
        /// credentials were withheld for another certificate.
        case pinChanged(target: String, pin: Check?, withheld: Check?)
        /// The pin is older than a renewal: the Gateway's own beacon advertises the certificate
        /// it presents (`pin` is gw.pin's evidence); the credentials were withheld all the same.
        case certificateRenewed(target: String, pin: PinEvidence)
        /// Records that still advertise a certificate before the one presented (`confirmed`: one
        /// of the Gateway's beacons advertises the new one).
        case staleFingerprintRecord(target: String, stale: [AdvertisedFingerprint], observed: TLSFingerprint, confirmed: Bool)
        /// Plain text where TLS was expected: by the beacon (gatewayTls=1), else by the URL or config.
        case tlsExpected(target: String, byBeacon: Bool, hostHeader: String)
        /// A TLS server probed as ws://, and why it was.
        case tlsNotAdvertised(target: String, plain: PlainProbe, webSocket: Check)
        /// Something in front of the Gateway (a proxy, an edge) is the cause: what doctor saw of it.
        case intermediary(IntermediaryFinding)
        /// A wide-area domain that only Tailscale's resolver answers, on a machine whose
        /// resolv.conf is systemd-resolved's: which link should route it, what it has, and which
        /// links route the domain now (none, most often).
        case resolvedRoute(domain: DomainName, link: ResolvedStatus.Link, routedBy: [String])
        /// Nothing in local. on a machine in a container or WSL2 (its markers).
        case contained(PlatformFacts)
    }
}

/// Why a Gateway that speaks TLS was probed as plain ws://.
package enum PlainProbe: Sendable, Equatable {
    /// Its beacon advertises no TLS (neither gatewayTls nor gatewayTlsSha256).
    case beaconWithoutTLS
    /// It was given as ws:// (or as a host, with gateway.tls off in the config), and no beacon names it.
    case given
    /// It was given as ws://, though the beacon that names it advertises TLS.
    case givenDespiteBeacon
}

/// A cause doctor can name: stable, lower-case, dashed.
package struct DiagnosisID: RawRepresentable, Hashable, Sendable, Encodable, CustomStringConvertible {
    package let rawValue: String

    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    package static let noMDNS = DiagnosisID(rawValue: "no-mdns")
    package static let gatewayNotAdvertising = DiagnosisID(rawValue: "gateway-not-advertising")
    package static let multicastBlocked = DiagnosisID(rawValue: "multicast-blocked")
    package static let twoMDNSStacks = DiagnosisID(rawValue: "two-mdns-stacks")
    package static let splitDNS = DiagnosisID(rawValue: "split-dns")
    package static let gatewayNotListening = DiagnosisID(rawValue: "gateway-not-listening")
    package static let firewall = DiagnosisID(rawValue: "firewall")
    package static let pinChanged = DiagnosisID(rawValue: "pin-changed")
    package static let tlsExpected = DiagnosisID(rawValue: "tls-expected")
    package static let tlsNotAdvertised = DiagnosisID(rawValue: "tls-not-advertised")
    package static let certificate = DiagnosisID(rawValue: "gw-cert")
    package static let webSocket = DiagnosisID(rawValue: "gw-websocket")
    package static let gatewayProtocol = DiagnosisID(rawValue: "gw-protocol")
    package static let noMulticastInterface = DiagnosisID(rawValue: "no-multicast-interface")
    package static let wideAreaDomain = DiagnosisID(rawValue: "wide-area-domain")
    package static let nameNotFound = DiagnosisID(rawValue: "name-not-found")
    package static let nssMdnsMissing = DiagnosisID(rawValue: "nss-mdns-missing")
    package static let magicDNSNotApplied = DiagnosisID(rawValue: "magicdns-not-applied")
    package static let nameUnresolved = DiagnosisID(rawValue: "name-unresolved")
    package static let unknownTarget = DiagnosisID(rawValue: "unknown-target")
    package static let nothingListens = DiagnosisID(rawValue: "nothing-listens")
    package static let tailnetUnreachable = DiagnosisID(rawValue: "tailnet-unreachable")
    package static let unroutableAddress = DiagnosisID(rawValue: "unroutable-address")
    package static let hostUnreachable = DiagnosisID(rawValue: "host-unreachable")
    package static let localShortage = DiagnosisID(rawValue: "local-shortage")
    package static let connectionReset = DiagnosisID(rawValue: "connection-reset")
    package static let tlsVersion = DiagnosisID(rawValue: "tls-version")
    package static let tlsAlert = DiagnosisID(rawValue: "tls-alert")
    package static let tlsHandshake = DiagnosisID(rawValue: "gw-tls")
    package static let anotherProgram = DiagnosisID(rawValue: "another-program")
    package static let health = DiagnosisID(rawValue: "gw-http")
    package static let pairingRequired = DiagnosisID(rawValue: "pairing-required")
    package static let gatewayAuth = DiagnosisID(rawValue: "gateway-auth")
    package static let protocolMismatch = DiagnosisID(rawValue: "protocol-mismatch")
    package static let connect = DiagnosisID(rawValue: "gw-connect")
    /// A failing check that no rule explains: named after the check, never silent.
    package static let checkFailed = DiagnosisID(rawValue: "check-failed")
    // In front of the Gateway: certificates that are not its own, proxies.
    package static let pinOnRenewingCertificate = DiagnosisID(rawValue: "pin-on-renewing-certificate")
    package static let edgeCertificate = DiagnosisID(rawValue: "edge-certificate")
    package static let proxyUpstream = DiagnosisID(rawValue: "proxy-upstream")
    package static let proxyDropsUpgrade = DiagnosisID(rawValue: "proxy-drops-upgrade")
    package static let proxyIdleTimeout = DiagnosisID(rawValue: "proxy-idle-timeout")
    package static let originNotAllowed = DiagnosisID(rawValue: "origin-not-allowed")
    package static let proxyNotTrusted = DiagnosisID(rawValue: "proxy-not-trusted")
    package static let resolvedRoutingDomain = DiagnosisID(rawValue: "resolved-routing-domain")
    package static let tailscaleServeIdentity = DiagnosisID(rawValue: "tailscale-serve-identity")
    package static let tailscaleServeRoute = DiagnosisID(rawValue: "tailscale-serve-route")
    package static let tailscaleServeUpgrade = DiagnosisID(rawValue: "tailscale-serve-upgrade")
    package static let gatewayRestartLoop = DiagnosisID(rawValue: "gateway-restart-loop")
    package static let containerMulticast = DiagnosisID(rawValue: "container-multicast")
    // Issue 20: what OpenClaw users hit.
    package static let gatewayStarting = DiagnosisID(rawValue: "gateway-starting")
    package static let gatewayProtocolOlder = DiagnosisID(rawValue: "gateway-protocol-older")
    package static let deviceIdentityUnstable = DiagnosisID(rawValue: "device-identity-unstable")
    package static let deviceIdentityElsewhere = DiagnosisID(rawValue: "device-identity-elsewhere")
    package static let beaconDisagrees = DiagnosisID(rawValue: "beacon-disagrees")
    package static let hostNameCollision = DiagnosisID(rawValue: "host-name-collision")
    package static let gatewayAdvertisedTwice = DiagnosisID(rawValue: "gateway-advertised-twice")
    package static let multipleGateways = DiagnosisID(rawValue: "multiple-gateways")
    package static let phoneRefuses = DiagnosisID(rawValue: "phone-refuses")
    package static let mdnsTimeout = DiagnosisID(rawValue: "mdns-timeout")
    // Issue 32: OpenClaw 2 at the connect level.
    package static let gatewayRestarting = DiagnosisID(rawValue: "gateway-restarting")
    package static let authRateLimited = DiagnosisID(rawValue: "auth-rate-limited")
    package static let frameTooLarge = DiagnosisID(rawValue: "frame-too-large")
    package static let pairingRejected = DiagnosisID(rawValue: "pairing-rejected")
    package static let pairingExpired = DiagnosisID(rawValue: "pairing-expired")
    package static let operatorAccessDenied = DiagnosisID(rawValue: "operator-access-denied")
    package static let verifiedUserRequired = DiagnosisID(rawValue: "verified-user-required")
    package static let unauthenticatedLimit = DiagnosisID(rawValue: "unauthenticated-limit")
    // Issue 31 and issue 32 case 6: a certificate renewed under a running Gateway.
    package static let certificateRenewed = DiagnosisID(rawValue: "certificate-renewed")
    package static let staleFingerprintRecord = DiagnosisID(rawValue: "stale-fingerprint-record")

    package var description: String { rawValue }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
