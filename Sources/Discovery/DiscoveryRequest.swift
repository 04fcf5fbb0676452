import Avahi
import DNSSD
import Host

/// What a user asked to discover, before the OpenClaw config and this machine fill in the
/// rest: what `browse`, `doctor` and `zone generate --from-browse` take from their flags.
public struct DiscoveryOptions: Sendable {
    public var types: [ServiceType] = [.gateway]
    /// Browse `local.` by mDNS.
    public var local = true
    /// Wide-area domains given on the command line; empty means the configured one, unless
    /// `configuredDomain` is false.
    public var domains: [DomainName] = []
    /// Browse the config's wide-area domain when no domain is given (not when mirroring
    /// into that very domain: `zone generate --from-browse`).
    public var configuredDomain = true
    /// DNS servers for the wide-area domains; empty means the system's.
    public var servers: [DNSServer] = []
    /// Gateways given by hand; their default port comes from the config.
    public var manual: [EndpointSpec] = []
    public var watch = false

    public init() {}
}

/// What to discover, on which paths.
public struct DiscoveryRequest: Sendable {
    public var types: [ServiceType] = [.gateway]
    /// Browse `local.` by mDNS.
    public var local = true
    /// Wide-area domains browsed by unicast DNS-SD.
    public var domains: [DomainName] = []
    public var unicast = UnicastBackend.Configuration()
    public var manual: [Endpoint] = []
    /// How long a manual target's name may take to resolve.
    public var lookupTimeout: Duration = .seconds(3)
    /// TLS for manual targets given without a scheme (from the OpenClaw config).
    public var manualTLS: Bool?
    public var watch = false
    public var multicast = MulticastBackend()
    /// Gateways known from before (a watch's roster when discovery starts again): one found
    /// again takes its id from here (BeaconMerger).
    public var known: [GatewayBeacon] = []

    public init() {}

    /// The one place where flags, the OpenClaw config and this machine meet: flags first,
    /// then the config, then built-in defaults. On a tailnet, Tailscale's resolver is asked
    /// when the system's finds nothing (that is how split DNS that is not applied shows).
    public init(_ options: DiscoveryOptions, config: OpenClawConfig, interfaces: [NetworkInterface]) {
        var seen = Set<ServiceType>()
        types = options.types.filter { seen.insert($0).inserted }
        local = options.local
        let configured = options.configuredDomain ? config.wideAreaDomain.map { [$0] } : nil
        domains = !options.domains.isEmpty ? options.domains : configured ?? []
        unicast.servers = options.servers
        if !NetworkInterface.tailscaleAddresses(interfaces).isEmpty { unicast.tailscaleResolver = .tailscale }
        let port = config.gatewayPort ?? Endpoint.defaultGatewayPort
        manual = options.manual.map { $0.endpoint(defaultPort: port) }
        manualTLS = config.tlsEnabled
        watch = options.watch
    }

    public var browsedDomains: [DomainName] { (local ? [DomainName.local] : []) + domains }
}
