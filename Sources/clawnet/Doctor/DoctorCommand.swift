import ArgumentParser
import DNSSD
import Discovery
import Doctor
import FoundationEssentials

struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check this machine and each Gateway, layer by layer, and say what is broken and how to fix it.",
        discussion: """
            The machine: the OpenClaw config, D-Bus and avahi-daemon, interfaces that carry \
            multicast, other mDNS responders on UDP 5353, nss-mdns, the resolver, every \
            wide-area domain (and whether only Tailscale's resolver answers it), Tailscale.

            Each Gateway: gw.dns (addresses), gw.tcp, gw.tls (version, cipher, fingerprint), \
            gw.pin (against --pin, else the beacon's gatewayTlsSha256), gw.cert, gw.http \
            (/healthz, /readyz), gw.websocket (101 and Sec-WebSocket-Accept), gw.protocol (the \
            first frame, connect.challenge). Then a diagnosis names the causes (a Gateway bound \
            to loopback, split DNS not applied, a rotated certificate, multicast blocked...).

            TARGET is a URL (wss://host:port), HOST[:PORT] or an instance name from `clawnet \
            browse`. Without targets: everything discovered, plus 127.0.0.1 on the configured \
            port (18789). With targets, machine findings they do not depend on are warnings.

            Check ids: \(CheckCatalog.ids.joined(separator: ", ")).

            Examples:

                clawnet doctor
                clawnet doctor wss://studio.local:18789 --timeout 10s
                clawnet doctor --check gw.tls studio.local
                clawnet doctor --format json | jq -r '.diagnosis[].fix'

            \(Exit.status((Exit.success, "nothing failed (warnings allowed)"), (Exit.failure, "a check failed")))
            """
    )

    @Argument(help: ArgumentHelp("Gateways to check: URLs, HOST[:PORT] or instance names.", valueName: "TARGET"))
    var targets: [String] = []

    @Option(name: .customLong("domain"), help: ArgumentHelp("A wide-area domain to check (repeatable; default: the configured one).", valueName: "DOMAIN"))
    var domains: [String] = []

    @Option(name: .customLong("server"), help: ArgumentHelp("A DNS server for the wide-area domains instead of the system's (repeatable).", valueName: "HOST[:PORT]"))
    var servers: [String] = []

    @Flag(name: .customLong("no-local"), help: "Do not browse local. by mDNS.")
    var noLocal = false

    @Option(help: ArgumentHelp("The certificate fingerprint nodes pinned (SHA-256; 'sha256:' prefixes and colons are fine).", valueName: "SHA256"))
    var pin: String?

    @Option(help: ArgumentHelp("Time for discovery and for each Gateway's probe (default 5s).", valueName: "DURATION"))
    var timeout: DurationArgument?

    @Option(name: .customLong("check"), help: ArgumentHelp("Run only this check (and what it needs); repeatable.", valueName: "ID"))
    var checks: [String] = []

    @Option(help: "table or json (schema clawnet.doctor.v1).")
    var format: ReportFormat = .table

    @Option(name: .customLong("config"), help: ArgumentHelp("OpenClaw config to read (default ~/.openclaw/openclaw.json).", valueName: "PATH"))
    var configPath: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        for id in checks where !CheckCatalog.ids.contains(id) {
            throw ValidationError("unknown check '\(id)'; checks are: \(CheckCatalog.ids.joined(separator: ", "))")
        }
        if let pin, TLSFingerprint(normalizing: pin) == nil {
            throw ValidationError("--pin \(pin) is not a SHA-256 fingerprint (64 hex digits)")
        }
        _ = try ParsedArguments.domains(domains)
        _ = try ParsedArguments.servers(servers)
    }

    func options() -> DoctorOptions {
        var options = DoctorOptions()
        options.targets = targets
        options.domains = (try? ParsedArguments.domains(domains)) ?? []
        options.servers = (try? ParsedArguments.servers(servers)) ?? []
        options.local = !noLocal
        options.pin = pin.flatMap(TLSFingerprint.init(normalizing:))
        options.timeout = timeout?.duration ?? .seconds(5)
        options.only = checks.isEmpty ? nil : Set(checks)
        return options
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        terminal.progress("checking this machine and discovering Gateways …")
        let report = await Doctor.run(options(), system: LiveSystem(configPath: configPath))
        terminal.clearProgress()
        if format == .json {
            terminal.out(try JSONOutput.pretty(report))
        } else {
            DoctorTable.print(report, terminal: terminal)
        }
        if report.status == .fail { throw Exit.failure }
    }
}

/// doctor's human output: marks, messages, fix lines, then the diagnosis.
enum DoctorTable {
    static func print(_ report: DoctorReport, terminal: Terminal) {
        terminal.out(terminal.paint("This machine", .bold))
        report.checks.forEach { line($0, terminal) }
        for gateway in report.gateways {
            var heading = "Gateway \(gateway.target)"
            if let beacon = gateway.beacon {
                heading += " (\(beacon.instance.displayName), \(beacon.sources.sorted().map(\.rawValue).joined(separator: "+")))"
            }
            terminal.out("")
            terminal.out(terminal.paint(heading, .bold))
            collapsed(gateway.checks).forEach { line($0, terminal) }
        }
        if !report.diagnosis.isEmpty {
            terminal.out("")
            terminal.out(terminal.paint("Diagnosis", .bold))
            for (index, diagnosis) in report.diagnosis.enumerated() {
                terminal.out("  \(index + 1). \(diagnosis.cause)")
                terminal.out("     fix: \(diagnosis.fix)")
            }
        }
        let all = report.checks + report.gateways.flatMap(\.checks)
        let failures = all.filter { $0.status == .fail }.count, warnings = all.filter { $0.status == .warn }.count
        let seconds = Duration.milliseconds(report.elapsedMs).secondsText
        let summary = "doctor: \(failures) failure\(failures == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"), \(report.gateways.count) Gateway\(report.gateways.count == 1 ? "" : "s") checked (\(seconds) s)"
        terminal.out("")
        terminal.out(terminal.paint(summary, failures > 0 ? .red : warnings > 0 ? .yellow : .green))
    }

    /// Runs of skipped checks with the same reason ("needs a TCP connection") as one line,
    /// `gw.tls..gw.protocol`: the table shows what ran, the JSON keeps every check.
    static func collapsed(_ checks: [Check]) -> [Check] {
        var result: [Check] = []
        var run: [Check] = []
        func flush() {
            if run.count > 2, var first = run.first {
                first = Check("\(first.id)..\(run.last!.id)", .skip, first.message)
                result.append(first)
            } else {
                result += run
            }
            run = []
        }
        for check in checks {
            if check.status == .skip, let first = run.first, first.message != check.message { flush() }
            if check.status == .skip { run.append(check) } else { flush(); result.append(check) }
        }
        flush()
        return result
    }

    static func line(_ check: Check, _ terminal: Terminal) {
        let mark = switch check.status {
        case .pass: terminal.paint("PASS", .green)
        case .warn: terminal.paint("WARN", .yellow)
        case .fail: terminal.paint("FAIL", .red)
        case .skip: terminal.paint("SKIP", .dim)
        }
        terminal.out("  \(mark)  \(check.id.padding(20)) \(check.message)")
        if let fix = check.fix, check.status == .warn || check.status == .fail {
            terminal.out("        \(String().padding(20)) fix: \(fix)")
        }
    }
}
