import ArgumentParser
import DNSSD
import Discovery
import Doctor
import FoundationEssentials
import Host
import Output
import Probes
import Zones

struct DoctorCommand: ClawnetCommand {
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
            first frame, connect.challenge), gw.connect (the connect request OpenClaw's own probe \
            sends, and the Gateway's answer: hello-ok, pairing required, a token refused, a \
            protocol mismatch...). Then a diagnosis names the cause of every failure (a Gateway \
            bound to loopback, split DNS not applied, a rotated certificate, multicast blocked...).

            TARGET is a URL (wss://host:port), HOST[:PORT] or an instance name from `clawnet \
            browse`. Without targets: on a node (gateway.mode "remote"), gateway.remote.url with \
            its tlsFingerprint as the pin and its token; elsewhere everything discovered, plus \
            127.0.0.1 on the configured port (18789). With targets, machine findings they do not \
            depend on are warnings.

            By default the connect request carries no device identity, so it leaves nothing on the \
            Gateway (no pairing request, no stored device). A token goes only to the Gateway it \
            belongs to, and is never printed. --as-device FILE signs the request with the node's \
            identity (~/.openclaw/identity/device.json) as a node does: an unpaired device then \
            becomes a pairing request on the Gateway.

            Credentials (the token, the device's signature) go only on a connection whose peer is \
            verified on that very connection, before anything is sent on it: its certificate \
            matches the pin (--pin, gateway.remote.tlsFingerprint), or a CA this machine trusts \
            issued it for the host (SSL_CERT_FILE names another CA bundle), or it is a listener on \
            this machine run by root or by the user the credentials belong to; plain ws:// only to \
            private addresses, .local and *.ts.net names, as OpenClaw's clients do. Otherwise the \
            connect request goes without them, and gw.connect says why and which fingerprint to \
            pin. A token, TSIG key or identity file that group or others can read gets a warning.

            When a verified Gateway is missing from the wide-area domain, or published there with \
            other facts, doctor prints the zone records to add (--emit-zone FILE writes them as a \
            fragment that `clawnet zone check` accepts).

            Check ids: \(CheckID.all.map(\.rawValue).joined(separator: ", ")).

            Examples:

                clawnet doctor
                clawnet doctor wss://studio.local:18789 --timeout 10s
                clawnet doctor --check gw.tls studio.local
                clawnet doctor --format json | jq -r '.diagnosis[].fix'

            \(ExitStatus.status((.success, "nothing failed (warnings allowed)"), (.failure, "a check failed")))
            """
    )

    @OptionGroup var targetArguments: TargetsArgument

    @OptionGroup var domainOption: DomainsOption<Words>

    @OptionGroup var serverOption: ServersOption<Words>

    @OptionGroup var noLocalFlag: NoLocalFlag<Words>

    @OptionGroup var manualOption: ManualOption<Words>

    @OptionGroup var pinOption: PinOption<Words>

    @OptionGroup var timeout: TimeoutOption<Words>

    @Option(
        name: .customLong("check"), help: ArgumentHelp("Run only this check (and what it needs); repeatable.", valueName: "ID"),
        completion: .list(CheckID.all.map(\.rawValue)), transform: Arguments.check)
    var checks: [CheckID] = []

    @OptionGroup var format: FormatOptions<Words>

    @Flag(
        name: .customLong("all"),
        help: ArgumentHelp(
            "List every check of the machine and of each Gateway, passes and skips too (the default: failures and warnings, "
                + "one line per Gateway, Gateways that fail the same way together)."))
    var all = false

    @OptionGroup var tokenFile: TokenFileOption<Words>

    @Option(
        name: .customLong("as-device"),
        help: ArgumentHelp(
            "Sign the connect request with this device identity (a node's ~/.openclaw/identity/device.json); an unpaired device "
                + "becomes a pairing request on the Gateway. - reads it from standard input; a pipe is read too.", valueName: "FILE"),
        completion: .file(), transform: Arguments.inputPath)
    var deviceFile: String?

    @Option(
        name: .customLong("emit-zone"),
        help: ArgumentHelp(
            "Write the zone snippets as a fragment to this file (atomically; a new path or a regular file).", valueName: "FILE"),
        completion: .file(), transform: Arguments.outputPath)
    var emitZone: String?

    @Option(
        name: .customLong("origin"),
        help: ArgumentHelp(
            "Open the WebSockets as a browser page at this origin would (https://host[:port]), to check "
                + "gateway.controlUi.allowedOrigins.", valueName: "ORIGIN"),
        transform: Arguments.origin)
    var origin: BrowserOrigin?

    @OptionGroup var config: ConfigOption<Words>

    @OptionGroup var global: GlobalOptions

    /// How doctor words the options it shares.
    enum Words: DomainsWording, ServersWording, NoLocalWording, ManualWording, PinWording, TimeoutWording, FormatWording,
        TokenFileWording, ConfigWording
    {
        typealias Format = ReportFormat
        static let domainsHelp = "A wide-area domain to check (repeatable; default: the configured one)."
        static let serversHelp = "A DNS server for the wide-area domains instead of the system's (repeatable)."
        static let noLocalHelp = "Do not browse local. by mDNS."
        static let manualHelp = "A Gateway given by hand, HOST[:PORT] or a ws(s):// URL: the same as a TARGET (repeatable)."
        static let pinHelp = "The certificate fingerprint nodes pinned (SHA-256; 'sha256:' prefixes and colons are fine)."
        static let timeoutHelp =
            "Time for the whole run (default 5s): discovery and look-ups take at most half, the probes the rest (+0.5s to finish)."
        static let defaultTimeout: Duration = .seconds(5)
        static let formatHelp = "table (the default) or json (schema clawnet.doctor.v1)."
        static let tokenFileHelp = "A file whose first line is the Gateway's token, sent to the Gateways named here only."
    }

    var options: DoctorOptions {
        var options = DoctorOptions()
        options.targets = targetArguments.targets + manualOption.manual.map(DoctorTarget.init)
        options.discovery.domains = domainOption.domains
        options.discovery.servers = serverOption.servers
        options.discovery.local = !noLocalFlag.noLocal
        options.noLocal = noLocalFlag.noLocal
        options.pin = pinOption.pin
        options.timeout = timeout.duration
        options.only = checks.isEmpty ? nil : Set(checks)
        options.origin = origin
        // A pipe is read once, for the connect; openclaw.identity looks at files a node reads.
        options.deviceFile = deviceFile.flatMap { RegularFile.isStream($0) ? nil : $0 }
        return options
    }

    /// The machine and each Gateway checked, the report printed (and the snippets written
    /// with --emit-zone); the exit status is the report's.
    func run(_ context: CommandContext) async throws -> ExitStatus {
        let terminal = context.terminal
        var options = self.options
        let system = context.machine.inspector(config.path)
        let openclaw = system.config()
        let paths = DiscoveryPaths.Given(options.discovery, config: openclaw, targets: !options.targets.isEmpty)
        try DiscoveryPaths.requireDomain(paths)
        options.read(environment: context.environment)
        let warnings = try Credentials.load(into: &options, tokenFile: tokenFile.path, deviceFile: deviceFile, config: openclaw)
        let port = openclaw.gatewayPort ?? Endpoint.defaultGatewayPort
        if let note = DiscoveryPaths.note(paths, command: "doctor", port: port) { terminal.err(note) }
        SecretWarnings.print(warnings, to: terminal)
        terminal.progress("checking this machine and discovering Gateways …")
        let columns = context.terminal.columns
        let briefWidth = all ? nil : TextWrap.width(environment: context.environment, terminalColumns: columns)
        let width = TextWrap.terminalWidth(environment: context.environment, terminalColumns: columns)
        let report = DoctorReport(await Doctor.run(options, system: system, io: context.network), briefWidth: briefWidth, width: width)
        terminal.clearProgress()
        try report.print(format.chosen, to: terminal)
        if let emitZone { try ZoneEmitter.write(report.result.snippets, to: emitZone, terminal: terminal) }
        return report.exitStatus
    }
}
