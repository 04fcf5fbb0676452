import ArgumentParser
import DNSSD
import Discovery
import Host
import Output

struct BrowseCommand: ClawnetCommand {
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

    @Argument(
        help: ArgumentHelp("Gateways given by hand, HOST[:PORT] or a ws(s):// URL: the same as --manual.", valueName: "TARGET"),
        transform: Arguments.endpoint)
    var targets: [EndpointSpec] = []

    @OptionGroup var domainOption: DomainsOption<Words>

    @OptionGroup var noLocalFlag: NoLocalFlag<Words>

    @OptionGroup var serverOption: ServersOption<Words>

    @OptionGroup var manualOption: ManualOption<Words>

    @Option(
        name: .customLong("type"),
        help: ArgumentHelp("A service type to browse instead of _openclaw-gw._tcp (repeatable).", valueName: "TYPE"),
        transform: Arguments.serviceType)
    var types: [ServiceType] = []

    @Flag(
        name: .customLong("legacy-types"),
        help: "Also browse the types of older releases (_moltbot-gw, _clawdbot-gw, _clawdbot-bridge, _clawdis-bridge).")
    var legacyTypes = false

    @OptionGroup var timeout: TimeoutOption<Words>

    @Flag(help: "Keep running and report changes until interrupted; reconnects when avahi-daemon restarts, asks DNS again as TTLs run out.")
    var watch = false

    @OptionGroup var format: FormatOptions<Words>

    @OptionGroup var config: ConfigOption<Words>

    @OptionGroup var global: GlobalOptions

    /// How browse words the options it shares.
    enum Words: DomainsWording, NoLocalWording, ServersWording, ManualWording, TimeoutWording, FormatWording, ConfigWording {
        typealias Format = BrowseFormat
        static let domainsHelp = "A wide-area domain to browse by unicast DNS-SD, e.g. openclaw.internal (repeatable)."
        static let noLocalHelp = "Do not browse local. by mDNS."
        static let serversHelp =
            "A DNS server for the wide-area domains instead of the system's, ADDRESS[:PORT] (repeatable; IPv6 in brackets)."
        static let manualHelp = "A Gateway given by hand: HOST[:PORT] (default port 18789), or a ws:// or wss:// URL (repeatable)."
        static let timeoutHelp = "Stop after this long (e.g. 3s, 500ms). Default 5s; none with --watch."
        static let defaultTimeout: Duration = .seconds(5)
        static let formatHelp = "table (the default), json (one clawnet.browse.v1 document) or jsonl (one event per line)."
    }

    /// What prints: --json is --format json.
    var output: BrowseFormat { format.chosen }

    func validate() throws {
        if output == .json && watch {
            throw ValidationError("--format json prints one document at the end; with --watch use --format jsonl")
        }
    }

    var options: DiscoveryOptions {
        var options = DiscoveryOptions()
        options.types = (types.isEmpty ? [.gateway] : types) + (legacyTypes ? ServiceType.legacy : [])
        options.local = !noLocalFlag.noLocal
        options.domains = domainOption.domains
        options.servers = serverOption.servers
        options.manual = targets + manualOption.manual
        options.watch = watch
        return options
    }

    /// Browses until every path has reported (or --timeout; with --watch until stopped),
    /// printing as events arrive; the exit status is the report's.
    func run(_ context: CommandContext) async throws -> ExitStatus {
        let config = context.config(self.config.path)
        let request = DiscoveryRequest(options, config: config, interfaces: context.machine.interfaces())
        try DiscoveryPaths.requireSomething(
            DiscoveryPaths.Given(options, config: config, targets: false, nodeGateway: false), verb: "browse")
        let deadline: Duration? = watch ? timeout.given : timeout.duration
        let configIssues = config.warnings.map { DiscoveryIssue(source: .config, kind: .config, .config(warning: $0)) }
        let width = TextWrap.terminalWidth(environment: context.environment, terminalColumns: context.terminal.columns)
        let output = BrowseOutput(format: self.output, watch: watch, terminal: context.terminal, started: context.clock.now(), width: width)
        var shown = BeaconCollection()
        for issue in configIssues {
            shown.apply(.error(issue))
            output.show(.error(issue), collection: shown)
        }
        let watching = watch
        // Nobody reads any more (`| head -1`), or stdout is full: browsing stops (--watch would never end).
        let snapshot = await context.runUntilStopped {
            await context.discovery.snapshot(request, timeout: deadline, untilAllForNow: !watching, initial: configIssues) {
                event, collection in
                output.show(event, collection: collection)
            }
        }
        let report = BrowseReport(request: request, snapshot: snapshot)
        try output.finish(report, timedOut: snapshot.timedOut, deadline: deadline)
        return report.exitStatus
    }
}
