import ArgumentParser
import DNSSD
import Discovery
import Doctor
import FoundationEssentials
import Host
import Output

extension Preflight.Requirement: ExpressibleByArgument {}

struct PreflightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preflight",
        abstract: "A fast yes or no for install scripts: can this machine discover and reach a Gateway?",
        discussion: """
            Requirements (default: gateway): mdns (D-Bus, avahi-daemon and a multicast \
            interface), wide-area (a configured domain answers with Gateways), gateway (some \
            Gateway answers its WebSocket with connect.challenge: the TARGETs given, else \
            gateway.remote.url on a node, else any discovered or at 127.0.0.1:18789; with --pin \
            its certificate must match).

            Examples:

                if clawnet preflight --quiet --require mdns; then echo "mDNS ok"; fi
                clawnet preflight --quiet --require mdns || status=$?
                clawnet preflight --require gateway --format json > preflight.json
                clawnet preflight wss://studio.local:18789 --pin sha256:5a5a... --json

            \(ExitStatus.status(
                (.success, "every required one holds"),
                (.failure, "one fails"),
                (.environment, "every one that fails lacks a prerequisite (no D-Bus or avahi-daemon, no domain configured)")))
            """
    )

    @Argument(
        help: ArgumentHelp("Gateways to check: URLs, HOST[:PORT] or instance names.", valueName: "TARGET"), transform: Arguments.target)
    var targets: [DoctorTarget] = []

    @Option(name: .customLong("require"), help: ArgumentHelp("mdns, wide-area or gateway (repeatable).", valueName: "WHAT"))
    var requirements: [Preflight.Requirement] = []

    @Option(
        help: ArgumentHelp("The fingerprint the Gateway's certificate must have (SHA-256).", valueName: "SHA256"),
        transform: Arguments.fingerprint)
    var pin: TLSFingerprint?

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp("A file whose first line is the Gateway's token, sent to the TARGETs only.", valueName: "FILE"))
    var tokenFile: String?

    @Flag(name: .customLong("no-local"), help: "Do not browse local. by mDNS.")
    var noLocal = false

    @Flag(help: "Print nothing; the exit code says it.")
    var quiet = false

    @Option(help: "table or json (schema clawnet.preflight.v1).")
    var format: ReportFormat = .table

    @Flag(help: "The same as --format json.")
    var json = false

    @Option(
        name: .customLong("domain"), help: ArgumentHelp("A wide-area domain (default: the configured one).", valueName: "DOMAIN"),
        transform: Arguments.domain)
    var domains: [DomainName] = []

    @Option(
        name: .customLong("server"),
        help: ArgumentHelp("A DNS server for the wide-area domain instead of the system's (repeatable).", valueName: "HOST[:PORT]"),
        transform: Arguments.server)
    var servers: [DNSServer] = []

    @Option(
        help: ArgumentHelp("Time for the whole run (default 3s), shared as doctor shares it.", valueName: "DURATION"),
        transform: Arguments.duration)
    var timeout: Duration?

    @Option(name: .customLong("config"), help: ArgumentHelp("OpenClaw config to read.", valueName: "PATH"))
    var configPath: String?

    @OptionGroup var global: GlobalOptions

    var required: Set<Preflight.Requirement> { requirements.isEmpty ? [.gateway] : Set(requirements) }

    func validate() throws {
        if noLocal && required.contains(.mdns) { throw ValidationError("--no-local and --require mdns contradict each other") }
    }

    var options: DoctorOptions {
        var options = DoctorOptions()
        options.targets = targets
        options.pin = pin
        options.timeout = timeout ?? .seconds(3)
        options.discovery.domains = domains
        options.discovery.servers = servers
        options.discovery.local = !noLocal && required.contains(.gateway) && targets.isEmpty
        options.noLocal = noLocal
        return options
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        let system = LiveSystem(configPath: configPath)
        var options = self.options
        options.read(environment: ProcessInfo.processInfo.environment)
        let config = system.config()
        let secrets = try Credentials.load(into: &options, tokenFile: tokenFile, deviceFile: nil, config: config)
        // What preflight falls back on or warns about: an unreadable config (defaults are used),
        // a secret file others can read.
        let warnings = config.warnings + secrets.map(\.description)
        if !quiet { warnings.forEach { terminal.err("warning: \($0)") } }
        let (requirements, elapsed) = await Preflight.run(required, options: options, system: system)
        let report = PreflightReport(requirements: requirements, elapsed: elapsed, warnings: warnings)
        if !quiet { try report.print(json ? .json : format, to: terminal) }
        try report.exitStatus.exit()
    }
}
