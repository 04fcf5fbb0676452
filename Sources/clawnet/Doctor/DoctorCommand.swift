import ArgumentParser
import DNSSD
import Discovery
import Doctor
import Output

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

            Check ids: \(CheckID.all.map(\.rawValue).joined(separator: ", ")).

            Exit 0 when nothing failed, 1 when a check failed. \(ExitStatus.helpText)
            """
    )

    @Argument(
        help: ArgumentHelp("Gateways to check: URLs, HOST[:PORT] or instance names.", valueName: "TARGET"), transform: DoctorTarget.init)
    var targets: [DoctorTarget] = []

    @Option(
        name: .customLong("domain"),
        help: ArgumentHelp("A wide-area domain to check (repeatable; default: the configured one).", valueName: "DOMAIN"),
        transform: Arguments.domain)
    var domains: [DomainName] = []

    @Option(
        name: .customLong("server"),
        help: ArgumentHelp("A DNS server for the wide-area domains instead of the system's (repeatable).", valueName: "HOST[:PORT]"),
        transform: Arguments.server)
    var servers: [DNSServer] = []

    @Flag(name: .customLong("no-local"), help: "Do not browse local. by mDNS.")
    var noLocal = false

    @Option(
        help: ArgumentHelp(
            "The certificate fingerprint nodes pinned (SHA-256; 'sha256:' prefixes and colons are fine).", valueName: "SHA256"),
        transform: Arguments.fingerprint)
    var pin: TLSFingerprint?

    @Option(
        help: ArgumentHelp(
            "Time for the whole run (default 5s): discovery and look-ups take at most half, the probes the rest (+0.5s to finish).",
            valueName: "DURATION"),
        transform: Arguments.duration)
    var timeout: Duration?

    @Option(
        name: .customLong("check"), help: ArgumentHelp("Run only this check (and what it needs); repeatable.", valueName: "ID"),
        transform: Arguments.check)
    var checks: [CheckID] = []

    @Option(help: "table or json (schema clawnet.doctor.v1).")
    var format: ReportFormat = .table

    @Option(
        name: .customLong("config"), help: ArgumentHelp("OpenClaw config to read (default ~/.openclaw/openclaw.json).", valueName: "PATH"))
    var configPath: String?

    @OptionGroup var global: GlobalOptions

    var options: DoctorOptions {
        var options = DoctorOptions()
        options.targets = targets
        options.discovery.domains = domains
        options.discovery.servers = servers
        options.discovery.local = !noLocal
        options.pin = pin
        options.timeout = timeout ?? .seconds(5)
        options.only = checks.isEmpty ? nil : Set(checks)
        return options
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        terminal.progress("checking this machine and discovering Gateways …")
        let report = DoctorReport(await Doctor.run(options, system: LiveSystem(configPath: configPath)))
        terminal.clearProgress()
        try report.print(format, to: terminal)
        try report.exitStatus.exit()
    }
}
