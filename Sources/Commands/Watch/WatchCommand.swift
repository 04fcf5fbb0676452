import ArgumentParser
import DNSSD
import Discovery
import Doctor
import FoundationEssentials
import Host
import Output
import Watch

/// `--format` of watch: a line per event, for people (`table`, as every command calls its
/// format for people) or as JSON. `text`, its name before, is still read but not listed.
enum WatchFormat: String, OutputFormatChoice {
    case table, jsonl

    init?(argument: String) {
        self.init(rawValue: argument == "text" ? Self.table.rawValue : argument)
    }
}

struct WatchCommand: ClawnetCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch every Gateway this machine can discover and report changes as they happen.",
        usage: "clawnet watch [<options>] [<TARGET> ...]",
        discussion: """
            Discovers Gateways on every path (mDNS in local., the wide-area domains, the TARGETs \
            and --manual targets, and the Gateway this node's config names) and probes each one every \
            --interval (30s by default, jittered; backing off up to 5 minutes while it is down), \
            up to the connect handshake: never pairing, never with a token.

            Prints a line per event: appeared and disappeared (with the source, the discovery \
            path), up, down (with the check that failed and the diagnosis doctor gives), \
            flapping and steady, certificateChanged, pinChanged, certificateExpiring (under 14 \
            days), protocolChanged, serverVersionChanged, forgotten; and error: a discovery path's \
            error, or a probe this machine could not run (no file descriptor left), after which the \
            Gateway keeps its state and is probed again within seconds. --format jsonl prints one \
            clawnet.watch-event.v2 object per line.

            A Gateway is one id whatever paths list it. One that no path lists any more (an mDNS \
            goodbye, its record removed from the zone) is still probed, down when it does not \
            answer, for --forget-after (24h), then forgotten; listed again, it is the same Gateway.

            With --metrics-listen ADDRESS:PORT it serves /metrics in the Prometheus text format \
            and /sd, the Gateways found in Prometheus's http_sd format (Prometheus cannot browse \
            DNS-SD itself), to at most 64 connections at once (fewer when the limit of open \
            files is low: the probes' descriptors come first), each of which must send its \
            request within 5 seconds and read its answer within 10 (an answer that stands \
            still for 3 seconds is closed). SIGTERM or SIGINT ends it; SIGHUP rereads the OpenClaw config.

            Examples:

                clawnet watch
                clawnet watch wss://studio.example.ts.net
                clawnet watch --domain openclaw.internal --format jsonl
                clawnet watch --metrics-listen 127.0.0.1:9464

            \(ExitStatus.status(
                (.success, "stopped by a signal or at --timeout"),
                (.usage, "usage error: a bad flag or value, or --metrics-listen could not listen"),
                (.environment, "mDNS was the only path and cannot run here (no D-Bus or avahi-daemon)")))
            """
    )

    @OptionGroup var targetArguments: TargetsArgument

    @OptionGroup var domainOption: DomainsOption<Words>

    @OptionGroup var noLocalFlag: NoLocalFlag<Words>

    @OptionGroup var serverOption: ServersOption<Words>

    @OptionGroup var manualOption: ManualOption<Words>

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("How often each Gateway is probed while it is up (default 30s, at least 1s).", valueName: "DURATION"),
        transform: { try Arguments.duration($0, atLeast: WatchPolicy.minimumInterval) })
    var interval: Duration = .seconds(30)

    @Option(
        name: .customLong("forget-after"), parsing: .unconditional,
        help: ArgumentHelp(
            "How long a Gateway no discovery path lists any more is still probed, then forgotten (default 24h).", valueName: "DURATION"),
        transform: Arguments.duration)
    var forgetAfter: Duration = WatchPolicy().forgetAfter

    @Option(
        name: .customLong("metrics-listen"),
        help: ArgumentHelp(
            "Serve /metrics and /sd on this address and port, e.g. 127.0.0.1:9464 or [::1]:9464.", valueName: "ADDRESS:PORT"),
        transform: Arguments.listenAddress)
    var metricsListen: Endpoint?

    @OptionGroup var format: FormatOptions<Words>

    @OptionGroup var timeout: TimeoutOption<Words>

    @OptionGroup var config: ConfigOption<Words>

    @OptionGroup var global: GlobalOptions

    enum Words: DomainsWording, NoLocalWording, ServersWording, ManualWording, FormatWording, TimeoutWording, ConfigWording {
        // Watch discovers as browse does: the same words.
        static let domainsHelp = BrowseCommand.Words.domainsHelp
        static let noLocalHelp = BrowseCommand.Words.noLocalHelp
        static let serversHelp = BrowseCommand.Words.serversHelp
        static let manualHelp = BrowseCommand.Words.manualHelp
        static let timeoutHelp = "Stop after this long (e.g. 10m). Default: run until a signal."
        static let defaultTimeout: Duration = .seconds(86_400)
        static let formatHelp = "table (a line per event) or jsonl (clawnet.watch-event.v2 per line)."
        static let showsDefaultFormat = true
        /// `--json`, as the other commands spell JSON: watch prints a stream of events, so it is
        /// refused with the spelling watch takes, not "Unknown option". Not in the help.
        static let jsonFlag = JSONFlag<WatchFormat>.refused(
            "watch prints a stream of events: use --format jsonl (one clawnet.watch-event.v2 object per line)")
    }

    var options: DiscoveryOptions {
        var options = DiscoveryOptions()
        options.local = !noLocalFlag.noLocal
        options.domains = domainOption.domains
        options.servers = serverOption.servers
        options.manual = targetArguments.targets.compactMap(\.endpoint) + manualOption.manual
        options.watch = true
        return options
    }

    /// The /metrics and /sd endpoint, when --metrics-listen asks for it.
    private func serveMetrics(_ board: WatchBoard, policy: WatchPolicy) async throws -> MetricsServer? {
        guard let endpoint = metricsListen else { return nil }
        do {
            return try await MetricsServer.start(
                host: endpoint.host, port: endpoint.port, board: board, gatewayLimit: MetricsText.defaultGatewayLimit,
                connectionLimit: MetricsServer.connectionLimit(reserved: policy.descriptorReserve))
        } catch {
            throw ValidationError("--metrics-listen \(endpoint): cannot listen: \(MetricsServer.describe(error))")
        }
    }

    /// Something to watch, or a usage error; notes on what waits (a --server for its domain, an
    /// instance name for a path that lists it).
    private func checkPaths(_ context: CommandContext) throws {
        // An instance name counts: watch says how it is watched (a domain may come with SIGHUP).
        let named = !targetArguments.targets.isEmpty
        let paths = DiscoveryPaths.Given(options, config: context.config(config.path), targets: named)
        try DiscoveryPaths.requireSomething(paths, verb: "watch", domainLater: true)
        if let note = DiscoveryPaths.serverWaits(paths) { context.terminal.err(note) }
        for name in targetArguments.targets where name.endpoint == nil {
            context.terminal.err(
                "\(SafeText.line(name.text)): an instance name, watched when a discovery path lists it (as every Gateway found is)")
        }
    }

    /// Watches until a signal (or --timeout), printing each event as it happens.
    func run(_ context: CommandContext) async throws -> ExitStatus {
        try checkPaths(context)
        let signals = context.termination()
        let hangups = context.hangups()
        var policy = WatchPolicy()
        policy.interval = interval
        policy.forgetAfter = forgetAfter
        let board = WatchBoard()
        let server = try await serveMetrics(board, policy: policy)
        if let server, let metricsListen {
            context.terminal.err("serving /metrics and /sd on \(Endpoint(host: metricsListen.host, port: server.port))")
        }
        let terminal = context.terminal
        let lines = JSONOutput.LineEncoder()
        let format = self.format.chosen
        let width = TextWrap.terminalWidth(environment: context.environment, terminalColumns: terminal.columns)
        // An event or a path's error, as lines for people or one of JSON Lines.
        @Sendable func show(_ text: [String], _ json: () throws -> String) {
            switch format {
            case .table: terminal.out(lines: text)
            case .jsonl: if let json = try? json() { terminal.out(json) }
            }
        }
        let (options, configPath, inspector) = (self.options, config.path, context.machine.inspector)
        let service = WatchService(
            policy: policy, discovery: context.discovery, board: board,
            setup: { await BlockingThreads.shared.value { WatchSetup.read(options, system: inspector(configPath)) } },
            emit: { event in
                let line = WatchEventLine(event)
                show(line.lines(terminal, width: width)) { try line.json(lines) }
            },
            report: { issue in
                let line = WatchIssueLine(issue, date: Date())
                show([line.text(terminal)]) { try line.json(lines) }
            })
        let ended = await context.runUntilStopped(signals: signals, timeout: timeout.given) { await service.run(hangups: hangups) }
        await server?.stop()
        guard ended == nil else {
            terminal.err("nothing to watch: mDNS is the only path, and it cannot run here")
            return .environment
        }
        return .success
    }
}
