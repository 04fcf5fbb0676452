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

    /// mDNS can work here, yet nothing answered in local.: the question is why (unless this
    /// machine's own Gateway does not advertise, which says why already).
    var localIsEmptyThoughUsable: Bool {
        discovery.localBrowsed && facts.avahiRunning && !facts.multicastInterfaces.isEmpty && discovery.localBeacons.isEmpty
            && facts.advertisingOff == nil
    }

    /// A beacon in local. at one of this machine's own addresses: its Gateway advertises.
    var ownBeaconSeen: Bool {
        let own = Set(facts.interfaces.flatMap(\.addresses).map(\.withoutZone))
        return discovery.localBeacons.contains { beacon in beacon.addresses.contains { own.contains($0.withoutZone) } }
    }
}

/// Rules that turn typed facts into causes. Each is a small function that says one thing;
/// `diagnose` runs them in a fixed order. No rule reads a message: they match on check ids,
/// statuses, reasons and the machine's facts. A failing check that no rule explains still gets
/// a cause: the layer's own (`gw-tls`, `gw-http`, ...), else `check-failed` naming the check.
public enum DiagnosisRules {
    public typealias MachineRule = @Sendable (MachineEvidence) -> Diagnosis?
    public typealias GatewayRule = @Sendable (GatewayResult, MachineEvidence) -> [Diagnosis]

    /// Why nothing is found in local.: the first of these that applies.
    public static let localDiscovery: [MachineRule] = [noMDNS, gatewayNotAdvertising, multicastBlockedSilentHost, multicastBlocked]
    public static let machine: [MachineRule] = [twoMDNSStacks, advertisingSwitchedOff, noMulticastInterface]
    public static let gateway: [GatewayRule] = [
        nameNotFound, nssMdnsMissing, magicDNSNotApplied, nameUnresolved, gatewayNotListening, nothingListens, tailnetUnreachable,
        unroutableAddress, firewall, hostUnreachable, tlsVersion, tlsAlert, pinChanged, tlsExpected, tlsNotAdvertised, anotherProgram,
        pairingRequired, gatewayAuth, protocolMismatch,
    ]

    public static func diagnose(_ evidence: MachineEvidence, gateways: [GatewayResult]) -> [Diagnosis] {
        var found = localDiscovery.lazy.compactMap { $0(evidence) }.first.map { [$0] } ?? []
        found += machine.compactMap { $0(evidence) }
        found += splitDNS(evidence) + wideAreaDomain(evidence)
        found += unexplained(evidence.checks, target: nil, explained: found)
        for result in gateways {
            var causes = gateway.flatMap { $0(result, evidence) }
            causes += failedLayers(result, explained: causes)
            causes += unexplained(result.checks, target: result.target.label, explained: causes)
            found += causes
        }
        return found
    }

    /// A failing check that no diagnosis names in its evidence gets a generic one that does:
    /// no failure ends a run without a cause.
    static func unexplained(_ checks: [Check], target: String?, explained: [Diagnosis]) -> [Diagnosis] {
        let named = Set(explained.flatMap(\.evidence))
        return checks.filter { $0.status == .fail && !named.contains(.init($0.id, target: target)) }.map { check in
            let prefix = target.map { "\($0): " } ?? ""
            return Diagnosis(
                .checkFailed, cause: "\(prefix)\(check.title) failed: \(check.message)", fix: fix(of: check),
                evidence: [.init(check.id, target: target)])
        }
    }

    /// The check's own fix; where it has none, where to look: a cause never shows an empty fix.
    static func fix(of check: Check) -> String {
        if let fix = check.fix, !fix.isEmpty { return fix }
        return "read the \(check.id) check (\(check.title)) above: its message says what it found; `clawnet doctor --check \(check.id)` "
            + "runs it alone"
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
                "run `clawnet doctor` on the Gateway host: it names the switch that is off (discovery.mdns.mode, OPENCLAW_DISABLE_BONJOUR, "
                + "the bonjour plugin, a container); otherwise look for bonjour errors in the Gateway's log and restart it (`clawnet "
                + "advertise --name test` there shows whether that host can advertise at all)",
            evidence: [.init(.mdnsBrowse)])
    }

    /// On a Gateway host: a switch keeps this Gateway from advertising, and its beacon is not in local.
    static let advertisingSwitchedOff: MachineRule = { evidence in
        guard let off = evidence.facts.advertisingOff, !evidence.ownBeaconSeen else { return nil }
        return Diagnosis(
            .gatewayNotAdvertising,
            cause: "This Gateway does not advertise _openclaw-gw._tcp in local.: \(off.setting); nodes on the LAN cannot find it by mDNS",
            fix: off.fix(configPath: evidence.facts.config.path), evidence: [.init(.openclawAdvertising), .init(.mdnsBrowse)])
    }

    static let noMulticastInterface: MachineRule = { evidence in
        guard let check = evidence.check(.mdnsInterfaces), check.status == .fail, check.reason == .noMulticastInterface else { return nil }
        return Diagnosis(
            .noMulticastInterface, cause: "mDNS cannot leave this machine: \(check.message)", fix: fix(of: check),
            evidence: [.init(.mdnsInterfaces)])
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
        return Diagnosis(.twoMDNSStacks, cause: stacks.message, fix: fix(of: stacks), evidence: [.init(.mdnsPort5353)])
    }

    /// One per wide-area domain that answers only at Tailscale's resolver.
    static func splitDNS(_ evidence: MachineEvidence) -> [Diagnosis] {
        evidence.checks.filter { $0.id == .dnsWideArea && $0.status == .fail && $0.reason == .splitDNS }.map { check in
            Diagnosis(.splitDNS, cause: check.message, fix: fix(of: check), evidence: [.init(.dnsWideArea), .init(.tailscaleInterface)])
        }
    }

    /// One per wide-area domain whose DNS answers with an error (NXDOMAIN, REFUSED, silence).
    static func wideAreaDomain(_ evidence: MachineEvidence) -> [Diagnosis] {
        evidence.checks.filter { $0.id == .dnsWideArea && $0.status == .fail && $0.reason == .domainError }.map { check in
            Diagnosis(
                .wideAreaDomain, cause: "Nodes here cannot browse \(check.detail["domain"] ?? "the wide-area domain"): \(check.message)",
                fix: fix(of: check), evidence: [.init(.dnsWideArea)])
        }
    }

    // MARK: Each Gateway

    /// A check of `result` that failed for one of `reasons`.
    static func failing(_ result: GatewayResult, _ id: CheckID, _ reasons: Set<CheckReason>) -> Check? {
        guard let check = result.check(id), check.status == .fail, reasons.contains(check.reason) else { return nil }
        return check
    }

    // MARK: Each Gateway: its name

    static let nameNotFound: GatewayRule = { result, _ in
        guard let dns = failing(result, .gwDNS, [.nameNotFound]) else { return [] }
        let host = ConnectURL.withoutTrailingDot(result.target.host)
        return [
            Diagnosis(
                .nameNotFound, cause: "\(host) does not exist in DNS (NXDOMAIN): a typo, or its records were never published",
                fix: fix(of: dns), evidence: [.init(.gwDNS, target: result.target.label)])
        ]
    }

    static let nssMdnsMissing: GatewayRule = { result, _ in
        guard let dns = failing(result, .gwDNS, [.localNameWithoutNSS]) else { return [] }
        let host = ConnectURL.withoutTrailingDot(result.target.host)
        return [
            Diagnosis(
                .nssMdnsMissing,
                cause: "\(host) is a .local name, and this machine's resolver does not ask mDNS (no libnss-mdns in /etc/nsswitch.conf): "
                    + "programs here cannot resolve it, though Avahi can",
                fix: fix(of: dns), evidence: [.init(.gwDNS, target: result.target.label), .init(.mdnsNSS)])
        ]
    }

    static let magicDNSNotApplied: GatewayRule = { result, _ in
        guard let dns = failing(result, .gwDNS, [.magicDNSNotApplied]) else { return [] }
        let host = ConnectURL.withoutTrailingDot(result.target.host)
        return [
            Diagnosis(
                .magicDNSNotApplied,
                cause: "\(host) resolves only at Tailscale's resolver 100.100.100.100 (\(dns.detail["magicDNS"] ?? "")), not through this "
                    + "machine's resolver: MagicDNS is not applied here",
                fix: fix(of: dns), evidence: [.init(.gwDNS, target: result.target.label), .init(.tailscaleInterface)])
        ]
    }

    static let nameUnresolved: GatewayRule = { result, _ in
        guard let dns = failing(result, .gwDNS, [.noAddress, .unknownTarget]) else { return [] }
        let cause =
            dns.reason == .unknownTarget
            ? "\(result.target.label) is neither a Gateway doctor discovered nor a host name or URL"
            : "\(ConnectURL.withoutTrailingDot(result.target.host)) gives no address: \(dns.message)"
        return [
            Diagnosis(
                dns.reason == .unknownTarget ? .unknownTarget : .nameUnresolved, cause: cause, fix: fix(of: dns),
                evidence: [.init(.gwDNS, target: result.target.label)])
        ]
    }

    // MARK: Each Gateway: TCP

    static let gatewayNotListening: GatewayRule = { result, _ in
        guard let beacon = result.beacon, !beacon.isManualOnly, failing(result, .gwTCP, [.refused]) != nil else { return [] }
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

    /// Refused where no beacon promised a Gateway: a URL, a host, this machine.
    static let nothingListens: GatewayRule = { result, _ in
        guard let tcp = failing(result, .gwTCP, [.refused, .nothingListensLocally]),
            tcp.reason == .nothingListensLocally || result.beacon?.isManualOnly ?? true
        else { return [] }
        let target = result.target
        return [
            Diagnosis(
                .nothingListens,
                cause: "\(target.label): nothing listens on port \(target.port) there: the Gateway is not running, or listens on another "
                    + "address or port",
                fix: fix(of: tcp), evidence: [.init(.gwTCP, target: target.label)])
        ]
    }

    /// The addresses a Gateway did not answer on, when it answered on none or a route is missing.
    static func silentAddresses(_ result: GatewayResult) -> [IPAddress] {
        guard let tcp = result.check(.gwTCP), [.timedOut, .unreachable, .partlyUnreachable].contains(tcp.reason) else { return [] }
        let silent = result.tcp.filter { attempt in
            switch attempt.outcome {
            case .connected, .refused: false
            case .timedOut, .unreachable, .failed: true
            }
        }
        return result.target.addresses.filter { address in silent.contains { $0.address == address } }
    }

    static let tailnetUnreachable: GatewayRule = { result, evidence in
        let tailnet = evidence.facts.tailnet
        let lost = silentAddresses(result).filter { tailnet.contains($0) }
        guard !lost.isEmpty, result.check(.gwTCP)?.status == .fail else { return [] }
        let shown = lost.map(\.description).joined(separator: ", ")
        let port = result.target.port
        let cause =
            tailnet.isJoined
            ? "\(result.target.label) lives on a tailnet (\(shown)) and this machine is on one "
                + "(\(tailnet.interfaces.joined(separator: ", "))), "
                + "but the Gateway host does not answer: it is offline, on another tailnet, or ACLs block TCP \(port)"
            : "\(result.target.label) lives on a tailnet (\(shown)), but this machine is not on one (no tailscale0 interface up): "
                + "Tailscale is down or not installed here"
        let fix =
            tailnet.isJoined
            ? "`tailscale status` and `tailscale ping \(lost[0])`: both machines must be in the same tailnet, and its ACLs must allow TCP "
                + "\(port)"
            : "start Tailscale and join the Gateway's tailnet: `sudo tailscale up` (`tailscale status` then lists the Gateway host)"
        return [
            Diagnosis(
                .tailnetUnreachable, cause: cause, fix: fix,
                evidence: [.init(.gwTCP, target: result.target.label), .init(.tailscaleInterface)])
        ]
    }

    /// An advertised address this machine has no route to: a Docker bridge, another NIC.
    static let unroutableAddress: GatewayRule = { result, evidence in
        let routes = evidence.facts.routes
        guard !routes.isEmpty else { return [] }
        let tailnet = evidence.facts.tailnet
        let lost = silentAddresses(result).filter { RoutingTable.specificRoute(to: $0, in: routes) == nil && !tailnet.contains($0) }
        guard !lost.isEmpty else { return [] }
        let docker = IPNetwork("172.16.0.0/12")!
        let kind =
            lost.contains { docker.contains($0) }
            ? "looks like a Docker bridge (docker0 uses 172.17.0.0/16)"
            : "is on a network this machine is not on (another NIC of the host?)"
        let shown = lost.map(\.description).joined(separator: ", ")
        let answered = result.check(.gwTCP)?.status != .fail
        return [
            Diagnosis(
                .unroutableAddress,
                cause: "\(result.target.label) is advertised at \(shown), which \(kind): this machine has no route there"
                    + (answered
                        ? "; nodes that try it first wait before they reach the Gateway" : ", and the Gateway answers nowhere else"),
                fix:
                    "on the Gateway host keep that interface out of the beacon (Avahi: `deny-interfaces=docker0` in "
                    + "/etc/avahi/avahi-daemon.conf), or make the Gateway reachable on an address this machine can route to",
                evidence: [.init(.gwTCP, target: result.target.label)])
        ]
    }

    static let firewall: GatewayRule = { result, evidence in
        guard let tcp = failing(result, .gwTCP, [.timedOut]), !explainedByRoute(result, evidence) else { return [] }
        let label = result.target.label
        return [Diagnosis(.firewall, cause: "\(label): \(tcp.message)", fix: fix(of: tcp), evidence: [.init(.gwTCP, target: label)])]
    }

    static let hostUnreachable: GatewayRule = { result, evidence in
        guard let tcp = failing(result, .gwTCP, [.unreachable]), !explainedByRoute(result, evidence) else { return [] }
        let label = result.target.label
        return [
            Diagnosis(
                .hostUnreachable, cause: "\(label): \(tcp.message): the host is down or not on this network", fix: fix(of: tcp),
                evidence: [.init(.gwTCP, target: label)])
        ]
    }

    /// A silent address that the tailnet or a missing route explains.
    static func explainedByRoute(_ result: GatewayResult, _ evidence: MachineEvidence) -> Bool {
        !tailnetUnreachable(result, evidence).isEmpty || !unroutableAddress(result, evidence).isEmpty
    }

    // MARK: Each Gateway: TLS

    static let tlsVersion: GatewayRule = { result, _ in
        guard let tls = failing(result, .gwTLS, [.tlsVersion]) else { return [] }
        let label = result.target.label
        return [
            Diagnosis(
                .tlsVersion,
                cause: "\(label) answers with \(tls.detail["version"] ?? "an older TLS") only; OpenClaw's Gateway and nodes speak TLS 1.3: "
                    + "something else (a proxy, a load balancer) terminates TLS there",
                fix: fix(of: tls), evidence: [.init(.gwTLS, target: label)])
        ]
    }

    static let tlsAlert: GatewayRule = { result, _ in
        guard let tls = failing(result, .gwTLS, [.tlsAlert]) else { return [] }
        let label = result.target.label
        return [
            Diagnosis(
                .tlsAlert, cause: "\(label) refuses the TLS handshake (\(tls.message)): not a TLS 1.3 server a node can talk to",
                fix: fix(of: tls), evidence: [.init(.gwTLS, target: label)])
        ]
    }

    /// A certificate other than the expected one; when it was met on the connection that would
    /// have carried the credentials, they were withheld (gw.connect says so, and is evidence too).
    static let pinChanged: GatewayRule = { result, _ in
        let label = result.target.label
        let withheld =
            failing(result, .gwConnect, [.withheldPinMismatch]).map { _ in [Diagnosis.Evidence(.gwConnect, target: label)] } ?? []
        guard let pin = failing(result, .gwPin, [.pinMismatch, .advertisedMismatch]) else {
            guard let connect = failing(result, .gwConnect, [.withheldPinMismatch]) else { return [] }
            let cause =
                "\(label) presented the pinned certificate on one connection and another one on the next: something intercepts some "
                + "connections (\(connect.message))"
            return [Diagnosis(.pinChanged, cause: cause, fix: fix(of: connect), evidence: withheld)]
        }
        let cause =
            pin.reason == .advertisedMismatch
            ? "\(label) presents a certificate other than the one its beacon advertises: the certificate changed since the beacon's "
                + "fingerprint was published (the certificate was rotated and the beacon is stale) or a TLS-terminating proxy sits in the "
                + "path"
            : "\(label) presents a certificate other than the pinned one: \(pin.message)"
        return [Diagnosis(.pinChanged, cause: cause, fix: fix(of: pin), evidence: [.init(.gwPin, target: label)] + withheld)]
    }

    static let tlsExpected: GatewayRule = { result, _ in
        guard result.target.tls, failing(result, .gwTLS, [.notTLS]) != nil else { return [] }
        let label = result.target.label
        let host = "\(GatewayProbe.hostHeader(result.target))"
        if result.beacon?.gateway.tls == true {
            return [
                Diagnosis(
                    .tlsExpected,
                    cause: "\(label) is expected to speak TLS (its beacon says gatewayTls=1), but it answers in plain text: nodes that "
                        + "trust the beacon use wss:// and fail",
                    fix:
                        "on the Gateway host turn TLS on (gateway.tls.enabled true in ~/.openclaw/openclaw.json) and restart it, or stop "
                        + "advertising gatewayTls=1",
                    evidence: [.init(.gwTLS, target: label)])
            ]
        }
        return [
            Diagnosis(
                .tlsExpected,
                cause: "\(label) is expected to speak TLS (wss:// or gateway.tls.enabled in the config asks for it), but it answers in "
                    + "plain text",
                fix: "connect with ws://\(host) (the Gateway serves plain WebSockets), or turn TLS on at the Gateway (gateway.tls.enabled)",
                evidence: [.init(.gwTLS, target: label)])
        ]
    }

    /// A TLS server probed as plain ws:// explains the failures of its later layers.
    static let tlsNotAdvertised: GatewayRule = { result, _ in
        guard !result.target.tls, let websocket = result.check(.gwWebSocket), websocket.reason == .wantsTLS else { return [] }
        let label = result.target.label
        let cause =
            result.beacon.map { !$0.isManualOnly } ?? false
            ? "\(label) speaks TLS, but its beacon has no gatewayTls=1: nodes that trust the beacon connect with ws:// and fail"
            : "\(label) speaks TLS, but was given as plain ws:// (no wss:// in the URL, and gateway.tls is off in the config): a node told "
                + "ws:// cannot connect"
        return [
            Diagnosis(
                .tlsNotAdvertised, cause: cause, fix: fix(of: websocket),
                evidence: [.init(.gwHTTP, target: label), .init(.gwWebSocket, target: label), .init(.gwProtocol, target: label)])
        ]
    }

    // MARK: Each Gateway: what answers

    /// Another program on the Gateway's port: its HTTP answers without the Gateway's health body.
    static let anotherProgram: GatewayRule = { result, _ in
        guard let http = failing(result, .gwHTTP, [.unhealthy, .notGatewayHealth]) else { return [] }
        let label = result.target.label
        let server = http.detail["server"].map { " (Server: \(SafeText.display(Array($0.utf8.prefix(80)))))" } ?? ""
        return [
            Diagnosis(
                .anotherProgram,
                cause: "Another program answers on \(label)'s port \(result.target.port)\(server): its /healthz is not a Gateway's",
                fix: fix(of: http),
                evidence: [CheckID.gwHTTP, .gwWebSocket, .gwProtocol, .gwConnect].map { Diagnosis.Evidence($0, target: label) })
        ]
    }

    // MARK: Each Gateway: the handshake

    static let pairingRequired: GatewayRule = { result, _ in
        guard let connect = failing(result, .gwConnect, [.pairingRequired]) else { return [] }
        let label = result.target.label
        let device = result.target.credentials.device.map { " device \($0.deviceId.prefix(12))…" } ?? " this device"
        let request =
            connect.detail["requestId"].map { ": pairing request \(SafeText.display(Array($0.utf8.prefix(128)))) waits there" } ?? ""
        return [
            Diagnosis(
                .pairingRequired, cause: "\(label) has not approved\(device)\(request)", fix: fix(of: connect),
                evidence: [.init(.gwConnect, target: label)])
        ]
    }

    static let gatewayAuth: GatewayRule = { result, _ in
        guard let connect = failing(result, .gwConnect, [.tokenMismatch, .tokenMissing, .authRejected, .deviceAuthRejected]) else {
            return []
        }
        let label = result.target.label
        let what: String
        switch connect.reason {
        case .tokenMissing: what = "requires a token, and none was sent"
        case .tokenMismatch: what = "refuses the token (not its gateway.auth.token)"
        case .deviceAuthRejected: what = "refuses the device identity (\(connect.detail["detailCode"] ?? "device auth"))"
        default: what = "refuses the credentials (\(connect.detail["detailCode"] ?? connect.detail["code"] ?? "unauthorized"))"
        }
        return [
            Diagnosis(.gatewayAuth, cause: "\(label) \(what)", fix: fix(of: connect), evidence: [.init(.gwConnect, target: label)])
        ]
    }

    static let protocolMismatch: GatewayRule = { result, _ in
        guard let connect = failing(result, .gwConnect, [.protocolMismatch]) else { return [] }
        let label = result.target.label
        return [
            Diagnosis(
                .protocolMismatch, cause: "\(label) and its nodes speak different protocol versions: \(connect.message)",
                fix: fix(of: connect), evidence: [.init(.gwConnect, target: label)])
        ]
    }

    /// Each layer that failed and that no rule above explained is its own cause.
    static func failedLayers(_ result: GatewayResult, explained: [Diagnosis]) -> [Diagnosis] {
        let layers: [(CheckID, DiagnosisID)] = [
            (.gwTLS, .tlsHandshake), (.gwCert, .certificate), (.gwHTTP, .health), (.gwWebSocket, .webSocket),
            (.gwProtocol, .gatewayProtocol), (.gwConnect, .connect),
        ]
        let label = result.target.label
        let named = Set(explained.flatMap(\.evidence))
        return layers.compactMap { id, cause in
            guard result.failed(id), !named.contains(.init(id, target: label)), let check = result.check(id) else { return nil }
            return Diagnosis(cause, cause: "\(label): \(check.message)", fix: fix(of: check), evidence: [.init(id, target: label)])
        }
    }
}
