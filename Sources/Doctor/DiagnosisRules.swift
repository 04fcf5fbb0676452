import Avahi
import DNSSD
import Host
import Probes

/// What the rules look at: the machine's checks, its facts, and what discovery found.
public struct MachineEvidence: Sendable {
    public let checks: [Check]
    public let facts: MachineFacts
    public let discovery: DiscoverySummary

    public init(checks: [Check], facts: MachineFacts, discovery: DiscoverySummary) {
        self.checks = checks
        self.facts = facts
        self.discovery = discovery
    }

    func check(_ id: CheckID) -> Check? { checks.first { $0.id == id } }

    /// mDNS can work here, yet nothing answered in local.: the question is why.
    var localIsEmptyThoughUsable: Bool {
        discovery.localBrowsed && facts.avahiRunning && !facts.multicastInterfaces.isEmpty && discovery.localBeacons.isEmpty
    }
}

/// Rules that turn typed facts into causes. Each is a small function that says one thing;
/// `diagnose` runs them in a fixed order. No rule reads a message: they match on check ids,
/// statuses and reasons.
public enum DiagnosisRules {
    public typealias MachineRule = @Sendable (MachineEvidence) -> Diagnosis?
    public typealias GatewayRule = @Sendable (GatewayResult) -> [Diagnosis]

    /// Why nothing is found in local.: the first of these that applies.
    public static let localDiscovery: [MachineRule] = [noMDNS, gatewayNotAdvertising, multicastBlockedSilentHost, multicastBlocked]
    public static let machine: [MachineRule] = [twoMDNSStacks]
    public static let gateway: [GatewayRule] = [gatewayNotListening, firewall, pinChanged, tlsExpected, tlsNotAdvertisedOrFailedLayer]

    public static func diagnose(_ evidence: MachineEvidence, gateways: [GatewayResult]) -> [Diagnosis] {
        var found = localDiscovery.lazy.compactMap { $0(evidence) }.first.map { [$0] } ?? []
        found += machine.compactMap { $0(evidence) }
        found += splitDNS(evidence)
        for result in gateways {
            found += gateway.flatMap { $0(result) }
        }
        return found
    }

    // MARK: This machine

    static let noMDNS: MachineRule = { evidence in
        let bus = evidence.check(.mdnsDBus)
        let daemon = evidence.check(.mdnsDaemon)
        let busFailed = bus?.status == .fail
        guard busFailed || daemon?.status == .fail else { return nil }
        return Diagnosis(
            .noMDNS,
            cause:
                "This machine has no working mDNS daemon (\(busFailed ? "no D-Bus system bus" : "avahi-daemon not running")): nodes here "
                + "cannot find Gateways on the LAN. Containers and WSL2 often have neither",
            fix: (busFailed ? bus?.fix : daemon?.fix) ?? "start avahi-daemon",
            evidence: [.init(.mdnsDBus), .init(.mdnsDaemon)])
    }

    static let gatewayNotAdvertising: MachineRule = { evidence in
        guard evidence.localIsEmptyThoughUsable,
            let host = evidence.discovery.hostAnswers.first(where: { $0.name != nil }), let name = host.name
        else { return nil }
        return Diagnosis(
            .gatewayNotAdvertising,
            cause:
                "Gateway \(host.gateway) is not advertised in local., yet its host \(host.address) answers mDNS from here as \(name): "
                + "multicast crosses the network, the Gateway's own mDNS advertising is off or failing",
            fix:
                "on the Gateway host look for bonjour/mDNS errors in the Gateway's log and restart it; `clawnet advertise --name test` "
                + "there shows whether that host can advertise at all",
            evidence: [.init(.mdnsBrowse)])
    }

    static let multicastBlockedSilentHost: MachineRule = { evidence in
        guard evidence.localIsEmptyThoughUsable,
            let host = evidence.discovery.hostAnswers.first(where: { $0.answer == .noAnswer })
        else { return nil }
        return Diagnosis(
            .multicastBlocked,
            cause:
                "Gateway \(host.gateway) lives at \(host.address), but neither its beacon nor its host answers mDNS from here: multicast "
                + "(UDP 5353 to 224.0.0.251 / ff02::fb) does not cross between the two (a firewall, Wi-Fi client isolation, IGMP "
                + "snooping, another subnet), or that host runs no mDNS responder",
            fix:
                "allow UDP 5353 on both hosts' firewalls (`sudo ufw allow 5353/udp`; nftables: `nft list ruleset | grep 5353`), turn off "
                + "client isolation on the Wi-Fi, or keep using wide-area discovery (`clawnet zone generate`)",
            evidence: [.init(.mdnsBrowse)])
    }

    static let multicastBlocked: MachineRule = { evidence in
        guard evidence.localIsEmptyThoughUsable else { return nil }
        let interfaces = evidence.facts.multicastInterfaces.map(\.name).joined(separator: ", ")
        return Diagnosis(
            .multicastBlocked,
            cause:
                "avahi-daemon runs and \(interfaces) can carry multicast, but no Gateway answers in local.: either no Gateway advertises, "
                + "or multicast does not cross the network (Wi-Fi client isolation, IGMP snooping, a firewall dropping UDP 5353)",
            fix:
                "on the Gateway host run `clawnet advertise --name test`; if `clawnet browse` here still shows nothing, allow UDP 5353 to "
                + "224.0.0.251 / ff02::fb (`sudo ufw allow 5353/udp`), turn off client isolation, or use wide-area discovery (`clawnet "
                + "zone generate`)",
            evidence: [.init(.mdnsDaemon), .init(.mdnsInterfaces), .init(.mdnsBrowse)])
    }

    static let twoMDNSStacks: MachineRule = { evidence in
        guard let stacks = evidence.check(.mdnsPort5353), stacks.reason == .otherResponders else { return nil }
        return Diagnosis(.twoMDNSStacks, cause: stacks.message, fix: stacks.fix ?? "", evidence: [.init(.mdnsPort5353)])
    }

    /// One per wide-area domain that answers only at Tailscale's resolver.
    static func splitDNS(_ evidence: MachineEvidence) -> [Diagnosis] {
        evidence.checks.filter { $0.id == .dnsWideArea && $0.status == .fail && $0.reason == .splitDNS }.map { check in
            Diagnosis(.splitDNS, cause: check.message, fix: check.fix ?? "", evidence: [.init(.dnsWideArea), .init(.tailscaleInterface)])
        }
    }

    // MARK: Each Gateway

    static let gatewayNotListening: GatewayRule = { result in
        guard let beacon = result.beacon, !beacon.isManualOnly, result.failed(.gwTCP, .refused) else { return [] }
        let target = result.target
        let path = beacon.sources.contains(.mdns) ? "mDNS" : "DNS-SD"
        return [
            Diagnosis(
                .gatewayNotListening,
                cause:
                    "\(target.label) is advertised by \(path) at \(target.addresses.map(\.description).joined(separator: ", ")) port "
                    + "\(target.port), but nothing listens there: the Gateway binds loopback (gateway.bind = loopback) or is not "
                    + "running",
                fix:
                    "on the Gateway host set gateway.bind to \"lan\" (or \"tailnet\") in ~/.openclaw/openclaw.json and restart it; `ss "
                    + "-ltnp | grep \(target.port)` there shows what it listens on",
                evidence: [.init(.gwTCP, target: target.label)])
        ]
    }

    static let firewall: GatewayRule = { result in
        guard result.failed(.gwTCP, .timedOut), let tcp = result.check(.gwTCP) else { return [] }
        let label = result.target.label
        return [Diagnosis(.firewall, cause: "\(label): \(tcp.message)", fix: tcp.fix ?? "", evidence: [.init(.gwTCP, target: label)])]
    }

    static let pinChanged: GatewayRule = { result in
        guard result.failed(.gwPin), let pin = result.check(.gwPin) else { return [] }
        let label = result.target.label
        let cause =
            pin.reason == .advertisedMismatch
            ? "\(label) presents a certificate other than the one its beacon advertises: the certificate was rotated (and the beacon is "
                + "stale) or a TLS-terminating proxy sits in the path"
            : "\(label) presents a certificate other than the pinned one: \(pin.message)"
        return [Diagnosis(.pinChanged, cause: cause, fix: pin.fix ?? "", evidence: [.init(.gwPin, target: label)])]
    }

    static let tlsExpected: GatewayRule = { result in
        guard result.target.tls, result.failed(.gwTLS, .notTLS), let tls = result.check(.gwTLS) else { return [] }
        let label = result.target.label
        let why = result.beacon?.gateway.tls == true ? "its beacon says gatewayTls=1" : "wss:// or the config asks for it"
        return [
            Diagnosis(
                .tlsExpected, cause: "\(label) is expected to speak TLS (\(why), but answers in plain text",
                fix: tls.fix ?? "", evidence: [.init(.gwTLS, target: label)])
        ]
    }

    /// A TLS server probed as plain ws:// explains the failures of its later layers; without
    /// it, each failed layer (certificate, WebSocket, protocol) is its own cause.
    static let tlsNotAdvertisedOrFailedLayer: GatewayRule = { result in
        tlsNotAdvertised(result).map { [$0] } ?? failedLayers(result)
    }

    static func tlsNotAdvertised(_ result: GatewayResult) -> Diagnosis? {
        guard !result.target.tls, let websocket = result.check(.gwWebSocket), websocket.reason == .wantsTLS else { return nil }
        let label = result.target.label
        let cause =
            result.beacon != nil
            ? "\(label) speaks TLS, but its beacon has no gatewayTls=1: nodes that trust the beacon connect with ws:// and fail"
            : "\(label) speaks TLS, but was given as plain ws:// (no wss:// in the URL, and gateway.tls is off in the config): a node told "
                + "ws:// cannot connect"
        return Diagnosis(
            .tlsNotAdvertised, cause: cause, fix: websocket.fix ?? "",
            evidence: [.init(.gwHTTP, target: label), .init(.gwWebSocket, target: label)])
    }

    static func failedLayers(_ result: GatewayResult) -> [Diagnosis] {
        let layers: [(CheckID, DiagnosisID)] = [(.gwCert, .certificate), (.gwWebSocket, .webSocket), (.gwProtocol, .gatewayProtocol)]
        let label = result.target.label
        return layers.compactMap { id, cause in
            guard result.failed(id), let check = result.check(id) else { return nil }
            return Diagnosis(cause, cause: "\(label): \(check.message)", fix: check.fix ?? "", evidence: [.init(id, target: label)])
        }
    }
}
