import DNSSD
import Doctor
import Probes

/// The words of gw.dns and gw.tcp: a Gateway's name and addresses, and whether it answers.
extension CheckText {
    static func dns(_ reason: CheckReason, _ evidence: DNSEvidence) -> CheckText {
        let host = evidence.host
        let addresses = evidence.addresses.map(\.description).joined(separator: ", ")
        guard reason != .ok else {
            return CheckText(IPAddress(evidence.host) != nil ? "address \(addresses)" : "\(host) → \(addresses)")
        }
        let message = evidence.problem?.message ?? "no address for \(host)"
        switch reason {
        case .unknownTarget:
            return CheckText(
                "no Gateway named '\(evidence.host)' was discovered, and it is not a host name or URL",
                fix: "`clawnet browse` lists the names; give a URL (wss://host:port) or HOST[:PORT] otherwise")
        case .nameNotFound:
            return CheckText(
                "\(message) (NXDOMAIN: the name does not exist)",
                fix: "check the spelling, and the A/AAAA records of \(host) (`dig \(ShellWord.digName(host))`)")
        case .localNameWithoutNSS:
            return CheckText(
                "\(message): nsswitch does not ask mDNS for .local names",
                fix: "`sudo apt install libnss-mdns` (it adds mdns4_minimal to the hosts: line of /etc/nsswitch.conf)")
        case .localNameOnlyByAvahi:
            return localOnlyByAvahi(host, addresses, message: message, evidence)
        case .localNameUnanswered:
            return CheckText(
                "no host answered for \(host) by mDNS (avahi-daemon asked; nsswitch: \(message))",
                fix: "is the Gateway host up and on this link (`avahi-resolve -n \(ShellWord.operand(host))`)? A Gateway's instance "
                    + "name, as `clawnet browse` lists it, works as a TARGET too")
        case .magicDNSNotApplied:
            return CheckText(
                "\(message); Tailscale's resolver 100.100.100.100 knows it (\(magicDNS(evidence).joined(separator: ", "))): "
                    + "MagicDNS is not applied on this machine",
                fix:
                    "`sudo tailscale set --accept-dns=true`; on Linux Tailscale installs its resolver through systemd-resolved or "
                    + "NetworkManager (/etc/resolv.conf must point to 127.0.0.53 or be managed by tailscaled)")
        default:
            return CheckText(
                message,
                fix: HostNameKind(host) == .multicastDNS
                    ? "nss-mdns resolves `.local` names through avahi-daemon: start it (`sudo systemctl start avahi-daemon`), then "
                        + "check that the Gateway host answers (`avahi-resolve -n \(ShellWord.operand(host))`)"
                    : "check the A/AAAA records of \(host) (`dig \(ShellWord.digName(host))`) and the resolver in /etc/resolv.conf")
        }
    }

    /// A `.local` name avahi-daemon resolved and nsswitch did not: what a program that resolves
    /// through nsswitch (OpenClaw's node) lacks.
    static func localOnlyByAvahi(_ host: String, _ addresses: String, message: String, _ evidence: DNSEvidence) -> CheckText {
        let nssMdns: Bool
        if case .onlyAvahi(let asked)? = evidence.problem?.kind { nssMdns = asked } else { nssMdns = false }
        let words = "\(host) → \(addresses) by asking avahi-daemon; nsswitch did not resolve it (\(message))"
        guard nssMdns else {
            return CheckText(
                words + ": it does not ask mDNS",
                fix: "`sudo apt install libnss-mdns` (it adds mdns4_minimal to the hosts: line of /etc/nsswitch.conf): until then "
                    + "programs that resolve through nsswitch, OpenClaw's node among them, cannot resolve \(host)")
        }
        return CheckText(
            words + ": nss-mdns did not reach avahi-daemon",
            fix: "nss-mdns asks avahi-daemon through /run/avahi-daemon/socket: restart it (`sudo systemctl restart avahi-daemon`) "
                + "and check `getent hosts \(ShellWord.operand(host))`")
    }

    /// The addresses only Tailscale's resolver gave for the name.
    static func magicDNS(_ evidence: DNSEvidence) -> [String] {
        if case .magicDNSOnly(let addresses)? = evidence.problem?.kind { return addresses.map(\.description) }
        return []
    }

    static func tcp(_ reason: CheckReason, _ evidence: TCPEvidence) -> CheckText {
        let port = evidence.port
        if let good = evidence.connected {
            let failed = evidence.attempts.filter { $0.outcome != .connected }
            let note =
                failed.isEmpty ? "" : "; not on \(failed.map { "\($0.address) (\($0.outcome.description))" }.joined(separator: ", "))"
            let connected = "connected to \(authority(good.address, port)) in \(good.elapsed.milliseconds) ms\(note)"
            guard reason == .partlyUnreachable else { return CheckText(connected) }
            return CheckText(
                connected + ": this machine has no route to \(evidence.unroutable.map(\.description).joined(separator: ", "))",
                fix:
                    "on the Gateway host keep that address out of the beacon (Avahi: deny-interfaces=docker0 in "
                    + "/etc/avahi/avahi-daemon.conf); nodes try every advertised address")
        }
        let all = evidence.attempts.map { "\(authority($0.address, port)) \($0.outcome.description)" }.joined(separator: "; ")
        let startHere = "start the Gateway here (`openclaw gateway`), or name the one to check: `clawnet doctor wss://<host>:\(port)`"
        switch reason {
        case .nothingListensLocally: return CheckText("no Gateway listens on this machine (\(all))", fix: startHere)
        case .localShortage:
            return CheckText(
                "not tried: \(all)",
                fix:
                    "raise the limit of open files (`ulimit -n`; LimitNOFILE= in a systemd unit) or stop what holds this machine's "
                    + "descriptors and socket memory, then run doctor again")
        case .localGatewayDown:
            return CheckText(
                "no Gateway listens on this machine (\(all)); this machine has an OpenClaw config, so its Gateway may be down",
                fix: startHere)
        case .noLocalGateway:
            return CheckText("no Gateway runs on this machine (nothing listens on \(evidence.label)); the discovered Gateways are checked")
        case .refused:
            return CheckText(
                "connection refused: \(all) (nothing listens there)",
                fix:
                    "start the Gateway on its host (`openclaw gateway start`); if `openclaw gateway status` says it runs, "
                    + "`ss -ltnp 'sport = :\(port)'` there shows the address it listens on (gateway.bind loopback takes local "
                    + "connections only)")
        case .connectionReset:
            return CheckText(
                "connection reset: \(all): the server accepted the connection and closed it at once; it holds as many connections "
                    + "as it takes (idle ones from one address?), or something in between resets them",
                fix:
                    "on the Gateway host count its connections and their addresses (`ss -tn state established 'sport = :\(port)'`); "
                    + "stop or block the client that holds them, or restart the Gateway")
        case .timedOut:
            return CheckText(
                "no answer within \(seconds(evidence.budget)) s: \(all): a firewall drops the packets, or the host is down",
                fix:
                    "allow TCP \(port) on the Gateway host's firewall (`sudo ufw allow \(port)/tcp`, or nftables/iptables) and on the "
                    + "network in between; check the host is up")
        default:
            return CheckText(
                "cannot connect: \(all)",
                fix:
                    "check the route to the Gateway (`ip route get \(evidence.addresses.first?.description ?? "")`) and that the host is "
                    + "on this network")
        }
    }

    /// `address:port`, an IPv6 address in brackets (with its zone).
    static func authority(_ address: IPAddress, _ port: Int) -> String {
        Endpoint(host: address.description, port: port).description
    }

    /// A time budget in seconds, as the messages give it (`5.0`).
    static func seconds(_ budget: Duration) -> String {
        budget.secondsText(fractionDigits: 1)
    }
}
