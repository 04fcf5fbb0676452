import DNSSD
import Doctor
import Host

/// The words of the Gateway host itself: a restart loop and what its journal says, OpenClaw's
/// own mDNS advertiser beside avahi-daemon, and a container whose multicast stays on its bridge.
extension CheckText {
    static func restartLoop(_ service: GatewayService) -> CheckText {
        let exit =
            service.mainStatus.map { " (last exit status \($0)\(service.mainCode == killedCode ? ", killed by a signal" : ""))" } ?? ""
        let state = [service.activeState, service.subState].compactMap { $0 }.joined(separator: "/")
        let lines = (service.advertiserCrashLines.isEmpty ? Array(service.journal.suffix(2)) : service.advertiserCrashLines.suffix(2))
            .map { SafeText.display(Array($0.utf8.prefix(200))) }
        let message =
            "\(GatewayService.unit) restarted \(service.restarts ?? 0) times\(exit), now \(state): systemd keeps restarting a Gateway that "
            + "exits" + (lines.isEmpty ? "" : "; its journal: " + lines.joined(separator: " | "))
        guard !service.advertiserCrashLines.isEmpty else {
            return CheckText(message, fix: "read why it exits: `journalctl --user -u \(GatewayService.unit) -n 50 --no-pager`")
        }
        return CheckText(
            message + ": the crash is in OpenClaw's own mDNS advertiser (the bonjour plugin, @homebridge/ciao)",
            fix: "turn the advertiser off and let Avahi advertise: `openclaw plugins disable bonjour` (or Environment="
                + "OPENCLAW_DISABLE_BONJOUR=1 in the unit, or discovery.mdns.mode \"off\"), restart the Gateway, then publish it with "
                + "`clawnet advertise --name NAME --port PORT` or a static Avahi service file")
    }

    /// ExecMainCode 2: CLD_KILLED.
    static let killedCode = 2

    static func openClawAdvertiser(_ advertiser: PortHolders.Holder, _ others: [PortHolders.Holder]) -> CheckText {
        CheckText(
            "besides avahi-daemon, \(holders(others)) \(others.count == 1 ? "holds" : "hold") UDP 5353: \(advertiser.name) (pid "
                + "\(advertiser.pid)) is OpenClaw's own mDNS advertiser (the bonjour plugin's responder), a second mDNS stack beside Avahi",
            fix: "keep one responder: `openclaw plugins disable bonjour` (or OPENCLAW_DISABLE_BONJOUR=1) and restart the Gateway, then "
                + "advertise it through Avahi (`clawnet advertise`); or stop avahi-daemon on this host")
    }
}

extension DiagnosisText {
    static func containerMulticast(_ platform: PlatformFacts) -> DiagnosisText {
        let marker = platform.container.map { "a container (\($0))" } ?? (platform.wsl2 ? "WSL2" : "a container")
        return DiagnosisText(
            cause: "This machine runs in \(marker), and nothing answers in local.: its multicast stays on its virtual network (a container "
                + "bridge, WSL2's NAT), not the LAN, so it neither sees the LAN's Gateways nor is seen by the LAN's nodes",
            fix: "run it with the host's network (`docker run --network host`, podman `--network host`; WSL2: networkingMode=mirrored in "
                + ".wslconfig), or advertise and browse from the host, or use wide-area DNS-SD (`clawnet zone generate`) or a manual "
                + "target")
    }
}

extension PortHolders.Holder {
    /// A Node.js process (OpenClaw's Gateway is one; its process title may read openclaw-gateway,
    /// which /proc/PID/comm cuts to 15 bytes).
    var isOpenClaw: Bool { name == "node" || name.hasPrefix("openclaw") }
}

extension CheckText {
    /// gateway.bind as an address word: OpenClaw 2026.9 refuses the config (legacy-config-migrations.runtime.gateway.ts).
    static func bindHostAlias(_ config: OpenClawConfig) -> CheckText {
        let word = SafeText.display(Array((config.bind?.unknownWord ?? "").utf8.prefix(40)))
        let mode = config.bind?.aliasReplacement?.word ?? "lan"
        return CheckText(
            "\(config.path): gateway.bind is \"\(word)\", a host address where OpenClaw expects a bind mode: 2026.9 refuses the config "
                + "as invalid, and its Gateway does not start",
            fix: "run `openclaw doctor --fix` (it writes \"\(mode)\"), or set gateway.bind to \"\(mode)\" yourself (modes: loopback, lan, "
                + "tailnet, auto, custom with gateway.customBindHost), then restart the Gateway")
    }
}

extension CheckText {
    /// A tailnet or custom bind, and nothing accepts on 127.0.0.1:PORT: the Gateway is not running
    /// as configured (a 2026.9 Gateway listens there too and does not start without it), or it
    /// predates that. Local clients (the CLI, Tailscale Serve, an SSH tunnel's far end) connect
    /// there (docs/gateway/remote.md: "ws://127.0.0.1:18789").
    static func loopbackListenerMissing(_ config: OpenClawConfig) -> CheckText {
        let port = config.gatewayPort ?? Endpoint.defaultGatewayPort
        let bind = config.bind ?? .loopback
        return CheckText(
            "\(config.path): gateway.bind \(bind), port \(port), but nothing accepts connections on 127.0.0.1:\(port): a 2026.9 "
                + "Gateway with a tailnet or custom bind listens there as well and does not start when it cannot, so this one is not "
                + "running as configured (or predates 2026.9), and this machine's own clients (the CLI, Tailscale Serve, SSH tunnels) "
                + "find nothing there",
            fix: "restart the Gateway (`openclaw gateway restart`) and read why it stops (`journalctl --user -u \(GatewayService.unit) "
                + "-n 50 --no-pager`; `ss -ltnp 'sport = :\(port)'` shows what listens on the port); a Gateway older than 2026.9 "
                + "listens on its tailnet or custom address only: upgrade OpenClaw so that this machine's clients reach it on 127.0.0.1")
    }

    /// A tailnet or custom bind: OpenClaw 2026.9 listens on 127.0.0.1 too, for this machine's own
    /// clients, and does not start when it cannot (the OpenClaw 2 notes; the listener code itself was
    /// not found in the stored sources).
    static func loopbackListener(_ bind: GatewayBind, _ port: Int) -> String {
        guard bind == .tailnet || bind == .custom else { return "" }
        return "; a 2026.9 Gateway listens on 127.0.0.1:\(port) as well and does not start when another program holds it"
    }
}
