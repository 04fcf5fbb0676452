import ArgumentParser
import DNSSD
import Discovery
import FoundationEssentials
import Zones

/// The Gateways to publish, as `zone generate` and `zone push` both take them: --gateway,
/// --inventory, --from-browse (with what to browse), --this-host.
struct GatewaySources: ParsableArguments {
    @Option(name: .customLong("gateway"), help: ArgumentHelp("A Gateway to publish (repeatable); see above.", valueName: "SPEC"))
    var gateways: [String] = []

    @Option(help: ArgumentHelp("A clawnet.browse.v1 JSON file (browse --format json) whose Gateways to publish.", valueName: "FILE"))
    var inventory: String?

    @Flag(name: .customLong("from-browse"), help: "Browse now (mDNS, plus --browse-domain/--manual) and publish what is found.")
    var fromBrowse = false

    @Flag(name: .customLong("this-host"), help: "Publish this machine's Gateway: hostname, Tailscale addresses, port and TLS from the OpenClaw config.")
    var thisHost = false

    @Option(name: .customLong("browse-domain"), help: ArgumentHelp("With --from-browse: also browse this wide-area domain (repeatable).", valueName: "DOMAIN"))
    var browseDomains: [String] = []

    @Flag(name: .customLong("no-local"), help: "With --from-browse: do not browse local.")
    var noLocal = false

    @Option(name: .customLong("manual"), help: ArgumentHelp("With --from-browse: a Gateway given by hand (repeatable).", valueName: "HOST[:PORT]"))
    var manual: [String] = []

    @Option(name: .customLong("config"), help: ArgumentHelp("OpenClaw config to read (default ~/.openclaw/openclaw.json).", valueName: "PATH"))
    var configPath: String?

    func validate() throws {
        guard !gateways.isEmpty || inventory != nil || fromBrowse || thisHost else {
            throw ValidationError("say what to publish: --gateway, --inventory, --from-browse or --this-host")
        }
        for spec in gateways {
            do { _ = try GatewaySpec.parse(spec) } catch { throw ValidationError("--gateway \(spec): \(error.message)") }
        }
        _ = try ParsedArguments.endpoints(manual)
        _ = try ParsedArguments.domains(browseDomains, flag: "--browse-domain")
    }

    /// Every Gateway the sources name, and notes about what was skipped or assumed.
    /// `browseServers` and `browseTimeout` go with --from-browse.
    func gather(config: OpenClawConfig, browseServers: [DNSServer], browseTimeout: Duration, terminal: Terminal) async throws -> [ZoneGateway] {
        var found = try gateways.map { try GatewaySpec.parse($0) }
        var notes: [String] = []
        if let inventory {
            let (gateways, inventoryNotes) = try Self.readInventory(inventory)
            found += gateways
            notes += inventoryNotes
        }
        if fromBrowse {
            let (gateways, browseNotes) = await browse(config: config, servers: browseServers, timeout: browseTimeout)
            found += gateways
            notes += browseNotes
        }
        if thisHost {
            let environment = ProcessInfo.processInfo.environment
            let (gateway, hostNotes) = try ThisHost.gateway(config: config, environment: environment, interfaces: NetworkInterface.current())
            found.append(gateway)
            notes += hostNotes
        }
        notes.forEach { terminal.err("note: \($0)") }
        return found
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

    private func browse(config: OpenClawConfig, servers: [DNSServer], timeout: Duration) async -> ([ZoneGateway], [String]) {
        var request = DiscoveryRequest()
        request.local = !noLocal
        request.domains = browseDomains.compactMap { try? DomainName(validating: $0) }
        request.unicast.servers = servers
        request.manual = manual.compactMap { try? Endpoint.parse($0, defaultPort: config.gatewayPort ?? Endpoint.defaultGatewayPort) }
        var collection = BeaconCollection()
        for await tick in DiscoverySession.events(request).until(timeout) {
            guard case .element(let event) = tick else { break }
            collection.apply(event)
            if event == .allForNow { break }
        }
        var (found, notes) = Self.gateways(from: collection.beacons)
        notes += collection.errors.map { "browse: \($0.message)" }
        return (found, notes)
    }
}
