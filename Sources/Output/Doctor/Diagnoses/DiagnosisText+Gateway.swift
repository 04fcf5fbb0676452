import DNSSD
import Doctor
import Host
import Probes

/// The words of a Gateway's causes; `target` is its label in the report.
extension DiagnosisText {
    /// A cause that one of the Gateway's checks says.
    static func gatewayCheck(_ id: DiagnosisID, _ check: Check, target: String) -> DiagnosisText {
        let message = CheckText(check).message
        let cause: String
        switch (id, check.evidence) {
        case (.nameNotFound, .dns(let dns)):
            cause = "\(host(dns)) does not exist in DNS (NXDOMAIN): a typo, or its records were never published"
        case (.nssMdnsMissing, .dns(let dns)):
            cause =
                "\(host(dns)) is a .local name, and this machine's resolver does not ask mDNS (no libnss-mdns in /etc/nsswitch.conf): "
                + "programs here cannot resolve it"
        case (.magicDNSNotApplied, .dns(let dns)):
            cause =
                "\(host(dns)) resolves only at Tailscale's resolver 100.100.100.100 (\(CheckText.magicDNS(dns).joined(separator: ","))), "
                + "not through this machine's resolver: MagicDNS is not applied here"
        case (.unknownTarget, _): cause = "\(target) is neither a Gateway doctor discovered nor a host name or URL"
        case (.nameUnresolved, .dns(let dns)): cause = "\(host(dns)) gives no address: \(message)"
        case (.nothingListens, .tcp(let tcp)):
            cause =
                "\(target): nothing listens on port \(tcp.port) there: the Gateway is not running, or listens on another address or port"
        case (.hostUnreachable, _): cause = "\(target): \(message): the host is down or not on this network"
        case (.localShortage, _):
            cause = "this machine could not open a connection to \(target) (\(message)): the Gateway was not tried; the cause is here"
        case (.connectionReset, _):
            cause =
                "\(target) accepts connections and resets them at once: it holds as many as it takes (idle ones from one host?), or "
                + "something in between resets them"
        case (.tlsVersion, .tls(let tls)):
            cause =
                "\(target) answers with \(tls.facts?.version.description ?? "an older TLS") only; OpenClaw's Gateway and nodes speak TLS "
                + "1.3: something else (a proxy, a load balancer) terminates TLS there"
        case (.tlsAlert, _): cause = "\(target) refuses the TLS handshake (\(message)): not a TLS 1.3 server a node can talk to"
        case (.anotherProgram, .http(let http)): cause = anotherProgram(target, http)
        case (.pairingRequired, .connect(let connect, _)): cause = pairingRequired(target, connect)
        case (.gatewayAuth, .connect(let connect, _)): cause = "\(target) \(refusal(check.reason, connect.rejection))"
        case (.protocolMismatch, _): cause = "\(target) and its nodes speak different protocol versions: \(message)"
        case (.gatewayStarting, _): cause = "\(target) is still starting after doctor waited as OpenClaw's clients do: \(message)"
        case (.gatewayProtocolOlder, _): cause = "\(target) runs an older OpenClaw than current clients: \(message)"
        case (.checkFailed, _): cause = "\(target): \(check.title) failed: \(message)"
        default: cause = openClaw2Cause(id, target: target, message: message) ?? "\(target): \(message)"
        }
        return DiagnosisText(cause: cause, fix: fix(of: check))
    }

    static func host(_ dns: DNSEvidence) -> String { dns.host }

    static func anotherProgram(_ target: String, _ http: HTTPEvidence) -> String {
        var server = ""
        if case .response(_, _, let header?, _) = http.health.outcome {
            server = " (Server: \(SafeText.display(Array(header.utf8.prefix(80)))))"
        }
        return "Another program answers on \(target)'s port \(http.port)\(server): its /healthz is not a Gateway's"
    }

    /// Per details.reason (connect-device-pairing.ts, connect-existing-device.ts).
    static func pairingRequired(_ target: String, _ connect: ConnectEvidence) -> String {
        let device = connect.offered.device.map { "device \($0.deviceId.prefix(12))…" } ?? "this device"
        var request = ""
        if let id = connect.rejection?.approvableRequestId {
            request = ": pairing request \(id) waits there"
        } else if connect.rejection?.requestId != nil {
            request = ": a pairing request waits there (the request id the Gateway sent is not a valid id)"
        }
        switch connect.rejection?.pairingReason ?? .notPaired {
        case .notPaired: return "\(target) has not approved \(device)\(request)"
        case .roleUpgrade: return "\(target) approved \(device) for another role, and it now asks as a node (a role upgrade)\(request)"
        case .scopeUpgrade: return "\(target) approved \(device) for fewer scopes than it now asks for (a scope upgrade)\(request)"
        case .metadataUpgrade:
            return "\(target) approved \(device) with another platform or device family, and asks to approve the changed record\(request)"
        case .other(let word): return "\(target) asks \(device) to pair (\(CheckText.words(word)))\(request)"
        }
    }

    /// What the Gateway refuses, by the reason it gave.
    static func refusal(_ reason: CheckReason, _ error: ConnectError?) -> String {
        switch reason {
        case .tokenMissing: "requires a token, and none was sent"
        case .tokenMismatch: "refuses the token (not its gateway.auth.token)"
        case .deviceAuthRejected: "refuses the device identity (\(error?.detailCode?.word ?? "device auth"))"
        default: "refuses the credentials (\(error?.detailCode?.word ?? error?.code.word ?? "unauthorized"))"
        }
    }

    static func notListening(_ target: String, mdns: Bool, _ addresses: [IPAddress], _ port: Int, _ host: GatewayHost) -> DiagnosisText {
        let advertised =
            "\(target) is advertised by \(mdns ? "mDNS" : "DNS-SD") at \(addresses.map(\.description).joined(separator: ", ")) port "
            + "\(port), but nothing listens there"
        switch host {
        case .here(loopback: true, _):
            return DiagnosisText(
                cause: advertised + ": this machine is its host, and its Gateway answers on 127.0.0.1:\(port) only: it binds loopback "
                    + "(gateway.bind loopback), so no other machine can connect",
                fix: "set gateway.bind to \"lan\" (or \"tailnet\") in ~/.openclaw/openclaw.json, then `openclaw gateway restart`")
        case .here(let loopback, let service):
            let state = service.flatMap { unit in
                unit.activeState.map { " (\(GatewayService.unit) is \($0)\(unit.result.map { ", \($0)" } ?? ""))" }
            }
            let stopped =
                loopback == false
                ? ": this machine is its host, and its Gateway is not running (nothing listens on 127.0.0.1:\(port) either)\(state ?? "")"
                : ": this machine is its host, and its Gateway is not running\(state ?? "") or listens on 127.0.0.1 only"
            return DiagnosisText(
                cause: advertised + stopped,
                fix: "start it here: \(startGateway)\(loopback == false ? "" : "; `ss -ltnp 'sport = :\(port)'` shows what listens")"
                    + "; `journalctl --user -u \(GatewayService.unit)` says why it stopped")
        case .elsewhere:
            return DiagnosisText(
                cause: advertised + ": the Gateway is stopped (a stopped Gateway's record stays in a zone, and mDNS caches keep its "
                    + "beacon a while), or it listens on another address",
                fix: "start it on the Gateway host: \(startGateway); if `openclaw gateway status` there says it runs, `ss -ltnp "
                    + "'sport = :\(port)'` shows the address it listens on")
        }
    }

    /// How OpenClaw starts its Gateway as a service (docs/cli/gateway.md; the unit's name from
    /// src/daemon/constants.ts, `openclaw-gateway-PROFILE` for a profile).
    static let startGateway =
        "`openclaw gateway start` (the systemd user unit \(GatewayService.unit): `systemctl --user start \(GatewayService.unit)`; a "
        + "profile's is openclaw-gateway-PROFILE.service)"

    static func tailnetUnreachable(_ target: String, _ lost: [IPAddress], _ port: Int, _ tailnet: Tailnet) -> DiagnosisText {
        let shown = lost.map(\.description).joined(separator: ", ")
        guard tailnet.isJoined else {
            return DiagnosisText(
                cause:
                    "\(target) lives on a tailnet (\(shown)), but this machine is not on one (no tailscale0 interface up): Tailscale is "
                    + "down or not installed here",
                fix: "start Tailscale and join the Gateway's tailnet: `sudo tailscale up` (`tailscale status` then lists the Gateway host)")
        }
        return DiagnosisText(
            cause:
                "\(target) lives on a tailnet (\(shown)) and this machine is on one (\(tailnet.interfaces.joined(separator: ", "))), but "
                + "the Gateway host does not answer: it is offline, on another tailnet, or ACLs block TCP \(port)",
            fix:
                "`tailscale status` and `tailscale ping \(lost.first?.description ?? "")`: both machines must be in the same tailnet, and "
                + "its ACLs must allow TCP \(port)")
    }

    static func unroutable(_ target: String, _ lost: [IPAddress], docker: Bool, answered: Bool) -> DiagnosisText {
        let kind =
            docker
            ? "looks like a Docker bridge (docker0 uses 172.17.0.0/16)"
            : "is on a network this machine is not on (another NIC of the host?)"
        return DiagnosisText(
            cause: "\(target) is advertised at \(lost.map(\.description).joined(separator: ", ")), which \(kind): this machine has no "
                + "route there"
                + (answered ? "; nodes that try it first wait before they reach the Gateway" : ", and the Gateway answers nowhere else"),
            fix:
                "on the Gateway host keep that interface out of the beacon (Avahi: `deny-interfaces=docker0` in "
                + "/etc/avahi/avahi-daemon.conf), or make the Gateway reachable on an address this machine can route to")
    }
}
