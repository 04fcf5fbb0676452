import ArgumentParser
import DNSSD
import Host
import Zones

/// Where the Gateways of a zone come from (combine them): `--gateway` specs, an `--inventory`
/// that `browse --format json` saved, `--from-browse` (browse now), `--this-host`. The flags of
/// `zone generate` and `zone push`; `GatewayCollector` gathers what they name.
struct GatewaySourceOptions: ParsableArguments {
    @Option(
        name: .customLong("gateway"),
        help: ArgumentHelp("A Gateway to publish: host=LABEL,ip=ADDR at least (repeatable); see above.", valueName: "SPEC"),
        transform: Arguments.gateway)
    var gateways: [ZoneGateway] = []

    @Option(
        help: ArgumentHelp(
            "A clawnet.browse.v1 JSON file (browse --format json; - reads standard input) whose Gateways to publish.", valueName: "FILE"),
        completion: .file(), transform: Arguments.inputPath)
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

    @OptionGroup var noLocalFlag: NoLocalFlag<Words>

    @Flag(
        name: .customLong("tailnet-only"),
        help: "With --from-browse: publish only Tailscale addresses (100.64.0.0/10, fd7a:115c:a1e0::/48), never LAN ones.")
    var tailnetOnly = false

    @OptionGroup var manualOption: ManualOption<Words>

    @OptionGroup var config: ConfigOption<Words>

    /// How the zone commands word the source options they share with browse.
    enum Words: NoLocalWording, ManualWording, ConfigWording {
        static let noLocalHelp = "With --from-browse: do not browse local."
        static let manualHelp = "With --from-browse: a Gateway given by hand (repeatable)."
    }

    func validate() throws {
        if tailnetOnly && !fromBrowse {
            throw ValidationError("--tailnet-only filters what --from-browse finds; give --from-browse too")
        }
        if !manualOption.manual.isEmpty && !fromBrowse {
            throw ValidationError(
                "--manual adds a Gateway for --from-browse to probe; give --from-browse too, or name it yourself: "
                    + "--gateway host=LABEL,ip=ADDR")
        }
        if noLocalFlag.noLocal && !fromBrowse {
            throw ValidationError("--no-local changes what --from-browse browses; give --from-browse too")
        }
        guard !gateways.isEmpty || inventory != nil || fromBrowse || thisHost else {
            throw ValidationError("say what to publish: --gateway, --inventory, --from-browse or --this-host")
        }
    }

    /// The sources, with --from-browse's DNS servers and time (each zone command names them
    /// its own way: `zone push` has a --server of its own).
    func sources(browseServers: [DNSServer], browseTimeout: Duration) -> GatewaySources {
        var sources = GatewaySources()
        sources.named = gateways
        sources.inventory = inventory
        sources.thisHost = thisHost
        if fromBrowse {
            var browse = GatewaySources.Browse()
            browse.local = !noLocalFlag.noLocal
            browse.domains = browseDomains
            browse.servers = browseServers
            browse.manual = manualOption.manual
            browse.tailnetOnly = tailnetOnly
            browse.timeout = browseTimeout
            sources.browse = browse
        }
        return sources
    }

    /// The collector for these sources: the context's discovery and environment, the config
    /// and interfaces the command read.
    static func collector(_ context: CommandContext, config: OpenClawConfig, interfaces: [NetworkInterface]) -> GatewayCollector {
        GatewayCollector(
            discovery: context.discovery, config: config, environment: context.environment, interfaces: interfaces,
            hostName: context.machine.hostName())
    }
}
