import ArgumentParser
import DNSSD
import Discovery
import FoundationEssentials
import Host
import Zones

/// Where the Gateways of a zone come from (combine them): `--gateway` specs, an `--inventory`
/// that `browse --format json` saved, `--from-browse` (browse now), `--this-host`.
struct GatewaySources: ParsableArguments {
    @Option(
        name: .customLong("gateway"), help: ArgumentHelp("A Gateway to publish (repeatable); see above.", valueName: "SPEC"),
        transform: Arguments.gateway)
    var gateways: [ZoneGateway] = []

    @Option(help: ArgumentHelp("A clawnet.browse.v1 JSON file (browse --format json) whose Gateways to publish.", valueName: "FILE"))
    var inventory: String?

    @Flag(name: .customLong("from-browse"), help: "Browse now (mDNS, plus --browse-domain/--manual) and publish what is found.")
    var fromBrowse = false

    @Flag(
        name: .customLong("this-host"),
        help: "Publish this machine's Gateway: hostname, Tailscale addresses, port and TLS from the OpenClaw config.")
    var thisHost = false

    @Option(
        name: .customLong("browse-domain"),
        help: ArgumentHelp("With --from-browse: also browse this wide-area domain (repeatable).", valueName: "DOMAIN"),
        transform: Arguments.domain)
    var browseDomains: [DomainName] = []

    @Flag(name: .customLong("no-local"), help: "With --from-browse: do not browse local.")
    var noLocal = false

    @Flag(
        name: .customLong("tailnet-only"),
        help: "With --from-browse: publish only Tailscale addresses (100.64.0.0/10, fd7a:115c:a1e0::/48), never LAN ones.")
    var tailnetOnly = false

    @Option(
        name: .customLong("manual"),
        help: ArgumentHelp("With --from-browse: a Gateway given by hand (repeatable).", valueName: "HOST[:PORT]"),
        transform: Arguments.endpoint)
    var manual: [EndpointSpec] = []

    @Option(
        name: .customLong("config"), help: ArgumentHelp("OpenClaw config to read (default ~/.openclaw/openclaw.json).", valueName: "PATH"))
    var configPath: String?

    func validate() throws {
        guard !gateways.isEmpty || inventory != nil || fromBrowse || thisHost else {
            throw ValidationError("say what to publish: --gateway, --inventory, --from-browse or --this-host")
        }
        if tailnetOnly && !fromBrowse {
            throw ValidationError("--tailnet-only filters what --from-browse finds; give --from-browse too")
        }
    }

    /// Every Gateway the sources name for a zone of `domain`, with notes for the operator
    /// (skipped beacons, browse errors, Gateways that did not answer) and, for each source that
    /// lists what exists (--inventory, --from-browse), what it gave and what failed: a command
    /// removes Gateways only as `GatheredGateways.removalRefusal` allows. Browsed Gateways that
    /// cannot be written are skipped with a note; the ones the operator gave (--gateway,
    /// --this-host) are checked when the zone is written. `browseServers` and `browseTimeout`
    /// go with --from-browse; each command names them its own way (`zone push` has a --server
    /// of its own).
    func gather(
        domain: DomainName, config: OpenClawConfig, environment: [String: String], interfaces: [NetworkInterface],
        browseServers: [DNSServer], browseTimeout: Duration
    ) async throws -> GatheredGateways {
        var gathered = GatheredGateways()
        gathered.add(named: gateways)
        if let inventory {
            do {
                gathered.add(try Inventory.gateways(atPath: inventory, domain: domain), from: "--inventory \(inventory)")
            } catch {
                throw ZoneError("--inventory \(inventory): \(error)")
            }
        }
        if fromBrowse {
            let yield = await browse(domain: domain, config: config, interfaces: interfaces, servers: browseServers, timeout: browseTimeout)
            gathered.add(yield, from: "--from-browse")
        }
        if thisHost {
            let (gateway, hostNotes) = try ThisHost.gateway(config: config, environment: environment, interfaces: interfaces)
            gathered.add(named: [gateway], notes: hostNotes)
        }
        return gathered
    }

    /// What browse would find with the same flags, as zone Gateways; the time browsing leaves
    /// of --timeout (at most 2 s) goes to checking that they answer. Every error of a path it
    /// asked, and a browse cut short by the time, is a failure.
    private func browse(
        domain: DomainName, config: OpenClawConfig, interfaces: [NetworkInterface], servers: [DNSServer], timeout budget: Duration
    ) async -> GatewayYield {
        var options = DiscoveryOptions()
        options.local = !noLocal
        options.domains = browseDomains
        options.servers = servers
        options.manual = manual
        options.configuredDomain = false
        let request = DiscoveryRequest(options, config: config, interfaces: interfaces)
        let snapshot = await DiscoverySession.snapshot(request, timeout: budget)
        var yield = await BrowseMirror.gateways(
            from: snapshot.beacons, domain: domain, tailnetOnly: tailnetOnly, connectTimeout: min(budget - snapshot.elapsed, .seconds(2)))
        yield.failures = snapshot.issues.map { "browse: \($0.message)" }
        if snapshot.timedOut {
            yield.failures.append("browse: stopped at the \(budget.argumentText) timeout before every path reported all it knows")
        }
        return yield
    }
}
