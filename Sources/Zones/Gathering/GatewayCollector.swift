import DNSSD
import Discovery
import Host

/// Where the Gateways of a zone come from, combined: Gateways named one by one (`--gateway`),
/// an inventory that `browse --format json` saved, a browse now, this machine's own Gateway.
package struct GatewaySources: Sendable {
    /// `--from-browse`: what browse would find with these paths, as zone Gateways.
    package struct Browse: Sendable {
        package var local = true
        package var domains: [DomainName] = []
        package var servers: [DNSServer] = []
        package var manual: [EndpointSpec] = []
        /// Only Tailscale addresses are published, never LAN ones.
        package var tailnetOnly = false
        /// How long browsing and checking that the Gateways answer may take, together.
        package var timeout: Duration = .seconds(5)

        package init() {}
    }

    package var named: [ZoneGateway] = []
    package var inventory: String?
    package var browse: Browse?
    package var thisHost = false

    package init() {}

    package var isEmpty: Bool { named.isEmpty && inventory == nil && browse == nil && !thisHost }
}

/// The one collector of Gateways for `zone generate` and `zone push`: every source asked, what
/// each gave and what failed, so that a command removes Gateways only as
/// `GatheredGateways.removalRefusal` allows.
package struct GatewayCollector: Sendable {
    package let discovery: any Discovering
    package let config: OpenClawConfig
    package let environment: [String: String]
    package let interfaces: [NetworkInterface]
    package let hostName: String

    package init(
        discovery: any Discovering, config: OpenClawConfig, environment: [String: String], interfaces: [NetworkInterface], hostName: String
    ) {
        self.discovery = discovery
        self.config = config
        self.environment = environment
        self.interfaces = interfaces
        self.hostName = hostName
    }

    /// Every Gateway the sources name for a zone of `domain`, with notes for the operator
    /// (skipped beacons, browse errors, Gateways that did not answer). Browsed Gateways that
    /// cannot be written are skipped with a note; the ones the operator gave (--gateway,
    /// --this-host) are checked when the zone is written.
    package func gather(_ sources: GatewaySources, domain: DomainName) async throws -> GatheredGateways {
        var gathered = GatheredGateways()
        gathered.add(named: sources.named)
        if let inventory = sources.inventory {
            do {
                gathered.add(try Inventory.gateways(atPath: inventory, domain: domain), from: .inventory(path: inventory))
            } catch {
                throw ZoneError(.inventoryUnusable(path: inventory, reason: error.description))
            }
        }
        if let browse = sources.browse {
            gathered.add(await self.browse(browse, domain: domain), from: .browse)
        }
        if sources.thisHost {
            let (gateway, hostNotes) = try ThisHost.gateway(
                config: config, environment: environment, interfaces: interfaces, hostName: hostName)
            gathered.add(named: [gateway], notes: hostNotes)
        }
        return gathered
    }

    /// What browse would find with the same flags, as zone Gateways; the time browsing leaves
    /// of the timeout (at most 2 s) goes to checking that they answer. Every error of a path it
    /// asked, and a browse cut short by the time, is a failure. The zone's own domain is not
    /// browsed unless named: it is what is being written.
    func browse(_ browse: GatewaySources.Browse, domain: DomainName) async -> GatewayYield {
        var options = DiscoveryOptions()
        options.local = browse.local
        options.domains = browse.domains
        options.servers = browse.servers
        options.manual = browse.manual
        options.configuredDomain = false
        let request = DiscoveryRequest(options, config: config, interfaces: interfaces)
        let snapshot = await discovery.snapshot(request, timeout: browse.timeout)
        var yield = await BrowseMirror.gateways(
            from: snapshot.beacons, domain: domain, tailnetOnly: browse.tailnetOnly,
            connectTimeout: min(browse.timeout - snapshot.elapsed, Self.answerCheckLimit))
        yield.failures = snapshot.issues.map(SourceFailure.browse)
        if snapshot.timedOut { yield.failures.append(.browseTimedOut(browse.timeout)) }
        return yield
    }

    /// The longest the TCP check of browsed Gateways takes: one short connect each, in parallel.
    static let answerCheckLimit = Duration.seconds(2)
}
