import ArgumentParser
import DNSSD
import Discovery
import Doctor
import Output

extension Preflight.Requirement: ExpressibleByArgument {}

struct PreflightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preflight",
        abstract: "A fast yes or no for install scripts: can this machine discover and reach a Gateway?",
        discussion: """
            Requirements (default: gateway): mdns (D-Bus, avahi-daemon and a multicast \
            interface), wide-area (a configured domain answers with Gateways), gateway (some \
            Gateway, discovered or at 127.0.0.1:18789, answers its WebSocket with \
            connect.challenge). Exit 0 only when every required one holds; 1 when one fails; \
            3 when every one that fails lacks a prerequisite (no Avahi, no domain configured). \
            2 on usage errors.

                if clawnet preflight --quiet --require mdns; then echo "mDNS ok"; fi
            """
    )

    @Option(name: .customLong("require"), help: ArgumentHelp("mdns, wide-area or gateway (repeatable).", valueName: "WHAT"))
    var requirements: [Preflight.Requirement] = []

    @Flag(help: "Print nothing; the exit code says it.")
    var quiet = false

    @Option(help: "table or json (schema clawnet.preflight.v1).")
    var format: ReportFormat = .table

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

    var options: DoctorOptions {
        var options = DoctorOptions()
        options.timeout = timeout ?? .seconds(3)
        options.discovery.domains = domains
        options.discovery.servers = servers
        options.discovery.local = required.contains(.gateway)
        return options
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        let (requirements, elapsed) = await Preflight.run(required, options: options, system: LiveSystem(configPath: configPath))
        let report = PreflightReport(requirements: requirements, elapsed: elapsed)
        if !quiet { try report.print(format, to: terminal) }
        try report.exitStatus.exit()
    }
}
