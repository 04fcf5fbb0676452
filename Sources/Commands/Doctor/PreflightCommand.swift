import ArgumentParser
import DNSSD
import Discovery
import Doctor
import FoundationEssentials
import Host
import Output

extension Preflight.Requirement: ExpressibleByArgument {}

struct PreflightCommand: ClawnetCommand {
    static let configuration = CommandConfiguration(
        commandName: "preflight",
        abstract: "A fast yes or no for install scripts: can this machine discover and reach a Gateway?",
        discussion: """
            Requirements (default: gateway): mdns (D-Bus, avahi-daemon and a multicast \
            interface), wide-area (a configured domain answers with Gateways), gateway (some \
            Gateway answers its WebSocket with connect.challenge: the TARGETs given, else \
            gateway.remote.url on a node, else any discovered or at 127.0.0.1:18789; its certificate \
            must match --pin, else the fingerprint its beacon advertises).

            Examples:

                if clawnet preflight --quiet --require mdns; then echo "mDNS ok"; fi
                rc=0; clawnet preflight --quiet --require mdns || rc=$?
                clawnet preflight --require gateway --format json > preflight.json
                clawnet preflight wss://studio.local:18789 --pin "$PIN" --json

            \(ExitStatus.status(
                (.success, "every requirement holds"),
                (.failure, "a requirement fails"),
                (.environment, "every one that fails lacks a prerequisite (no D-Bus or avahi-daemon, no domain configured)")))
            """
    )

    @OptionGroup var targetArguments: TargetsArgument

    @Option(name: .customLong("require"), help: ArgumentHelp("mdns, wide-area or gateway (repeatable).", valueName: "WHAT"))
    var requirements: [Preflight.Requirement] = []

    @OptionGroup var pinOption: PinOption<Words>

    @OptionGroup var tokenFile: TokenFileOption<Words>

    @OptionGroup var noLocalFlag: NoLocalFlag<Words>

    @OptionGroup var manualOption: ManualOption<Words>

    @Flag(help: "Print nothing; the exit code says it.")
    var quiet = false

    @OptionGroup var format: FormatOptions<Words>

    @OptionGroup var domainOption: DomainsOption<Words>

    @OptionGroup var serverOption: ServersOption<Words>

    @OptionGroup var timeout: TimeoutOption<Words>

    @OptionGroup var config: ConfigOption<Words>

    @OptionGroup var global: GlobalOptions

    /// How preflight words the options it shares.
    enum Words: PinWording, TokenFileWording, NoLocalWording, ManualWording, FormatWording, DomainsWording, ServersWording,
        TimeoutWording, ConfigWording
    {
        typealias Format = ReportFormat
        static let pinHelp = "The fingerprint the Gateway's certificate must have (SHA-256)."
        static let tokenFileHelp = "A file whose first line is the Gateway's token, sent to the TARGETs only."
        static let noLocalHelp = "Do not browse local. by mDNS."
        static let manualHelp = "A Gateway given by hand, HOST[:PORT] or a ws(s):// URL: the same as a TARGET (repeatable)."
        static let formatHelp = "table (the default) or json (schema clawnet.preflight.v2)."
        static let domainsHelp = "A wide-area domain (default: the configured one)."
        static let serversHelp = "A DNS server for the wide-area domain instead of the system's (repeatable)."
        static let timeoutHelp = "Time for the whole run (default 3s), shared as doctor shares it."
        static let defaultTimeout = Duration.seconds(3)
        static let configHelp =
            "OpenClaw config to read (default: the one OpenClaw reads, as doctor's --config says; - reads standard input)."
    }

    var required: Set<Preflight.Requirement> { requirements.isEmpty ? [.gateway] : Set(requirements) }

    func validate() throws {
        if noLocalFlag.noLocal && required.contains(.mdns) { throw ValidationError("--no-local and --require mdns contradict each other") }
        // --quiet prints nothing: a flag that asks for output says the opposite.
        let talking = [(global.verbose, "--verbose"), (format.json, "--json"), (format.given, "--format")]
        if quiet, let other = talking.first(where: \.0)?.1 {
            throw ValidationError("--quiet and \(other) contradict each other: --quiet prints nothing; give one of them")
        }
    }

    /// The TARGETs and the --manual Gateways: the same thing, given two ways.
    var targets: [DoctorTarget] { targetArguments.targets + manualOption.manual.map(DoctorTarget.init) }

    var options: DoctorOptions {
        var options = DoctorOptions()
        options.targets = targets
        options.pin = pinOption.pin
        options.timeout = timeout.duration
        options.discovery.domains = domainOption.domains
        options.discovery.servers = serverOption.servers
        // A Gateway named by its address is checked without browsing; one named by its instance
        // name is found only by browsing.
        let browsingNeeded = targets.contains { $0.endpoint == nil } || targets.isEmpty
        options.discovery.local = !noLocalFlag.noLocal && required.contains(.gateway) && browsingNeeded
        options.noLocal = noLocalFlag.noLocal
        return options
    }

    /// The requirements checked as doctor checks them; the exit status is the report's.
    func run(_ context: CommandContext) async throws -> ExitStatus {
        let terminal = context.terminal
        let system = context.machine.inspector(config.path)
        var options = self.options
        options.read(environment: context.environment)
        let config = system.config()
        // The paths as given (options.discovery browses local. only when it must).
        var given = options.discovery
        given.local = !noLocalFlag.noLocal
        let paths = DiscoveryPaths.Given(given, config: config, targets: !targets.isEmpty)
        try DiscoveryPaths.requireDomain(paths)
        let secrets = try Credentials.load(into: &options, tokenFile: tokenFile.path, deviceFile: nil, config: config)
        let port = config.gatewayPort ?? Endpoint.defaultGatewayPort
        if !quiet, required.contains(.gateway), let note = DiscoveryPaths.note(paths, command: "preflight", port: port) {
            terminal.err(note)
        }
        // What preflight falls back on or warns about: an unreadable config (defaults are used),
        // a secret file others can read.
        let warnings = config.warnings + secrets.map(\.description)
        if !quiet { warnings.forEach { terminal.err("warning: \($0)") } }
        let (requirements, elapsed) = await Preflight.run(required, options: options, system: system, io: context.network)
        let width = TextWrap.terminalWidth(environment: context.environment, terminalColumns: context.terminal.columns)
        let report = PreflightReport(requirements: requirements, elapsed: elapsed, warnings: warnings, width: width)
        if !quiet { try report.print(format.chosen, to: terminal) }
        return report.exitStatus
    }
}
