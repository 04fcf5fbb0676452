import ArgumentParser
import DNSSD
import FoundationEssentials
import Host
import Output
import Zones

struct ZoneGenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write the DNS-SD zone (and optionally the CoreDNS stanza) for a wide-area domain.",
        discussion: """
            Sources (combine them): --gateway SPEC (repeatable), --inventory FILE (what \
            `clawnet browse --format json` printed), --from-browse (browse now and mirror what \
            is found: LAN mDNS to a wide-area zone), --this-host (this machine as OpenClaw \
            would publish it). Instance names from a browse are kept, so nodes see the same \
            Gateway name on the LAN and across the tailnet; without one, OpenClaw's rule \
            (<hostname>-gateway) applies.

            --gateway takes \(GatewaySpec.help).

            Without --out the zone goes to stdout. With --out the file is written atomically, \
            and only when its content (serial aside) changed: then the SOA serial moves to \
            YYYYMMDDnn (UTC) and never goes down. --corefile writes the CoreDNS server block \
            that serves the file (needs --out) and prints the next steps for Tailscale split DNS.

            \(ExitStatus.helpText)
            """
    )

    @Option(
        help: ArgumentHelp("The wide-area domain of the zone, e.g. openclaw.internal.", valueName: "DOMAIN"), transform: Arguments.domain)
    var domain: DomainName

    @OptionGroup var sources: GatewaySources

    @Option(
        name: .customLong("ns-address"),
        help: ArgumentHelp(
            "Address of ns1, the zone's name server (repeatable; default: this machine's Tailscale addresses).", valueName: "IP"),
        transform: Arguments.address)
    var nsAddresses: [IPAddress] = []

    @Option(help: ArgumentHelp("Write the zone here (atomically; untouched when nothing changed).", valueName: "FILE"))
    var out: String?

    @Option(help: ArgumentHelp("Also write the CoreDNS stanza for the zone here (needs --out).", valueName: "FILE"))
    var corefile: String?

    @Option(
        name: .customLong("bind"),
        help: ArgumentHelp("Addresses CoreDNS listens on (repeatable; default: this machine's Tailscale addresses).", valueName: "IP"),
        transform: Arguments.address)
    var bindAddresses: [IPAddress] = []

    @Flag(
        name: .customLong("browse-records"),
        help: "Add the RFC 6763 browse records (b, lb, _services._dns-sd._udp); OpenClaw does not use them.")
    var browseRecords = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if corefile != nil && out == nil {
            throw ValidationError("--corefile needs --out: the stanza names the zone file's path")
        }
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        let environment = ProcessInfo.processInfo.environment
        let config = OpenClawConfig.load(explicitPath: sources.configPath, environment: environment)
        config.warnings.forEach { terminal.err("warning: \($0)") }
        let interfaces = NetworkInterface.current()
        let tailscale = NetworkInterface.tailscaleAddresses(interfaces).map(\.withoutZone)

        let (zoneGateways, gatheredNotes) = try await sources.gather(config: config, environment: environment, interfaces: interfaces)
        let nameServers = nsAddresses.isEmpty ? tailscale : nsAddresses
        let content = ZoneContent(domain: domain, gateways: zoneGateways, nameServerAddresses: nameServers, browseRecords: browseRecords)
        var notes = gatheredNotes
        let today = SerialPolicy.Day(unixSeconds: Int64(Date().timeIntervalSince1970))
        do {
            guard let out else {
                let rendered = try ZoneWriter.render(content, serial: SerialPolicy.next(after: nil, today: today))
                (notes + rendered.notes).forEach { terminal.err("note: \($0)") }
                terminal.out(linesOf: rendered.text)
                return
            }
            let path = Self.absolute(out)
            let outcome = try ZoneFileUpdate.write(content, to: path, today: today)
            notes += outcome.notes
            notes.forEach { terminal.err("note: \($0)") }
            let count = Set(content.gateways.map(\.instance)).count
            terminal.out(
                outcome.changed
                    ? "wrote \(path) (serial \(outcome.serial)\(outcome.previousSerial.map { ", was \($0)" } ?? ""); \(count) "
                        + "Gateway\(count == 1 ? "" : "s"))"
                    : "unchanged: \(path) (serial \(outcome.serial)); nothing written")
            if let corefile {
                try writeCorefile(corefile, zonePath: path, tailscale: tailscale, terminal: terminal)
            }
        } catch let error as ZoneError {
            terminal.err(terminal.paint("error", .red, stderr: true) + ": \(error.message)")
            if let fix = error.fix { terminal.err("  fix: \(fix)") }
            throw ExitStatus.failure.code
        } catch let error as AtomicFile.Failure {
            terminal.err(terminal.paint("error", .red, stderr: true) + ": \(error.description)")
            throw ExitStatus.failure.code
        }
    }

    private func writeCorefile(_ corefile: String, zonePath: String, tailscale: [IPAddress], terminal: Terminal) throws {
        let bind = bindAddresses.isEmpty ? tailscale : bindAddresses
        guard !bind.isEmpty else {
            throw ZoneError("no address for CoreDNS to listen on", fix: "give --bind IP (this machine has no Tailscale address)")
        }
        let path = Self.absolute(corefile)
        let stanza = CorefileWriter.stanza(domain: domain, bind: bind, zonePath: zonePath)
        if AtomicFile.read(path) == stanza {
            terminal.out("unchanged: \(path)")
        } else {
            try AtomicFile.write(stanza, to: path)
            terminal.out("wrote \(path)")
        }
        terminal.err(linesOf: CorefileWriter.nextSteps(domain: domain, bind: bind, corefilePath: path, zonePath: zonePath))
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
