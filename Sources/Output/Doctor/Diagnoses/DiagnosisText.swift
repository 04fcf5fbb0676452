import Avahi
import DNSSD
import Doctor
import Host
import Probes

/// The words of a cause, written from what its rule found: what is broken, and how to fix it
/// (never empty: a check without a fix says where to look).
struct DiagnosisText: Equatable {
    let cause: String
    let fix: String

    init(cause: String, fix: String) {
        self.cause = cause
        self.fix = fix
    }

    init(_ diagnosis: Diagnosis) {
        self = Self.words(diagnosis.id, diagnosis.finding)
    }

    static func words(_ id: DiagnosisID, _ finding: Diagnosis.Finding) -> DiagnosisText {
        switch finding {
        case .check(let check, let target?): gatewayCheck(id, check, target: target)
        case .check(let check, nil): machineCheck(id, check)
        case .noMDNS(let busMissing, let installed, let failing):
            noMDNS(busMissing: busMissing, daemonInstalled: installed, failing: failing)
        case .hostAnswer(let host): id == .gatewayNotAdvertising ? hostAnswers(host) : hostSilent(host)
        case .advertisingOff(let off, let path):
            DiagnosisText(
                cause:
                    "This Gateway does not advertise _openclaw-gw._tcp in local.: \(off.setting); nodes on the LAN cannot find it by mDNS",
                fix: off.fix(configPath: path))
        case .mdnsTimeout(let names): mdnsTimeout(names)
        case .multicastBlocked(let interfaces): multicastBlocked(interfaces)
        case .notListening(let target, let mdns, let addresses, let port, let host): notListening(target, mdns: mdns, addresses, port, host)
        case .tailnetUnreachable(let target, let lost, let port, let tailnet): tailnetUnreachable(target, lost, port, tailnet)
        case .unroutable(let target, let lost, let docker, let answered): unroutable(target, lost, docker: docker, answered: answered)
        case .pinChanged(let target, let pin, let withheld): pinChanged(target, pin: pin, withheld: withheld)
        case .certificateRenewed(let target, let pin): certificateRenewed(target, pin)
        case .staleFingerprintRecord(let target, let stale, let observed, let confirmed):
            staleFingerprintRecord(target, stale, observed: observed, confirmed: confirmed)
        case .tlsExpected(let target, let byBeacon, let hostHeader): tlsExpected(target, byBeacon: byBeacon, hostHeader: hostHeader)
        case .tlsNotAdvertised(let target, let plain, let webSocket): tlsNotAdvertised(target, plain, webSocket)
        case .intermediary(let finding): intermediary(id, finding)
        case .resolvedRoute(let domain, let link, let routedBy): resolvedRoute(domain, link, routedBy: routedBy)
        case .contained(let platform): containerMulticast(platform)
        }
    }

    /// The check's own fix; where it has none, where to look: a cause never shows an empty fix.
    static func fix(of check: Check) -> String {
        if let fix = CheckText(check).fix, !fix.isEmpty { return fix }
        return "read the \(check.id) check (\(check.title)) above: its message says what it found; `clawnet doctor --check \(check.id)` "
            + "runs it alone"
    }

    /// A cause that one machine check says.
    static func machineCheck(_ id: DiagnosisID, _ check: Check) -> DiagnosisText {
        let message = CheckText(check).message
        let cause: String
        switch id {
        // The check's words already end in "mDNS cannot leave this machine".
        case .noMulticastInterface: cause = message
        case .deviceIdentityUnstable:
            cause = "This node's device identity is not stable, so the Gateway keeps asking to pair it: \(message)"
        case .deviceIdentityElsewhere: cause = "This node is more than one device to the Gateway: \(message)"
        case .beaconDisagrees: cause = "A beacon contradicts itself, so clients dial another place than DNS-SD resolves: \(message)"
        case .hostNameCollision: cause = "Two machines claim one host name: \(message)"
        case .gatewayAdvertisedTwice: cause = "One Gateway is advertised under several names: \(message)"
        case .multipleGateways: cause = "More than one Gateway answers here: \(message)"
        case .phoneRefuses: cause = "OpenClaw's phone apps would refuse a discovered Gateway: \(message)"
        case .wideAreaDomain:
            var domain = "the wide-area domain"
            if case .wideArea(let evidence) = check.evidence { domain = evidence.domain.name }
            cause = "Nodes here cannot browse \(domain): \(message)"
        case .checkFailed: cause = "\(check.title) failed: \(message)"
        default: cause = message
        }
        return DiagnosisText(cause: cause, fix: fix(of: check))
    }

    static func noMDNS(busMissing: Bool, daemonInstalled: Bool, failing: Check?) -> DiagnosisText {
        let missing =
            switch (busMissing, daemonInstalled) {
            case (true, true): "no D-Bus system bus"
            case (true, false): "no D-Bus system bus, and avahi-daemon is not installed"
            case (false, true): "avahi-daemon not running"
            case (false, false): "avahi-daemon is not installed"
            }
        return DiagnosisText(
            cause:
                "This machine has no working mDNS daemon (\(missing)): nodes here cannot find Gateways on the LAN. Containers and WSL2 "
                + "often have neither",
            fix: daemonInstalled ? failing.flatMap { CheckText($0).fix } ?? AvahiDaemonFix.start : AvahiDaemonFix.install)
    }

    static func hostAnswers(_ host: HostAnswer) -> DiagnosisText {
        guard !host.gatewayStopped else {
            return DiagnosisText(
                cause: "Gateway \(host.gateway) is not advertised in local., and its host \(host.address) answers mDNS from here as "
                    + "\(host.name ?? "?"), but nothing listens on the Gateway's port: it is stopped, and a stopped Gateway does not "
                    + "advertise",
                fix: "start it on \(host.name ?? host.address.description): \(startGateway)")
        }
        return DiagnosisText(
            cause:
                "Gateway \(host.gateway) is not advertised in local., yet its host \(host.address) answers mDNS from here as "
                + "\(host.name ?? "?"): multicast crosses the network, the Gateway's own mDNS advertising is off or failing",
            fix:
                "run `clawnet doctor` on the Gateway host: it names the switch that is off (discovery.mdns.mode, OPENCLAW_DISABLE_BONJOUR, "
                + "the bonjour plugin, a container); otherwise look for bonjour errors in the Gateway's log and restart it (`clawnet "
                + "advertise --name test` there shows whether that host can advertise at all)")
    }

    static func hostSilent(_ host: HostAnswer) -> DiagnosisText {
        DiagnosisText(
            cause:
                "Gateway \(host.gateway) lives at \(host.address), but neither its beacon nor its host answers mDNS from here: multicast "
                + "(UDP 5353 to 224.0.0.251 / ff02::fb) does not cross between the two (a firewall, Wi-Fi client isolation, IGMP "
                + "snooping, another subnet), or that host runs no mDNS responder",
            fix:
                "allow UDP 5353 on both hosts' firewalls (`sudo ufw allow 5353/udp`; nftables: `nft list ruleset | grep 5353`), turn off "
                + "client isolation on the Wi-Fi, or keep using wide-area discovery (`clawnet zone generate`)")
    }

    static func mdnsTimeout(_ names: [String]) -> DiagnosisText {
        DiagnosisText(
            cause: "mDNS timed out: no beacon answered in local., and no host answered for \(names.prefix(4).joined(separator: ", ")) by "
                + "mDNS: multicast (UDP 5353 to 224.0.0.251 / ff02::fb) does not cross between this machine and the Gateway host (a "
                + "firewall, Wi-Fi client isolation, IGMP snooping, another subnet)",
            fix:
                "allow UDP 5353 on both hosts' firewalls (`sudo ufw allow 5353/udp`; nftables: `nft list ruleset | grep 5353`), turn off "
                + "client isolation on the Wi-Fi, or give the node an address or a wide-area name instead of the .local one")
    }

    static func multicastBlocked(_ interfaces: [String]) -> DiagnosisText {
        DiagnosisText(
            cause:
                "avahi-daemon runs and \(interfaces.joined(separator: ", ")) can carry multicast, but no Gateway answers in local.: either "
                + "no Gateway advertises, or multicast does not cross the network (Wi-Fi client isolation, IGMP snooping, a firewall "
                + "dropping UDP 5353)",
            fix:
                "on the Gateway host run `clawnet advertise --name test`; if `clawnet browse` here still shows nothing, allow UDP 5353 to "
                + "224.0.0.251 / ff02::fb (`sudo ufw allow 5353/udp`), turn off client isolation, or use wide-area discovery (`clawnet "
                + "zone generate`)")
    }
}
