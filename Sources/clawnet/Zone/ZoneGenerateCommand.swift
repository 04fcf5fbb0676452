import ArgumentParser
import DNSSD
import Discovery
import FoundationEssentials
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

            \(Exit.helpText)
            """
    )

    @Option(help: ArgumentHelp("The wide-area domain of the zone, e.g. openclaw.internal.", valueName: "DOMAIN"))
    var domain: String

    @OptionGroup var sources: GatewaySources

    @Option(name: .customLong("ns-address"), help: ArgumentHelp("Address of ns1, the zone's name server (repeatable; default: this machine's Tailscale addresses).", valueName: "IP"))
    var nsAddresses: [String] = []

    @Option(help: ArgumentHelp("Write the zone here (atomically; untouched when nothing changed).", valueName: "FILE"))
    var out: String?

    @Option(help: ArgumentHelp("Also write the CoreDNS stanza for the zone here (needs --out).", valueName: "FILE"))
    var corefile: String?

    @Option(name: .customLong("bind"), help: ArgumentHelp("Addresses CoreDNS listens on (repeatable; default: this machine's Tailscale addresses).", valueName: "IP"))
    var bindAddresses: [String] = []

    @Flag(name: .customLong("browse-records"), help: "Add the RFC 6763 browse records (b, lb, _services._dns-sd._udp); OpenClaw does not use them.")
    var browseRecords = false

    @Option(name: .customLong("server"), help: ArgumentHelp("With --from-browse: DNS server for --browse-domain.", valueName: "HOST[:PORT]"))
    var servers: [String] = []

    @Option(help: ArgumentHelp("With --from-browse: how long to browse at most (default 5s).", valueName: "DURATION"))
    var timeout: DurationArgument?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        do { _ = try DomainName(validating: domain) } catch { throw ValidationError("--domain \(domain): \(error.message)") }
        for address in nsAddresses + bindAddresses where IPAddress(address) == nil {
            throw ValidationError("'\(address)' is not an IP address")
        }
        if corefile != nil && out == nil {
            throw ValidationError("--corefile needs --out: the stanza names the zone file's path")
        }
        _ = try ParsedArguments.servers(servers)
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        let environment = ProcessInfo.processInfo.environment
        let config = OpenClawConfig.load(explicitPath: sources.configPath, environment: environment)
        config.warnings.forEach { terminal.err("warning: \($0)") }
        let zoneDomain = try DomainName(validating: domain)
        let tailscale = NetworkInterface.tailscaleAddresses(NetworkInterface.current()).map { IPAddress(bytes: $0.bytes)! }
        let zoneGateways = try await sources.gather(config: config, browseServers: try ParsedArguments.servers(servers),
                                                    browseTimeout: timeout?.duration ?? .seconds(5), terminal: terminal)

        let nameServers = nsAddresses.isEmpty ? tailscale : nsAddresses.compactMap(IPAddress.init)
        let content = ZoneContent(domain: zoneDomain, gateways: zoneGateways, nameServerAddresses: nameServers, browseRecords: browseRecords)
        let today = SerialPolicy.Day(unixSeconds: Int64(Date().timeIntervalSince1970))
        do {
            guard let out else {
                let rendered = try ZoneWriter.render(content, serial: SerialPolicy.next(after: nil, today: today))
                rendered.notes.forEach { terminal.err("note: \($0)") }
                terminal.out(String(rendered.text.dropLast()))
                return
            }
            let path = Self.absolute(out)
            let outcome = try ZoneFileUpdate.write(content, to: path, today: today)
            outcome.notes.forEach { terminal.err("note: \($0)") }
            let count = Set(content.gateways.map(\.instance)).count
            terminal.out(outcome.changed
                ? "wrote \(path) (serial \(outcome.serial)\(outcome.previousSerial.map { ", was \($0)" } ?? ""); \(count) Gateway\(count == 1 ? "" : "s"))"
                : "unchanged: \(path) (serial \(outcome.serial)); nothing written")
            if let corefile {
                try writeCorefile(corefile, zonePath: path, domain: zoneDomain, tailscale: tailscale, terminal: terminal)
            }
        } catch let error as ZoneError {
            terminal.err(terminal.paint("error", .red, stderr: true) + ": \(error.message)")
            if let fix = error.fix { terminal.err("  fix: \(fix)") }
            throw Exit.failure
        } catch let error as AtomicFile.Failure {
            terminal.err(terminal.paint("error", .red, stderr: true) + ": \(error.description)")
            throw Exit.failure
        }
    }

    private func writeCorefile(_ corefile: String, zonePath: String, domain: DomainName, tailscale: [IPAddress], terminal: Terminal) throws {
        let bind = bindAddresses.isEmpty ? tailscale : bindAddresses.compactMap(IPAddress.init)
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
        terminal.err(CorefileWriter.nextSteps(domain: domain, bind: bind, corefilePath: path, zonePath: zonePath))
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
