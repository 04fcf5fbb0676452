import ArgumentParser
import Avahi
import DNSSD
import FoundationEssentials
import Host
import Output
import Probes
import Zones

struct AdvertiseCommand: ClawnetCommand {
    static let configuration = CommandConfiguration(
        commandName: "advertise",
        abstract: "Publish an OpenClaw Gateway beacon by mDNS until interrupted.",
        usage: """
            clawnet advertise [<options>] --name <NAME> [--serve [<serve options>]]
            clawnet advertise --serve-only [--port <PORT>] [<serve options>]
            """,
        discussion: """
            Run it on the Gateway host to test whether mDNS crosses your network without a \
            running Gateway: then `clawnet browse` on a node should list it. It publishes \
            _openclaw-gw._tcp through avahi-daemon with the TXT keys a Gateway sends (role, \
            gatewayPort, lanHost, displayName, transport); --txt adds or replaces keys. If \
            another host already uses the name, Avahi's alternative ("NAME #2") is taken and \
            reported. Ctrl-C or SIGTERM withdraws the beacon (goodbye packets).

            --serve also answers on the port like a Gateway does (GET /healthz and /readyz; on \
            a WebSocket, connect.challenge first, then an answer to connect), so a node can test \
            the whole path to this host without a Gateway: `clawnet doctor` there should pass \
            every layer. The answer to connect is OpenClaw's: with --token-file the stand-in \
            requires that token (gateway.auth.token), --paired-device IDs are the devices it has \
            paired; without a token or a paired device it asks for them (NOT_PAIRED, device \
            identity required). It answers as OpenClaw 2026.9 does (--release 2026.5 for the \
            spring release): a connect must name one of OpenClaw's client ids and modes, device \
            signatures (v3 or v2) must be at most 2 minutes old, and a client that fails its token \
            10 times in a minute is locked out for 5 (not from loopback). After hello-ok it sends \
            a tick every --tick-interval (default 30s) and answers health, status and \
            system-presence (any other method: unknown method); it runs no agent. Before login it \
            keeps the Gateway's limits: 64 KiB frames (close 1009), 15 s to log in, and 32 \
            WebSockets per address that have not logged in (then HTTP 503 "Too many \
            unauthenticated sockets"); it takes at most half the process's descriptors in \
            connections, of which an address holds at most 64 that have not logged in (a new \
            one takes the place of its oldest), and when all are taken a client of another \
            address takes the place of the oldest of the address holding the most. \
            --connect OUTCOME answers every connect one way: \
            \(StandInConnect.Outcome.allCases.map(\.rawValue).joined(separator: ", ")) (protocol-3 \
            decides as a published protocol-3 Gateway does). --starting-for DURATION answers as a \
            starting Gateway does (UNAVAILABLE, retry after 500 ms, close 1013) to every client \
            but a node, for that long from the first connect request. --tls makes \
            a self-signed certificate on the fly (RSA 2048, CN=openclaw-gateway, as the Gateway \
            does), speaks TLS 1.3 only, and puts gatewayTls=1 and its SHA-256 in the TXT. \
            --tls-dir DIR keeps the pair in DIR (gateway-cert.pem, gateway-key.pem) so the \
            fingerprint survives restarts. --bind chooses the address to listen on (127.0.0.1 \
            reproduces a Gateway bound to loopback: advertised, but unreachable from other \
            machines). --serve-only serves without a beacon (a Gateway whose mDNS advertising \
            is off).

            Before it opens a WebSocket the stand-in answers the upgrade as OpenClaw 2026.9 does: \
            proxy headers (X-Forwarded-For, Forwarded, X-Real-IP) from a source outside \
            --trusted-proxy ADDRESS (gateway.trustedProxies), or a forwarded client on loopback, \
            get 403 proxy_attribution_required (--allow-real-ip-fallback lets X-Real-IP name the \
            client); --restarting-for DURATION answers 503 "Gateway websocket admission closed" \
            as a restarting Gateway does, --rate-limited-for DURATION 429 with Retry-After, each \
            from the first upgrade on. So a node can rehearse each failure behind its own proxy: \
            `clawnet doctor` names it.

            --domain DOMAIN --server ADDRESS[:PORT] [--tsig-key FILE] also registers the beacon \
            in a wide-area domain on its primary DNS server (RFC 2136 UPDATE, as `zone push` \
            does), checks every --refresh that it is still there, and withdraws it on Ctrl-C or \
            SIGTERM, so a Gateway on a tailnet appears in the domain the way it appears in \
            local. The withdrawal takes out exactly what the registration put in: a record that \
            was in the zone before (the host's address, written by `zone push`) stays, and an \
            address the registration replaced or removed is put back; a withdrawal the server refuses \
            exits 1 and names the records left. A crash leaves the records: `clawnet zone check \
            --server` reports them as unreachable, and the next run of the same advertise adopts \
            them (it keeps what it added in $XDG_STATE_HOME/clawnet, /var/lib/clawnet for root, \
            else ~/.local/state/clawnet, and reads it back only when no other user could \
            have written it). \
            --no-local skips mDNS: then neither D-Bus nor avahi-daemon is needed.

            Examples:

                clawnet advertise --name "Studio (OpenClaw)" --txt gatewayTls=1
                clawnet advertise --name "Studio (OpenClaw)" --serve \\
                    --tls-dir ~/.clawnet-tls

            \(ExitStatus.status(
                (.success, "stopped by Ctrl-C or SIGTERM (the beacon is withdrawn)"),
                (
                    .failure,
                    "cannot serve: the port is taken, or the TLS files cannot be used; with --domain: the registration or the "
                        + "withdrawal failed (the records left are named)"
                ),
                (.environment, "no D-Bus or no avahi-daemon: nothing could be advertised by mDNS")))
            """
    )

    @Option(
        help: ArgumentHelp(
            "The instance name, e.g. \"Studio (OpenClaw)\" (at most 63 bytes of UTF-8); required, except with --serve-only.",
            valueName: "NAME"))
    var name: String?

    @Option(
        help: ArgumentHelp("The gateway port in SRV and TXT (default \(Endpoint.defaultGatewayPort)).", valueName: "PORT"),
        transform: Arguments.port)
    var port = Endpoint.defaultGatewayPort

    @Option(
        name: .customLong("txt"), help: ArgumentHelp("A TXT entry KEY=VALUE, or KEY alone for a flag (repeatable).", valueName: "KEY=VALUE")
    )
    var txtEntries: [String] = []

    @OptionGroup var serving: StandInOptions

    @OptionGroup var wideArea: WideAreaOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if serving.serveOnly && (name != nil || !txtEntries.isEmpty || wideArea.domain != nil) {
            throw ValidationError("--serve-only publishes no beacon: drop --name, --txt and --domain")
        }
        guard serving.serveOnly || name != nil else { throw ValidationError("--name is required (the instance name to advertise)") }
        if let name {
            do { _ = try InstanceName(decoded: name) } catch { throw ValidationError("--name: \(error.message)") }
        }
        do { _ = try txtRecord(hostName: HostName.fallback) } catch { throw ValidationError("--txt: \(error.message)") }
    }

    /// The beacon's TXT (`GatewayTXT.advertised`) for this host, with the served stand-in's facts.
    func txtRecord(hostName: String, serving gateway: StandInGateway? = nil) throws(DNSSDError) -> TXTRecord {
        let served = gateway.map {
            GatewayTXT.Served(fingerprint: $0.fingerprint, loopback: IPAddress($0.address)?.isLoopback ?? false)
        }
        return try GatewayTXT.advertised(
            name: name ?? "", port: port, hostLabel: HostName.labelOrFallback(of: hostName), served: served, extra: txtEntries)
    }

    /// Serves (with --serve) and advertises until a signal; withdraws what it registered.
    func run(_ context: CommandContext) async throws -> ExitStatus {
        // Handlers first: a signal that arrives while we start must still end us cleanly.
        let signals = context.termination()
        // Publishing by mDNS needs avahi-daemon: say so before anything is served or printed.
        // Only wide-area DNS (--no-local) needs neither D-Bus nor Avahi: they are not asked.
        if !serving.serveOnly, !wideArea.noLocal, case .unavailable(let issue) = await context.machine.avahi(.publish) {
            throw issue
        }
        let gateway = serving.enabled ? try await serving.start(port: port, context: context) : nil
        // The stand-in stops before the command returns, however it ends.
        do {
            try await advertise(serving: gateway, until: signals, context: context)
        } catch {
            await gateway?.stop()
            throw error
        }
        await gateway?.stop()
        return .success
    }

    /// Publishes the beacon (mDNS, and the wide-area one with --domain) until a signal.
    private func advertise(serving gateway: StandInGateway?, until signals: AsyncStream<Int32>, context: CommandContext) async throws {
        let terminal = context.terminal
        guard let name, !serving.serveOnly else {
            terminal.err(AdvertiseLines.serveOnly)
            for await _ in signals { break }
            terminal.err(AdvertiseLines.stoppedServing)
            return
        }
        // lanHost names the host the SRV names: Avahi's host name (another than this machine's when
        // Avahi runs with its own host-name, or renamed the host after a conflict).
        var hostName = context.machine.hostName()
        if !wideArea.noLocal, case .running(_, let avahiHost) = await context.machine.avahi(.publish) { hostName = avahiHost }
        let txt = try txtRecord(hostName: hostName, serving: gateway)
        let registration = try await registerWideArea(name: name, txt: txt, bindAddress: serving.bindAddress, context: context)
        // However the mDNS side ends (a signal, Avahi gone for good, an error), what the
        // wide-area registration added is withdrawn before the command ends: the stand-in's
        // connections are closed first and the reserved descriptors given back, so that the
        // withdrawal has descriptors however many clients held the port.
        let reserve = registration == nil ? nil : DescriptorReserve()
        func withdraw() async throws {
            await gateway?.stop()
            reserve?.release()
            try await registration?.withdraw()
        }
        func publish() async throws {
            if wideArea.noLocal {
                for await _ in signals { break }
            } else {
                try await MulticastBeacon(name: name, port: port, txt: txt).advertise(until: signals, context: context)
            }
        }
        do {
            if let registration {
                try await registration.keptRegistered(refreshEvery: wideArea.refresh ?? WideAreaOptions.defaultRefresh, during: publish)
            } else {
                try await publish()
            }
        } catch {
            // The error that ended advertising is the command's; a failed withdrawal is said too.
            do { try await withdraw() } catch { terminal.err(lines: ErrorLines.lines(error, terminal: terminal)) }
            throw error
        }
        try await withdraw()
    }

    /// With --domain: the beacon registered on the domain's primary (nil without it); it is kept
    /// (refreshed) while `advertise` publishes.
    private func registerWideArea(name: String, txt: TXTRecord, bindAddress: String?, context: CommandContext) async throws
        -> WideAreaRegistration?
    {
        guard wideArea.domain != nil else { return nil }
        let terminal = context.terminal
        SecretWarnings.tsigKey(wideArea.tsigKey.key, terminal: terminal)
        guard
            let beacon = try wideArea.registration(
                name: name, port: port, txt: txt, bindAddress: bindAddress, context: context,
                observer: { terminal.print(AdvertiseLines.registration($1, of: $0)) })
        else { return nil }
        try await beacon.register()
        return beacon
    }
}
