import ArgumentParser
import Avahi
import DNSSD
import FoundationEssentials
import Host
import Output
import Probes
import Zones

struct AdvertiseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advertise",
        abstract: "Publish an OpenClaw Gateway beacon by mDNS until interrupted.",
        usage: """
            clawnet advertise --name <name> [--port <port>] [--txt <KEY=VALUE> ...] [--serve [<serve options>]]
            clawnet advertise --serve-only [--port <port>] [<serve options>]
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
            identity required). --connect OUTCOME answers every connect one way: \
            \(StandInConnect.Outcome.allCases.map(\.rawValue).joined(separator: ", ")) (protocol-3 \
            decides as a published protocol-3 Gateway does). --starting-for DURATION answers as a \
            starting Gateway does (UNAVAILABLE, retry after 500 ms, close 1013) for that long, \
            to every client but a node. --tls makes \
            a self-signed certificate on the fly (RSA 2048, CN=openclaw-gateway, as the Gateway \
            does), speaks TLS 1.3 only, and puts gatewayTls=1 and its SHA-256 in the TXT. \
            --tls-dir DIR keeps the pair in DIR (gateway-cert.pem, gateway-key.pem) so the \
            fingerprint survives restarts. --bind chooses the address to listen on (127.0.0.1 \
            reproduces a Gateway bound to loopback: advertised, but unreachable from other \
            machines). --serve-only serves without a beacon (a Gateway whose mDNS advertising \
            is off).

            --wide-area DOMAIN --server HOST[:PORT] [--tsig-key FILE] also registers the beacon \
            in a wide-area domain on its primary DNS server (RFC 2136 UPDATE, as `zone push` \
            does), checks every --refresh that it is still there, and withdraws it on Ctrl-C or \
            SIGTERM, so a Gateway on a tailnet appears in the domain the way it appears in \
            local. The withdrawal takes out exactly what the registration put in: a record that \
            was in the zone before (the host's address, written by `zone push`) stays, and an \
            address the registration replaced is put back; a withdrawal the server refuses \
            exits 1 and names the records left. A crash leaves the records: `clawnet zone check \
            --server` reports them as unreachable, and the next run of the same advertise adopts \
            them (it keeps what it added in $XDG_STATE_HOME/clawnet, /var/lib/clawnet for root, \
            else ~/.local/state/clawnet). \
            --no-local skips mDNS: then neither D-Bus nor avahi-daemon is needed.

            Examples:

                clawnet advertise --name "Studio (OpenClaw)" --txt gatewayTls=1
                clawnet advertise --name "Studio (OpenClaw)" --serve --tls-dir ~/.clawnet-tls

            \(ExitStatus.status(
                (.success, "stopped by Ctrl-C or SIGTERM (the beacon is withdrawn)"),
                (
                    .failure,
                    "cannot serve: the port is taken, or the TLS files cannot be used; with --wide-area: the registration or the "
                        + "withdrawal failed (the records left are named)"
                ),
                (.environment, "no D-Bus or no avahi-daemon: nothing could be advertised by mDNS")))
            """
    )

    @Option(help: "The instance name, e.g. \"Studio (OpenClaw)\" (at most 63 bytes of UTF-8); required, except with --serve-only.")
    var name: String?

    @Option(help: "The gateway port in SRV and TXT.")
    var port = Endpoint.defaultGatewayPort

    @Option(
        name: .customLong("txt"), help: ArgumentHelp("A TXT entry KEY=VALUE, or KEY alone for a flag (repeatable).", valueName: "KEY=VALUE")
    )
    var txtEntries: [String] = []

    @Flag(help: "Also answer on the port like a Gateway (health endpoints, connect.challenge).")
    var serve = false

    @Flag(help: "With --serve: TLS 1.3 with a self-signed certificate made now; its fingerprint goes into the TXT.")
    var tls = false

    @Option(
        name: .customLong("bind"),
        help: ArgumentHelp("With --serve: the address to listen on (default: every address, IPv4 and IPv6).", valueName: "ADDRESS"))
    var bindAddress: String?

    @Option(
        name: .customLong("tls-dir"),
        help: ArgumentHelp(
            "With --serve (implies --tls): use DIR/gateway-cert.pem and DIR/gateway-key.pem, made there when missing, so the fingerprint "
                + "survives restarts.",
            valueName: "DIR"))
    var tlsDirectory: String?

    @Flag(name: .customLong("serve-only"), help: "Serve like a Gateway, but publish no beacon (a Gateway whose mDNS advertising is off).")
    var serveOnly = false

    @Option(
        name: .customLong("connect"),
        help: ArgumentHelp("With --serve: answer every connect request this way (default auto: as a Gateway would).", valueName: "OUTCOME"))
    var connectOutcome: StandInConnect.Outcome = .auto

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp(
            "With --serve: require the token on this file's first line (the Gateway's gateway.auth.token).", valueName: "FILE"))
    var tokenFile: String?

    @Option(
        name: .customLong("paired-device"),
        help: ArgumentHelp("With --serve: a device id the stand-in has paired (repeatable).", valueName: "ID"))
    var pairedDevices: [String] = []

    @Option(
        name: .customLong("starting-for"),
        help: ArgumentHelp("With --serve: answer connect as a starting Gateway does for this long, then as usual.", valueName: "DURATION"),
        transform: Arguments.duration)
    var startingFor: Duration?

    var serving: Bool { serve || serveOnly }
    var usesTLS: Bool { tls || tlsDirectory != nil }

    @OptionGroup var wideArea: WideAreaOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if (tls || bindAddress != nil || tlsDirectory != nil || tokenFile != nil || !pairedDevices.isEmpty || connectOutcome != .auto
            || startingFor != nil) && !serving
        {
            throw ValidationError("--tls, --tls-dir, --bind, --connect, --token-file, --paired-device and --starting-for go with --serve")
        }
        if let bindAddress, IPAddress(bindAddress) == nil { throw ValidationError("--bind \(bindAddress) is not an IP address") }
        if serveOnly && (name != nil || !txtEntries.isEmpty || wideArea.domain != nil) {
            throw ValidationError("--serve-only publishes no beacon: drop --name, --txt and --wide-area")
        }
        guard serveOnly || name != nil else { throw ValidationError("--name is required (the instance name to advertise)") }
        if let name {
            do { _ = try InstanceName(decoded: name) } catch { throw ValidationError("--name: \(error.message)") }
        }
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1-65535") }
        do { _ = try txtRecord() } catch { throw ValidationError("--txt: \(error.message)") }
    }

    /// The TXT OpenClaw's mDNS advertiser sends (its minimal mode: no sshPort), then what
    /// --txt adds; a --txt key replaces the default in place.
    func txtRecord(serving gateway: StandInGateway? = nil) throws(DNSSDError) -> TXTRecord {
        var txt = GatewayTXT(displayName: GatewayTXT.displayName(ofInstance: name ?? ""), gatewayPort: port)
        txt.lanHost = "\(HostName.label(of: HostName.current()) ?? "openclaw").local"
        if let gateway {
            txt.tls = gateway.fingerprint != nil
            txt.fingerprint = gateway.fingerprint
            txt.directReachable = !(IPAddress(gateway.address)?.isLoopback ?? false)
        }
        let extra = txtEntries.map { entry -> (key: String, value: String?) in
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (key: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : nil)
        }
        return try txt.record(.multicast, extra: extra)
    }

    /// Listens like a Gateway: on --bind, else dual-stack where IPv6 exists, IPv4 otherwise.
    private func startServing(_ terminal: Terminal) async throws -> StandInGateway {
        let identity: StandInIdentity?
        var connect = StandInConnect(outcome: connectOutcome, pairedDevices: Set(pairedDevices))
        do {
            identity = try tlsIdentity(terminal)
            connect.token = try tokenFile.map(TokenFile.read)
            if let tokenFile { SecretWarnings.check(tokenFile, .token, terminal: terminal) }
        } catch {
            terminal.error(
                "\(error)",
                fix: "--tls-dir must be a folder this user can write holding both gateway-cert.pem and gateway-key.pem, or neither; "
                    + "--token-file a readable file whose first line is the token")
            throw ExitStatus.failure.code
        }
        // Each connect request, as the stand-in read it: what a node showed (never the token itself).
        let observer: StandInGateway.ConnectObserver = { client, received in terminal.out("connect from \(client): \(received)") }
        let gateway: StandInGateway
        do {
            if let bindAddress {
                gateway = try await StandInGateway.start(
                    host: bindAddress, port: port, identity: identity, connect: connect, startingFor: startingFor, observer: observer)
            } else {
                do {
                    gateway = try await StandInGateway.start(
                        host: "::", port: port, identity: identity, connect: connect, startingFor: startingFor, observer: observer)
                } catch {
                    gateway = try await StandInGateway.start(
                        host: "0.0.0.0", port: port, identity: identity, connect: connect, startingFor: startingFor, observer: observer)
                }
            }
        } catch {
            terminal.error(
                "cannot listen on \(bindAddress ?? "*"):\(port): \(StandInGateway.describe(error))",
                fix: "is a Gateway (or something else) already using the port? `ss -ltnp | grep \(port)`; or choose --port")
            throw ExitStatus.failure.code
        }
        let security = gateway.fingerprint.map { "TLS 1.3, sha256 \($0.hex)" } ?? "plain, no TLS"
        terminal.out("serving on \(Endpoint(host: gateway.address, port: port)) like a Gateway (\(security))")
        return gateway
    }

    /// nil without TLS; with --tls-dir the pair kept there (made and saved when missing).
    private func tlsIdentity(_ terminal: Terminal) throws -> StandInIdentity? {
        guard usesTLS else { return nil }
        guard let tlsDirectory else { return try StandInIdentity.make() }
        let certificatePath = "\(tlsDirectory)/gateway-cert.pem"
        let keyPath = "\(tlsDirectory)/gateway-key.pem"
        // Only regular files of PEM size are read: a FIFO or /dev/zero there is an error, not a hang.
        let pair: (String?, String?)
        do {
            pair = (try AtomicFile.read(certificatePath, limit: FileLimit.pem), try AtomicFile.read(keyPath, limit: FileLimit.pem))
        } catch {
            throw TLSDirectoryProblem(description: error.description)
        }
        switch pair {
        case (let certificate?, let key?):
            SecretWarnings.check(keyPath, .tlsKey, terminal: terminal)
            return StandInIdentity(certificatePEM: certificate, keyPEM: key)
        case (nil, nil):
            let made = try StandInIdentity.make()
            // The folder holds a private key: 0700 whatever the umask, as the key file is 0600.
            do { try SecretFile.makeDirectory(tlsDirectory) } catch {
                throw TLSDirectoryProblem(description: "\(error.description) (for the certificate and key)")
            }
            try AtomicFile.write(made.keyPEM, to: keyPath, mode: SecretFile.fileMode)
            try AtomicFile.write(made.certificatePEM, to: certificatePath, mode: 0o644)
            terminal.out("made a certificate: \(certificatePath) (key \(keyPath))")
            return made
        default:
            throw TLSDirectoryProblem(
                description:
                    "\(tlsDirectory) holds only one of gateway-cert.pem and gateway-key.pem; restore the other or remove both to make a "
                    + "new pair"
            )
        }
    }

    /// What the advertise loop waits for: news of the beacon, or a signal to stop.
    private enum AdvertiseStep {
        case beacon(AdvertiseEvent)
        case signal(Int32)
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        // Handlers first: a signal that arrives while we start must still end us cleanly.
        let signals = Signals.termination()
        // Publishing by mDNS needs avahi-daemon: say so before anything is served or printed.
        // Only wide-area DNS (--no-local) needs neither D-Bus nor Avahi: they are not asked.
        if !serveOnly, !wideArea.noLocal, case .unavailable(let issue) = AvahiStatus.query(for: .publish) {
            IssueLines.lines([issue], terminal: terminal).forEach { terminal.err($0) }
            throw issue.kind == .busMissing || issue.kind == .daemonMissing ? ExitStatus.environment.code : ExitStatus.failure.code
        }
        let gateway = serving ? try await startServing(terminal) : nil
        // The stand-in stops before the command returns, however it ends.
        do {
            try await advertise(serving: gateway, until: signals, terminal: terminal)
        } catch {
            await gateway?.stop()
            throw error
        }
        await gateway?.stop()
    }

    /// Publishes the beacon (mDNS, and the wide-area one with --wide-area) until a signal.
    private func advertise(serving gateway: StandInGateway?, until signals: AsyncStream<Int32>, terminal: Terminal) async throws {
        if serveOnly {
            terminal.out("no beacon is published (--serve-only); Ctrl-C to stop")
            for await _ in signals { break }
            terminal.out("stopped serving")
            return
        }
        let name = name!
        let txt = try txtRecord(serving: gateway)
        let beacon = try await registerWideArea(name: name, txt: txt, terminal: terminal)
        // However the mDNS side ends (a signal, Avahi gone for good, an error), what the
        // wide-area registration added is withdrawn before the command ends.
        do {
            if wideArea.noLocal {
                for await _ in signals { break }
            } else {
                try await advertiseLocally(name: name, txt: txt, until: signals, terminal: terminal)
            }
        } catch {
            _ = await beacon?.withdraw()
            throw error
        }
        try await withdraw(beacon)
    }

    /// Publishes the beacon by mDNS in local. until a signal (or until Avahi's stream ends).
    private func advertiseLocally(name: String, txt: TXTRecord, until signals: AsyncStream<Int32>, terminal: Terminal) async throws {
        let advertisements = MulticastAdvertiser().advertise(name: name, type: .gateway, port: port, txt: txt)
        let steps = AsyncStream<AdvertiseStep> { continuation in
            let advertiseTask = Task {
                for await event in advertisements { continuation.yield(.beacon(event)) }
                continuation.finish()
            }
            let signalTask = Task {
                for await number in signals { continuation.yield(.signal(number)) }
            }
            continuation.onTermination = { _ in
                advertiseTask.cancel()
                signalTask.cancel()
            }
        }

        terminal.out("advertising \"\(name)\" as \(ServiceType.gateway.name) on port \(port) in local. (Ctrl-C to stop)")
        var current = name
        var established = false
        for await step in steps {
            switch step {
            case .beacon(.established(let published)):
                established = true
                current = published
                terminal.out("established: \(published)")
            case .beacon(.renamed(let old, let new)):
                terminal.out("renamed: \"\(old)\" is taken on the network; now \"\(new)\"")
                current = new
            case .beacon(.failed(let issue)):
                terminal.err(lines: IssueLines.lines([issue], terminal: terminal))
                if !established && (issue.kind == .busMissing || issue.kind == .daemonMissing) {
                    throw ExitStatus.environment.code
                }
            case .signal:
                terminal.out("withdrawn: \(current)")
                return
            }
        }
    }
}

extension AdvertiseCommand {
    /// With --wide-area: the beacon registered on the domain's primary (nil without it).
    private func registerWideArea(name: String, txt: TXTRecord, terminal: Terminal) async throws -> WideAreaBeacon? {
        guard wideArea.domain != nil else { return nil }
        SecretWarnings.tsigKey(wideArea.tsigKey, terminal: terminal)
        let beacon = try WideAreaBeacon(options: wideArea, name: name, port: port, txt: txt, bindAddress: bindAddress, terminal: terminal)
        guard await beacon.register(refreshEvery: wideArea.refresh ?? .seconds(30)) else { throw ExitStatus.failure.code }
        return beacon
    }

    /// A withdrawal the server refused (or never answered) fails the command: records remain.
    private func withdraw(_ beacon: WideAreaBeacon?) async throws {
        guard let beacon else { return }
        guard await beacon.withdraw() else { throw ExitStatus.failure.code }
    }
}

private struct TLSDirectoryProblem: Error, CustomStringConvertible {
    let description: String
}

extension StandInConnect.Outcome: ExpressibleByArgument {}
