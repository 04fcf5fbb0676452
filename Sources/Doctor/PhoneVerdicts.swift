import DNSSD

/// discovery.phones: what OpenClaw's phone nodes would do with each discovered beacon, on a
/// first connect (no pin stored on the phone yet). Android follows
/// apps/android/.../node/ConnectionManager.kt (resolveTlsParamsForEndpoint) and
/// .../gateway/GatewayHostSecurity.kt (isLocalCleartextGatewayHost): gatewayTls or a
/// gatewayTlsSha256 means wss://, the fingerprint never taken from the TXT as the pin; without
/// them, ws:// only to loopback, `.local` and private LAN ranges. iOS follows
/// apps/ios/Sources/Gateway/GatewayConnectionController.swift (connectDiscoveredGateway): a
/// discovered Gateway needs TLS or a stored pin; with TLS the user is shown the fingerprint.
public enum PhoneVerdict: Sendable, Equatable {
    /// wss://, after the user trusts the certificate's fingerprint the phone shows.
    case tlsAfterTrust
    /// ws:// in clear text to this host (a LAN or `.local` one).
    case plainText(host: String)
    /// The phone will not connect.
    case refused(PhoneRefusal)
}

public enum PhoneRefusal: Sendable, Equatable {
    /// iOS: "Discovered gateway is missing TLS and no trusted fingerprint is stored."
    case iosNeedsTLS
    /// Android: clear text only to loopback, `.local`, 10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7.
    case androidCleartextHost(String)
}

public struct PhonesEvidence: Sendable, Equatable {
    public struct Beacon: Sendable, Equatable {
        public let name: String
        public let android: PhoneVerdict
        public let ios: PhoneVerdict
        public var refused: Bool {
            if case .refused = android { return true }
            if case .refused = ios { return true }
            return false
        }
    }

    public let beacons: [Beacon]

    public init(beacons: [GatewayBeacon]) {
        self.beacons = beacons.map { beacon in
            let info = beacon.reading.info
            let tls = info.tls || info.tlsSha256 != nil
            let host = Self.dialHost(beacon)
            let android: PhoneVerdict =
                tls ? .tlsAfterTrust : Self.cleartextAllowed(host) ? .plainText(host: host) : .refused(.androidCleartextHost(host))
            return Beacon(name: beacon.instance.displayName, android: android, ios: tls ? .tlsAfterTrust : .refused(.iosNeedsTLS))
        }
    }

    /// The host a phone dials: over mDNS the TXT's lanHost (else the SRV host), over wide-area
    /// DNS-SD the SRV host (lanHost is for the LAN only).
    static func dialHost(_ beacon: GatewayBeacon) -> String {
        let lanHost = beacon.sources.contains(.mdns) ? beacon.reading.info.lanHost.map(BeaconHost.init) : nil
        return (lanHost ?? beacon.host)?.key ?? beacon.addresses.first?.description.lowercased() ?? ""
    }

    /// isLocalCleartextGatewayHost: loopback, `.local`, or a private or link-local address
    /// (not the tailnet's 100.64.0.0/10, not a DNS name outside `.local`).
    static func cleartextAllowed(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".local") { return true }
        guard let address = IPAddress(host) else { return false }
        return address.isPrivate && !(address.family == .v4 && address.isTailscale)
    }
}

extension MachineChecks {
    /// A warning when a phone would refuse a discovered Gateway.
    static func phones(_ discovery: DiscoverySummary) -> Check {
        let evidence = PhonesEvidence(beacons: discovery.beacons.filter { $0.sources != [.manual] })
        let wrapped = CheckEvidence.phones(evidence)
        guard !evidence.beacons.isEmpty else { return Check(.discoveryPhones, .skip, .noGatewaysSeen, evidence: wrapped) }
        if evidence.beacons.contains(where: \.refused) { return Check(.discoveryPhones, .warn, .phoneRefuses, evidence: wrapped) }
        return Check(.discoveryPhones, .pass, .ok, evidence: wrapped)
    }
}
