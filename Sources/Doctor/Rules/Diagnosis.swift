import DNSSD
import Host

/// A cause a user needs, made from several checks: which rule found it, the checks that show
/// it, and the typed facts its words are written from.
public struct Diagnosis: Sendable, Equatable {
    public let id: DiagnosisID
    /// The checks that show it, each with the gateway's target when one is concerned.
    public let evidence: [Evidence]
    public let finding: Finding

    public init(_ id: DiagnosisID, _ finding: Finding, evidence: [Evidence]) {
        self.id = id
        self.finding = finding
        self.evidence = evidence
    }

    /// A check that shows the cause; printed `gw.tcp wss://host:port` for a Gateway's check.
    public struct Evidence: Sendable, Hashable, Encodable, CustomStringConvertible {
        public let check: CheckID
        public let target: String?

        public init(_ check: CheckID, target: String? = nil) {
            self.check = check
            self.target = target
        }

        public var description: String { target.map { "\(check) \($0)" } ?? check.rawValue }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }
    }

    /// What a rule found, typed: the cause's words are written from it (and from the checks it
    /// names), never read back. `target` is a Gateway's label in the report.
    public enum Finding: Sendable, Equatable {
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
public enum PlainProbe: Sendable, Equatable {
    /// Its beacon advertises no TLS (neither gatewayTls nor gatewayTlsSha256).
    case beaconWithoutTLS
    /// It was given as ws:// (or as a host, with gateway.tls off in the config), and no beacon names it.
    case given
    /// It was given as ws://, though the beacon that names it advertises TLS.
    case givenDespiteBeacon
}

/// A cause doctor can name: stable, lower-case, dashed.
public struct DiagnosisID: RawRepresentable, Hashable, Sendable, Encodable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let noMDNS = DiagnosisID(rawValue: "no-mdns")
    public static let gatewayNotAdvertising = DiagnosisID(rawValue: "gateway-not-advertising")
    public static let multicastBlocked = DiagnosisID(rawValue: "multicast-blocked")
    public static let twoMDNSStacks = DiagnosisID(rawValue: "two-mdns-stacks")
    public static let splitDNS = DiagnosisID(rawValue: "split-dns")
    public static let gatewayNotListening = DiagnosisID(rawValue: "gateway-not-listening")
    public static let firewall = DiagnosisID(rawValue: "firewall")
    public static let pinChanged = DiagnosisID(rawValue: "pin-changed")
    public static let tlsExpected = DiagnosisID(rawValue: "tls-expected")
    public static let tlsNotAdvertised = DiagnosisID(rawValue: "tls-not-advertised")
    public static let certificate = DiagnosisID(rawValue: "gw-cert")
    public static let webSocket = DiagnosisID(rawValue: "gw-websocket")
    public static let gatewayProtocol = DiagnosisID(rawValue: "gw-protocol")
    public static let noMulticastInterface = DiagnosisID(rawValue: "no-multicast-interface")
    public static let wideAreaDomain = DiagnosisID(rawValue: "wide-area-domain")
    public static let nameNotFound = DiagnosisID(rawValue: "name-not-found")
    public static let nssMdnsMissing = DiagnosisID(rawValue: "nss-mdns-missing")
    public static let magicDNSNotApplied = DiagnosisID(rawValue: "magicdns-not-applied")
    public static let nameUnresolved = DiagnosisID(rawValue: "name-unresolved")
    public static let unknownTarget = DiagnosisID(rawValue: "unknown-target")
    public static let nothingListens = DiagnosisID(rawValue: "nothing-listens")
    public static let tailnetUnreachable = DiagnosisID(rawValue: "tailnet-unreachable")
    public static let unroutableAddress = DiagnosisID(rawValue: "unroutable-address")
    public static let hostUnreachable = DiagnosisID(rawValue: "host-unreachable")
    public static let localShortage = DiagnosisID(rawValue: "local-shortage")
    public static let connectionReset = DiagnosisID(rawValue: "connection-reset")
    public static let tlsVersion = DiagnosisID(rawValue: "tls-version")
    public static let tlsAlert = DiagnosisID(rawValue: "tls-alert")
    public static let tlsHandshake = DiagnosisID(rawValue: "gw-tls")
    public static let anotherProgram = DiagnosisID(rawValue: "another-program")
    public static let health = DiagnosisID(rawValue: "gw-http")
    public static let pairingRequired = DiagnosisID(rawValue: "pairing-required")
    public static let gatewayAuth = DiagnosisID(rawValue: "gateway-auth")
    public static let protocolMismatch = DiagnosisID(rawValue: "protocol-mismatch")
    public static let connect = DiagnosisID(rawValue: "gw-connect")
    /// A failing check that no rule explains: named after the check, never silent.
    public static let checkFailed = DiagnosisID(rawValue: "check-failed")
    // In front of the Gateway: certificates that are not its own, proxies.
    public static let pinOnRenewingCertificate = DiagnosisID(rawValue: "pin-on-renewing-certificate")
    public static let edgeCertificate = DiagnosisID(rawValue: "edge-certificate")
    public static let proxyUpstream = DiagnosisID(rawValue: "proxy-upstream")
    public static let proxyDropsUpgrade = DiagnosisID(rawValue: "proxy-drops-upgrade")
    public static let proxyIdleTimeout = DiagnosisID(rawValue: "proxy-idle-timeout")
    public static let originNotAllowed = DiagnosisID(rawValue: "origin-not-allowed")
    public static let proxyNotTrusted = DiagnosisID(rawValue: "proxy-not-trusted")
    public static let resolvedRoutingDomain = DiagnosisID(rawValue: "resolved-routing-domain")
    public static let tailscaleServeIdentity = DiagnosisID(rawValue: "tailscale-serve-identity")
    public static let tailscaleServeRoute = DiagnosisID(rawValue: "tailscale-serve-route")
    public static let tailscaleServeUpgrade = DiagnosisID(rawValue: "tailscale-serve-upgrade")
    public static let gatewayRestartLoop = DiagnosisID(rawValue: "gateway-restart-loop")
    public static let containerMulticast = DiagnosisID(rawValue: "container-multicast")
    // Issue 20: what OpenClaw users hit.
    public static let gatewayStarting = DiagnosisID(rawValue: "gateway-starting")
    public static let gatewayProtocolOlder = DiagnosisID(rawValue: "gateway-protocol-older")
    public static let deviceIdentityUnstable = DiagnosisID(rawValue: "device-identity-unstable")
    public static let deviceIdentityElsewhere = DiagnosisID(rawValue: "device-identity-elsewhere")
    public static let beaconDisagrees = DiagnosisID(rawValue: "beacon-disagrees")
    public static let hostNameCollision = DiagnosisID(rawValue: "host-name-collision")
    public static let gatewayAdvertisedTwice = DiagnosisID(rawValue: "gateway-advertised-twice")
    public static let multipleGateways = DiagnosisID(rawValue: "multiple-gateways")
    public static let phoneRefuses = DiagnosisID(rawValue: "phone-refuses")
    public static let mdnsTimeout = DiagnosisID(rawValue: "mdns-timeout")
    // Issue 32: OpenClaw 2 at the connect level.
    public static let gatewayRestarting = DiagnosisID(rawValue: "gateway-restarting")
    public static let authRateLimited = DiagnosisID(rawValue: "auth-rate-limited")
    public static let frameTooLarge = DiagnosisID(rawValue: "frame-too-large")
    public static let pairingRejected = DiagnosisID(rawValue: "pairing-rejected")
    public static let pairingExpired = DiagnosisID(rawValue: "pairing-expired")
    public static let operatorAccessDenied = DiagnosisID(rawValue: "operator-access-denied")
    public static let verifiedUserRequired = DiagnosisID(rawValue: "verified-user-required")
    public static let unauthenticatedLimit = DiagnosisID(rawValue: "unauthenticated-limit")
    // Issue 31 and issue 32 case 6: a certificate renewed under a running Gateway.
    public static let certificateRenewed = DiagnosisID(rawValue: "certificate-renewed")
    public static let staleFingerprintRecord = DiagnosisID(rawValue: "stale-fingerprint-record")

    public var description: String { rawValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
