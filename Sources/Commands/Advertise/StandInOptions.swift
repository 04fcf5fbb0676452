import ArgumentParser
import DNSSD
import Host
import Output
import Probes

/// `advertise --serve` and `--serve-only`: a stand-in that answers on the port like a Gateway.
struct StandInOptions: ParsableArguments {
    @Flag(help: "Also answer on the port like a Gateway (health endpoints, connect.challenge).")
    var serve = false

    @Flag(help: "With --serve: TLS 1.3 with a self-signed certificate made now; its fingerprint goes into the TXT.")
    var tls = false

    @Option(
        name: .customLong("bind"),
        help: ArgumentHelp("With --serve: the address to listen on (default: every address, IPv4 and IPv6).", valueName: "ADDRESS"),
        transform: { try Arguments.address($0).description })
    var bindAddress: String?

    @Option(
        name: .customLong("tls-dir"),
        help: ArgumentHelp(
            "With --serve (implies --tls): use DIR/gateway-cert.pem and DIR/gateway-key.pem, made there when missing, so the fingerprint "
                + "survives restarts. DIR must be this user's (or root's) and writable by no one else.",
            valueName: "DIR"), completion: .directory)
    var tlsDirectory: String?

    @Flag(name: .customLong("serve-only"), help: "Serve like a Gateway, but publish no beacon (a Gateway whose mDNS advertising is off).")
    var serveOnly = false

    @Option(
        name: .customLong("connect"),
        help: ArgumentHelp("With --serve: answer every connect request this way (default auto: as a Gateway would).", valueName: "OUTCOME"))
    var connectOutcome: StandInConnect.Outcome = .auto

    @OptionGroup var tokenFile: TokenFileOption<Words>

    @Option(
        name: .customLong("paired-device"),
        help: ArgumentHelp("With --serve: a device id the stand-in has paired (repeatable).", valueName: "ID"))
    var pairedDevices: [String] = []

    @Option(
        name: .customLong("starting-for"), parsing: .unconditional,
        help: ArgumentHelp(
            "With --serve: answer connect as a starting Gateway does, for this long from the first request.", valueName: "DURATION"),
        transform: Arguments.duration)
    var startingFor: Duration?

    @Option(
        name: .customLong("release"),
        help: ArgumentHelp(
            "With --serve: the OpenClaw release to answer as (default \(StandInRelease.current.rawValue); 2026.5: probes from protocol "
                + "v4, a 10-minute signature window, no pairing decisions announced).",
            valueName: "RELEASE"))
    var release: StandInRelease = .current

    @Option(
        name: .customLong("tick-interval"), parsing: .unconditional,
        help: ArgumentHelp(
            "With --serve: policy.tickIntervalMs in hello-ok, and how often a tick is sent (default 30s).", valueName: "DURATION"),
        transform: Arguments.duration)
    var tickInterval: Duration?

    @OptionGroup var upgradeGate: UpgradeGateOptions

    /// How advertise words --token-file: the token the stand-in requires.
    enum Words: TokenFileWording {
        static let tokenFileHelp = "With --serve: require the token on this file's first line (the Gateway's gateway.auth.token)."
    }

    var enabled: Bool { serve || serveOnly }
    var usesTLS: Bool { tls || tlsDirectory != nil }

    func validate() throws {
        let tuning = tls || bindAddress != nil || tlsDirectory != nil || tokenFile.path != nil || !pairedDevices.isEmpty
        if (tuning || connectOutcome != .auto || startingFor != nil || release != .current || tickInterval != nil) && !enabled {
            throw ValidationError(
                "--tls, --tls-dir, --bind, --connect, --token-file, --paired-device, --starting-for, --release and --tick-interval go "
                    + "with --serve")
        }
        if let tickInterval, tickInterval < .seconds(1) || tickInterval > .seconds(3600) {
            throw ValidationError("--tick-interval: between 1s and 1h, as a Gateway's policy.tickIntervalMs")
        }
        if upgradeGate.isSet && !enabled {
            throw ValidationError("--trusted-proxy, --allow-real-ip-fallback, --restarting-for and --rate-limited-for go with --serve")
        }
    }

    /// The stand-in, listening (`StandInGateway.start(bind:)`), with its TLS identity and the
    /// token it requires; each connect request it reads is printed.
    func start(port: Int, context: CommandContext) async throws -> StandInGateway {
        let terminal = context.terminal
        var connect = StandInConnect(outcome: connectOutcome, pairedDevices: Set(pairedDevices))
        connect.startingFor = startingFor
        connect.release = release
        if let tickInterval { connect.tickInterval = tickInterval }
        let identity: StandInIdentity?
        do {
            identity = try loadIdentity(terminal)
            connect.token = try tokenFile.path.map(TokenFile.read)
            if let path = tokenFile.path { SecretWarnings.check(path, .token, terminal: terminal) }
        } catch {
            throw CommandError(
                "\(error)",
                fix: "--tls-dir must be a folder this user can write holding both gateway-cert.pem and gateway-key.pem, or neither; "
                    + "--token-file a readable file whose first line is the token")
        }
        let gateway: StandInGateway
        do {
            gateway = try await StandInGateway.start(
                bind: bindAddress, port: port, identity: identity, connect: connect,
                observer: { client, received in terminal.err(AdvertiseLines.connect(from: client, received)) }, gate: upgradeGate.gate,
                refused: { client, refusal in terminal.err(AdvertiseLines.refused(from: client, refusal)) })
        } catch {
            throw CommandError(
                "cannot listen on \(bindAddress ?? "*"):\(port): \(StandInGateway.describe(error))",
                fix: "is a Gateway (or something else) already using the port? `ss -ltnp 'sport = :\(port)'`; or choose --port")
        }
        terminal.err(AdvertiseLines.serving(gateway, port: port))
        return gateway
    }

    /// nil without TLS; with --tls-dir the pair kept there (`StandInIdentityStore`).
    private func loadIdentity(_ terminal: Terminal) throws -> StandInIdentity? {
        guard usesTLS else { return nil }
        guard let tlsDirectory else { return try StandInIdentity.make() }
        let store = StandInIdentityStore(directory: tlsDirectory)
        let loaded = try store.load()
        switch loaded {
        case .kept(_, let warning): SecretWarnings.print(warning.map { [$0] } ?? [], to: terminal)
        case .made: terminal.err(AdvertiseLines.madeCertificate(store))
        }
        return loaded.identity
    }
}

extension StandInConnect.Outcome: ExpressibleByArgument {}
extension StandInRelease: ExpressibleByArgument {}
