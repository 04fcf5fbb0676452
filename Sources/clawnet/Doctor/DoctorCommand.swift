import ArgumentParser
import DNSSD
import Discovery
import Doctor
import FoundationEssentials
import Host
import Output
import Probes
import Zones

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

    @Argument(
        help: ArgumentHelp("Gateways to check: URLs, HOST[:PORT] or instance names.", valueName: "TARGET"), transform: Arguments.target)
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

    @Flag(help: "The same as --format json.")
    var json = false

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp("A file whose first line is the Gateway's token, sent to the Gateways named here only.", valueName: "FILE"))
    var tokenFile: String?

    @Option(
        name: .customLong("as-device"),
        help: ArgumentHelp(
            "Sign the connect request with this device identity (a node's ~/.openclaw/identity/device.json); an unpaired device "
                + "becomes a pairing request on the Gateway.", valueName: "FILE"))
    var deviceFile: String?

    @Option(
        name: .customLong("emit-zone"),
        help: ArgumentHelp(
            "Write the zone snippets as a fragment to this file (atomically; a new path or a regular file).", valueName: "FILE"),
        transform: Arguments.outputPath)
    var emitZone: String?

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
        options.noLocal = noLocal
        options.pin = pin
        options.timeout = timeout ?? .seconds(5)
        options.only = checks.isEmpty ? nil : Set(checks)
        options.deviceFile = deviceFile
        return options
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        var options = self.options
        let system = LiveSystem(configPath: configPath)
        options.read(environment: ProcessInfo.processInfo.environment)
        let warnings = try Credentials.load(into: &options, tokenFile: tokenFile, deviceFile: deviceFile, config: system.config())
        SecretWarnings.print(warnings, to: terminal)
        terminal.progress("checking this machine and discovering Gateways …")
        let report = DoctorReport(await Doctor.run(options, system: system))
        terminal.clearProgress()
        try report.print(json ? .json : format, to: terminal)
        if let emitZone { try ZoneEmitter.write(report.result.snippets, to: emitZone, terminal: terminal) }
        try report.exitStatus.exit()
    }
}
