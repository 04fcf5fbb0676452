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

            Examples:

                clawnet zone generate --domain openclaw.internal --ns-address 100.101.102.103 \\
                    --gateway 'host=studio,ip=100.101.102.103,name=Studio (OpenClaw)'
                clawnet zone generate --domain openclaw.internal --from-browse \\
                    --out /etc/coredns/openclaw.internal.db --corefile /etc/coredns/Corefile
                clawnet zone generate --domain openclaw.internal --inventory fleet.json \\
                    --ns-address 100.101.102.103 | clawnet zone check -

            \(Exit.status(
                (Exit.success, "the zone was written (or is unchanged), or printed"),
                (Exit.failure, "the zone cannot be made (a PTR set over one DNS message) or written")))
            """
    )

    @Option(help: ArgumentHelp("The wide-area domain of the zone, e.g. openclaw.internal.", valueName: "DOMAIN"))
    var domain: String

    @Option(name: .customLong("gateway"), help: ArgumentHelp("A Gateway to publish (repeatable); see above.", valueName: "SPEC"))
    var gateways: [String] = []

    @Option(help: ArgumentHelp("A clawnet.browse.v1 JSON file (browse --format json) whose Gateways to publish.", valueName: "FILE"))
    var inventory: String?

    @Flag(name: .customLong("from-browse"), help: "Browse now (mDNS, plus --browse-domain/--manual) and publish what is found.")
    var fromBrowse = false

    @Flag(name: .customLong("this-host"), help: "Publish this machine's Gateway: hostname, Tailscale addresses, port and TLS from the OpenClaw config.")
    var thisHost = false

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

    @Option(name: .customLong("browse-domain"), help: ArgumentHelp("With --from-browse: also browse this wide-area domain (repeatable).", valueName: "DOMAIN"))
    var browseDomains: [String] = []

    @Option(name: .customLong("server"), help: ArgumentHelp("With --from-browse: DNS server for --browse-domain.", valueName: "HOST[:PORT]"))
    var servers: [String] = []

    @Flag(name: .customLong("no-local"), help: "With --from-browse: do not browse local.")
    var noLocal = false

    @Option(name: .customLong("manual"), help: ArgumentHelp("With --from-browse: a Gateway given by hand (repeatable).", valueName: "HOST[:PORT]"))
    var manual: [String] = []

    @Option(help: ArgumentHelp("With --from-browse: how long to browse at most (default 5s).", valueName: "DURATION"))
    var timeout: DurationArgument?

    @Option(name: .customLong("config"), help: ArgumentHelp("OpenClaw config to read (default ~/.openclaw/openclaw.json).", valueName: "PATH"))
    var configPath: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        do { _ = try DomainName(validating: domain) } catch { throw ValidationError("--domain \(domain): \(error.message)") }
        guard !gateways.isEmpty || inventory != nil || fromBrowse || thisHost else {
            throw ValidationError("say what to publish: --gateway, --inventory, --from-browse or --this-host")
        }
        for spec in gateways {
            do { _ = try GatewaySpec.parse(spec) } catch { throw ValidationError("--gateway \(spec): \(error.message)") }
        }
        for address in nsAddresses + bindAddresses where IPAddress(address) == nil {
            throw ValidationError("'\(address)' is not an IP address")
        }
        if corefile != nil && out == nil {
            throw ValidationError("--corefile needs --out: the stanza names the zone file's path")
        }
        _ = try ParsedArguments.servers(servers)
        _ = try ParsedArguments.endpoints(manual)
        _ = try ParsedArguments.domains(browseDomains, flag: "--browse-domain")
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        let environment = ProcessInfo.processInfo.environment
        let config = OpenClawConfig.load(explicitPath: configPath, environment: environment)
        config.warnings.forEach { terminal.err("warning: \($0)") }
        let zoneDomain = try DomainName(validating: domain)
        let interfaces = NetworkInterface.current()
        let tailscale = NetworkInterface.tailscaleAddresses(interfaces).map { IPAddress(bytes: $0.bytes)! }

        var zoneGateways = try gateways.map { try GatewaySpec.parse($0) }
        var notes: [String] = []
        if let inventory {
            let (found, inventoryNotes) = try Self.readInventory(inventory)
            zoneGateways += found
            notes += inventoryNotes
        }
        if fromBrowse {
            let (found, browseNotes) = await browse(config: config)
            zoneGateways += found
            notes += browseNotes
        }
        if thisHost {
            let (gateway, hostNotes) = try ThisHost.gateway(config: config, environment: environment, interfaces: interfaces)
            zoneGateways.append(gateway)
            notes += hostNotes
        }

        let nameServers = nsAddresses.isEmpty ? tailscale : nsAddresses.compactMap(IPAddress.init)
        let content = ZoneContent(domain: zoneDomain, gateways: zoneGateways, nameServerAddresses: nameServers, browseRecords: browseRecords)
        let today = SerialPolicy.Day(unixSeconds: Int64(Date().timeIntervalSince1970))
        do {
            guard let out else {
                let rendered = try ZoneWriter.render(content, serial: SerialPolicy.next(after: nil, today: today))
                (notes + rendered.notes).forEach { terminal.err("note: \($0)") }
                terminal.out(String(rendered.text.dropLast()))
                return
            }
            let path = Self.absolute(out)
            let outcome = try ZoneFileUpdate.write(content, to: path, today: today)
            (notes + outcome.notes).forEach { terminal.err("note: \($0)") }
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

    static func readInventory(_ path: String) throws -> ([ZoneGateway], [String]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--inventory \(path): cannot read the file")
        }
        let report: BrowseReport
        do {
            report = try JSONDecoder().decode(BrowseReport.self, from: data)
        } catch {
            throw ValidationError("--inventory \(path): not a clawnet.browse.v1 document (\(error))")
        }
        guard report.schema == BrowseReport.schemaName else {
            throw ValidationError("--inventory \(path): schema is '\(report.schema)', expected \(BrowseReport.schemaName)")
        }
        return gateways(from: report.beacons)
    }

    static func gateways(from beacons: [GatewayBeacon]) -> ([ZoneGateway], [String]) {
        var result: [ZoneGateway] = []
        var notes: [String] = []
        for beacon in beacons {
            let (gateway, note) = ZoneGateway.from(beacon)
            if let gateway { result.append(gateway) }
            if let note { notes.append(note) }
        }
        return (result, notes)
    }

    private func browse(config: OpenClawConfig) async -> ([ZoneGateway], [String]) {
        var request = DiscoveryRequest()
        request.local = !noLocal
        request.domains = browseDomains.compactMap { try? DomainName(validating: $0) }
        request.unicast.servers = servers.compactMap { try? DNSServer(parsing: $0) }
        request.manual = manual.compactMap { try? Endpoint.parse($0, defaultPort: config.gatewayPort ?? Endpoint.defaultGatewayPort) }
        var collection = BeaconCollection()
        for await tick in DiscoverySession.events(request).until(timeout?.duration ?? .seconds(5)) {
            guard case .element(let event) = tick else { break }
            collection.apply(event)
            if event == .allForNow { break }
        }
        var (found, notes) = Self.gateways(from: collection.beacons)
        notes += collection.errors.map { "browse: \($0.message)" }
        return (found, notes)
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
