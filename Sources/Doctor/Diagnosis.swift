import DNSSD
import Probes

/// A cause a user needs, made from several checks: what is broken and how to fix it.
public struct Diagnosis: Sendable, Hashable, Codable {
    /// Stable: `gateway-not-listening`, `split-dns`, `pin-changed`, `multicast-blocked`, ...
    public let id: String
    public let cause: String
    public let fix: String
    /// The checks that show it (with the gateway's target when one is concerned).
    public let evidence: [String]
}

/// The gateway-side view the rules need: where a target came from, and its checks.
public struct GatewayResult: Sendable {
    public let target: ProbeTarget
    public let beacon: GatewayBeacon?
    public var checks: [Check]

    func check(_ id: String) -> Check? { checks.first { $0.id == id } }
}

/// Rules that turn facts into causes. Each looks at a few checks and says one thing.
public enum DiagnosisRules {
    public static func diagnose(machine: [Check], gateways: [GatewayResult], facts: MachineFacts, discovery: DiscoverySummary) -> [Diagnosis] {
        var found: [Diagnosis] = []
        func machineCheck(_ id: String) -> Check? { machine.first { $0.id == id } }

        // mDNS: missing daemon, nothing on the network, two responders.
        if machineCheck("mdns.dbus")?.status == .fail || machineCheck("mdns.daemon")?.status == .fail {
            found.append(Diagnosis(
                id: "no-mdns",
                cause: "This machine has no working mDNS daemon (\(machineCheck("mdns.dbus")?.status == .fail ? "no D-Bus system bus" : "avahi-daemon not running")): nodes here cannot find Gateways on the LAN. Containers and WSL2 often have neither",
                fix: machineCheck("mdns.dbus")?.status == .fail ? machineCheck("mdns.dbus")!.fix! : (machineCheck("mdns.daemon")?.fix ?? "start avahi-daemon"),
                evidence: ["mdns.dbus", "mdns.daemon"]))
        } else if discovery.localBrowsed, facts.avahiRunning, !facts.multicastInterfaces.isEmpty, discovery.localBeacons.isEmpty,
                  let host = discovery.hostAnswers.first(where: { $0.name != nil }) {
            found.append(Diagnosis(
                id: "gateway-not-advertising",
                cause: "Gateway \(host.gateway) is not advertised in local., yet its host \(host.address) answers mDNS from here as \(host.name!): multicast crosses the network, the Gateway's own mDNS advertising is off or failing",
                fix: "on the Gateway host look for bonjour/mDNS errors in the Gateway's log and restart it; `clawnet advertise --name test` there shows whether that host can advertise at all",
                evidence: ["mdns.browse"]))
        } else if discovery.localBrowsed, facts.avahiRunning, !facts.multicastInterfaces.isEmpty, discovery.localBeacons.isEmpty,
                  let host = discovery.hostAnswers.first(where: { $0.answer == .noAnswer }) {
            found.append(Diagnosis(
                id: "multicast-blocked",
                cause: "Gateway \(host.gateway) lives at \(host.address), but neither its beacon nor its host answers mDNS from here: multicast (UDP 5353 to 224.0.0.251 / ff02::fb) does not cross between the two (a firewall, Wi-Fi client isolation, IGMP snooping, another subnet), or that host runs no mDNS responder",
                fix: "allow UDP 5353 on both hosts' firewalls (`sudo ufw allow 5353/udp`; nftables: `nft list ruleset | grep 5353`), turn off client isolation on the Wi-Fi, or keep using wide-area discovery (`clawnet zone generate`)",
                evidence: ["mdns.browse"]))
        } else if discovery.localBrowsed, facts.avahiRunning, !facts.multicastInterfaces.isEmpty, discovery.localBeacons.isEmpty {
            found.append(Diagnosis(
                id: "multicast-blocked",
                cause: "avahi-daemon runs and \(facts.multicastInterfaces.map(\.name).joined(separator: ", ")) can carry multicast, but no Gateway answers in local.: either no Gateway advertises, or multicast does not cross the network (Wi-Fi client isolation, IGMP snooping, a firewall dropping UDP 5353)",
                fix: "on the Gateway host run `clawnet advertise --name test`; if `clawnet browse` here still shows nothing, allow UDP 5353 to 224.0.0.251 / ff02::fb (`sudo ufw allow 5353/udp`), turn off client isolation, or use wide-area discovery (`clawnet zone generate`)",
                evidence: ["mdns.daemon", "mdns.interfaces", "mdns.browse"]))
        }
        if let stacks = machineCheck("mdns.port5353"), stacks.status == .warn {
            found.append(Diagnosis(id: "two-mdns-stacks", cause: stacks.message, fix: stacks.fix ?? "", evidence: ["mdns.port5353"]))
        }

        // Wide-area: split DNS.
        for check in machine where check.id == "dns.widearea" && check.status == .fail && check.message.contains("split DNS is not applied") {
            found.append(Diagnosis(id: "split-dns", cause: check.message, fix: check.fix ?? "", evidence: ["dns.widearea", "tailscale.interface"]))
        }

        for gateway in gateways {
            let label = gateway.target.label
            if let beacon = gateway.beacon, !beacon.isManualOnly, let tcp = gateway.check("gw.tcp"), tcp.status == .fail, tcp.message.hasPrefix("connection refused") {
                let path = beacon.sources.contains(.mdns) ? "mDNS" : "DNS-SD"
                found.append(Diagnosis(
                    id: "gateway-not-listening",
                    cause: "\(label) is advertised by \(path) at \(gateway.target.addresses.map(\.description).joined(separator: ", ")) port \(gateway.target.port), but nothing listens there: the Gateway binds loopback (gateway.bind = loopback) or is not running",
                    fix: "on the Gateway host set gateway.bind to \"lan\" (or \"tailnet\") in ~/.openclaw/openclaw.json and restart it; `ss -ltnp | grep \(gateway.target.port)` there shows what it listens on",
                    evidence: ["gw.tcp \(label)"]))
            }
            if let tcp = gateway.check("gw.tcp"), tcp.status == .fail, tcp.message.hasPrefix("no answer") {
                found.append(Diagnosis(id: "firewall", cause: "\(label): \(tcp.message)", fix: tcp.fix ?? "", evidence: ["gw.tcp \(label)"]))
            }
            if let pin = gateway.check("gw.pin"), pin.status == .fail {
                let rotated = pin.message.contains("beacon's gatewayTlsSha256")
                found.append(Diagnosis(
                    id: "pin-changed",
                    cause: rotated
                        ? "\(label) presents a certificate other than the one its beacon advertises: the certificate was rotated (and the beacon is stale) or a TLS-terminating proxy sits in the path"
                        : "\(label) presents a certificate other than the pinned one: \(pin.message)",
                    fix: pin.fix ?? "", evidence: ["gw.pin \(label)"]))
            }
            if let tls = gateway.check("gw.tls"), tls.status == .fail, tls.message.contains("instead of a TLS handshake"), gateway.target.tls {
                found.append(Diagnosis(
                    id: "tls-expected",
                    cause: "\(label) is expected to speak TLS (\(gateway.beacon?.gateway.tls == true ? "its beacon says gatewayTls=1" : "wss:// or the config asks for it"), but answers in plain text",
                    fix: tls.fix ?? "", evidence: ["gw.tls \(label)"]))
            }
            if !gateway.target.tls, let websocket = gateway.check("gw.websocket"), websocket.detail["wantsTLS"] == "true" {
                found.append(Diagnosis(
                    id: "tls-not-advertised",
                    cause: gateway.beacon != nil
                        ? "\(label) speaks TLS, but its beacon has no gatewayTls=1: nodes that trust the beacon connect with ws:// and fail"
                        : "\(label) speaks TLS, but was given as plain ws:// (no wss:// in the URL, and gateway.tls is off in the config): a node told ws:// cannot connect",
                    fix: websocket.fix ?? "", evidence: ["gw.http \(label)", "gw.websocket \(label)"]))
                continue
            }
            for id in ["gw.cert", "gw.websocket", "gw.protocol"] {
                if let check = gateway.check(id), check.status == .fail {
                    found.append(Diagnosis(id: id.replacingAll(".", "-"), cause: "\(label): \(check.message)", fix: check.fix ?? "", evidence: ["\(id) \(label)"]))
                }
            }
        }
        return found
    }
}

extension String {
    func replacingAll(_ target: Character, _ replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
