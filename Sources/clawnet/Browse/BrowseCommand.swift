import ArgumentParser
import DNSSD
import Discovery
import Host
import Output

struct BrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "List the OpenClaw Gateways this machine can discover.",
        discussion: """
            Browses _openclaw-gw._tcp in local. through avahi-daemon, in every wide-area domain \
            by unicast DNS-SD (PTR, SRV, TXT, A/AAAA), and resolves manual targets, all at once, \
            and prints one row per Gateway: the instance name decoded, host and port from SRV, \
            every address (IPv6 link-local with its interface), TLS and its pinned fingerprint, \
            and every path that saw it. Warnings under a row name contradictions in the beacon.

            Wide-area domains come from --domain, else from the OpenClaw config \
            (discovery.wideArea.domain in ~/.openclaw/openclaw.json) or OPENCLAW_WIDE_AREA_DOMAIN. \
            They are asked of the system's resolvers (/etc/resolv.conf) unless --server names \
            servers. On a tailnet, when the system's resolvers find nothing, Tailscale's resolver \
            100.100.100.100 is asked too: an answer only there means split DNS is not applied \
            on this machine, and the error line says how to fix it.

            The same Gateway seen on several paths is one row: beacons from different paths \
            are merged when port and display name match and the TLS fingerprint (or, without \
            one, the host label) is the same; a manual target joins a Gateway with its port \
            and one of its addresses.

            Without --watch it stops when every path has reported what it knows (or at \
            --timeout, 5s by default). --format json (or --json) prints one clawnet.browse.v1 \
            document; jsonl prints one event per line as it happens \
            ({"event":"added"|"updated"|"removed"|"error"|"allForNow", ...}).

            Examples:

                clawnet browse
                clawnet browse --domain openclaw.internal --server 100.101.102.103
                clawnet browse --watch --format jsonl
                clawnet browse --format json > fleet.json

            \(ExitStatus.status(
                (.success, "a Gateway was found"),
                (.failure, "no Gateway was found, or every path failed"),
                (.environment, "only mDNS was asked for, and there is no D-Bus or no avahi-daemon")))
            """
    )

    @Option(
        name: .customLong("domain"),
        help: ArgumentHelp("A wide-area domain to browse by unicast DNS-SD, e.g. openclaw.internal (repeatable).", valueName: "DOMAIN"),
        transform: Arguments.domain)
    var domains: [DomainName] = []

    @Flag(name: .customLong("no-local"), help: "Do not browse local. by mDNS.")
    var noLocal = false

    @Option(
        name: .customLong("server"),
        help: ArgumentHelp(
            "A DNS server for the wide-area domains instead of the system's, ADDRESS[:PORT] (repeatable; IPv6 in brackets).",
            valueName: "HOST[:PORT]"),
        transform: Arguments.server)
    var servers: [DNSServer] = []

    @Option(
        name: .customLong("manual"),
        help: ArgumentHelp(
            "A Gateway given by hand: HOST[:PORT] (default port 18789), or a ws:// or wss:// URL (repeatable).", valueName: "HOST[:PORT]"),
        transform: Arguments.endpoint)
    var manual: [EndpointSpec] = []

    @Option(
        name: .customLong("type"),
        help: ArgumentHelp("A service type to browse instead of _openclaw-gw._tcp (repeatable).", valueName: "TYPE"),
        transform: Arguments.serviceType)
    var types: [ServiceType] = []

    @Flag(
        name: .customLong("legacy-types"),
        help: "Also browse the types of older releases (_moltbot-gw, _clawdbot-gw, _clawdbot-bridge, _clawdis-bridge).")
    var legacyTypes = false

    @Option(
        help: ArgumentHelp("Stop after this long (e.g. 3s, 500ms). Default 5s; none with --watch.", valueName: "DURATION"),
        transform: Arguments.duration)
    var timeout: Duration?

    @Flag(help: "Keep running and report changes until interrupted; reconnects when avahi-daemon restarts, asks DNS again as TTLs run out.")
    var watch = false

    @Option(help: "table, json (one clawnet.browse.v1 document) or jsonl (one event per line).")
    var format: BrowseFormat = .table

    @Flag(help: "The same as --format json.")
    var json = false

    /// What prints: --json is --format json.
    var output: BrowseFormat { json ? .json : format }

    @Option(
        name: .customLong("config"), help: ArgumentHelp("OpenClaw config to read (default ~/.openclaw/openclaw.json).", valueName: "PATH"))
    var configPath: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if json && format == .jsonl { throw ValidationError("--json and --format jsonl: choose one") }
        if output == .json && watch {
            throw ValidationError("--format json prints one document at the end; with --watch use --format jsonl")
        }
    }

    var options: DiscoveryOptions {
        var options = DiscoveryOptions()
        options.types = (types.isEmpty ? [.gateway] : types) + (legacyTypes ? ServiceType.legacy : [])
        options.local = !noLocal
        options.domains = domains
        options.servers = servers
        options.manual = manual
        options.watch = watch
        return options
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        let config = OpenClawConfig.load(explicitPath: configPath)
        let request = DiscoveryRequest(options, config: config, interfaces: NetworkInterface.current())
        if request.domains.isEmpty && !servers.isEmpty {
            throw ValidationError(
                "--server needs a wide-area domain to ask about: add --domain (or set discovery.wideArea.domain / "
                    + "OPENCLAW_WIDE_AREA_DOMAIN)"
            )
        }
        let deadline = watch ? timeout : (timeout ?? .seconds(5))
        let configIssues = config.warnings.map { DiscoveryIssue(source: .config, kind: .config, message: $0) }
        let started = ContinuousClock.now
        let format = output
        let live = LiveOutput(format: format, watch: watch, terminal: terminal, started: started)
        var shown = BeaconCollection()
        for issue in configIssues {
            shown.apply(.error(issue))
            live.show(.error(issue), collection: shown)
        }
        let browsing = Task {
            await DiscoverySession.snapshot(request, timeout: deadline, untilAllForNow: !watch, initial: configIssues) {
                event, collection in
                live.show(event, collection: collection)
            }
        }
        // Nobody reads any more (`| head -1`), or stdout is full: stop browsing (--watch would never end).
        StandardStreams.onStdoutFailure { browsing.cancel() }
        let snapshot = await browsing.value
        terminal.clearProgress()

        let report = BrowseReport(request: request, snapshot: snapshot)
        switch format {
        case .json: try report.print(.json, to: terminal)
        case .table where !watch: try report.print(.table, to: terminal)
        default: break
        }
        if snapshot.timedOut && !watch && format != .jsonl {
            terminal.err(
                "note: stopped at the \((deadline ?? .zero).argumentText) timeout before every path reported everything; results may be "
                    + "incomplete"
            )
        }
        try report.exitStatus.exit()
    }
}

/// What is printed while events arrive: jsonl lines, watch-mode rows, or a progress line.
struct LiveOutput {
    let format: BrowseFormat
    let watch: Bool
    let terminal: Terminal
    let started: ContinuousClock.Instant

    func show(_ event: DiscoveryEvent, collection: BeaconCollection) {
        let line = DiscoveryEventLine(event, elapsed: ContinuousClock.now - started)
        switch format {
        case .jsonl:
            if let json = try? line.json() { terminal.out(json) }
        case .table where watch:
            let lines = line.table(terminal, collection: collection)
            terminal.out(lines: lines.out)
            terminal.err(lines: lines.err)
        default:
            terminal.progress("browsing … \(collection.count) found")
        }
    }
}
