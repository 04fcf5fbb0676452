import ArgumentParser
import DNSSD
import Discovery
import Doctor
import FoundationEssentials

extension Preflight.Requirement: ExpressibleByArgument {}

struct PreflightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preflight",
        abstract: "A fast yes or no for install scripts: can this machine discover and reach a Gateway?",
        discussion: """
            Requirements (default: gateway): mdns (D-Bus, avahi-daemon and a multicast \
            interface), wide-area (a configured domain answers with Gateways), gateway (some \
            Gateway, discovered or at 127.0.0.1:18789, answers its WebSocket with \
            connect.challenge).

            Examples:

                if clawnet preflight --quiet --require mdns; then echo "mDNS ok"; fi
                clawnet preflight --quiet --require mdns || status=$?
                clawnet preflight --require gateway --format json > preflight.json

            \(Exit.status(
                (Exit.success, "every required one holds"),
                (Exit.failure, "one fails"),
                (Exit.environment, "every one that fails lacks a prerequisite (no D-Bus or avahi-daemon, no domain configured)")))
            """
    )

    @Option(name: .customLong("require"), help: ArgumentHelp("mdns, wide-area or gateway (repeatable).", valueName: "WHAT"))
    var requirements: [Preflight.Requirement] = []

    @Flag(help: "Print nothing; the exit code says it.")
    var quiet = false

    @Option(help: "table or json (schema clawnet.preflight.v1).")
    var format: ReportFormat = .table

    @Option(name: .customLong("domain"), help: ArgumentHelp("A wide-area domain (default: the configured one).", valueName: "DOMAIN"))
    var domains: [String] = []

    @Option(name: .customLong("server"), help: ArgumentHelp("A DNS server for the wide-area domain instead of the system's (repeatable).", valueName: "HOST[:PORT]"))
    var servers: [String] = []

    @Option(help: ArgumentHelp("Time budget (default 3s).", valueName: "DURATION"))
    var timeout: DurationArgument?

    @Option(name: .customLong("config"), help: ArgumentHelp("OpenClaw config to read.", valueName: "PATH"))
    var configPath: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        _ = try ParsedArguments.domains(domains)
        _ = try ParsedArguments.servers(servers)
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        var options = DoctorOptions()
        options.timeout = timeout?.duration ?? .seconds(3)
        options.domains = (try? ParsedArguments.domains(domains)) ?? []
        options.servers = (try? ParsedArguments.servers(servers)) ?? []
        let required = requirements.isEmpty ? [.gateway] : Set(requirements)
        options.local = required.contains(.gateway)
        let report = await Preflight.run(required, options: options, system: LiveSystem(configPath: configPath))
        if !quiet {
            if format == .json {
                terminal.out(try JSONOutput.pretty(report))
            } else {
                for result in report.requirements {
                    let mark = result.ok ? terminal.paint("ok  ", .green) : terminal.paint("FAIL", .red)
                    terminal.out("\(mark)  \(result.name.rawValue.padding(10)) \(result.message)")
                    if let fix = result.fix, !result.ok { terminal.out("      \(String().padding(10)) fix: \(fix)") }
                }
                terminal.err(terminal.paint("preflight: \(report.ok ? "ready" : "not ready") (exit \(report.exitCode))", .dim, stderr: true))
            }
        }
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}
