import Avahi
import DNSSD
import Host

/// What a user asked to discover, before the OpenClaw config and this machine fill in the
/// rest: what `browse`, `doctor` and `zone generate --from-browse` take from their flags.
package struct DiscoveryOptions: Sendable {
    package var types: [ServiceType] = [.gateway]
    /// Browse `local.` by mDNS.
    package var local = true
    /// Wide-area domains given on the command line; empty means the configured one, unless
    /// `configuredDomain` is false.
    package var domains: [DomainName] = []
    /// Browse the config's wide-area domain when no domain is given (not when mirroring
    /// into that very domain: `zone generate --from-browse`).
    package var configuredDomain = true
    /// DNS servers for the wide-area domains; empty means the system's.
    package var servers: [DNSServer] = []
    /// Gateways given by hand; their default port comes from the config.
    package var manual: [EndpointSpec] = []
    package var watch = false

    package init() {}
}

/// What to discover, on which paths.
package struct DiscoveryRequest: Sendable {
    package var types: [ServiceType] = [.gateway]
    /// Browse `local.` by mDNS.
    package var local = true
    /// Wide-area domains browsed by unicast DNS-SD.
    package var domains: [DomainName] = []
    package var unicast = UnicastBackend.Configuration()
    package var manual: [Endpoint] = []
    /// How long a manual target's name may take to resolve.
    package var lookupTimeout: Duration = .seconds(3)
    /// TLS for manual targets given without a scheme (from the OpenClaw config).
    package var manualTLS: Bool?
    package var watch = false
    package var multicast = MulticastBackend()
    /// Gateways known from before (a watch's roster when discovery starts again): one found
    /// again takes its id from here (BeaconMerger).
    package var known: [GatewayBeacon] = []

    package init() {}

    /// The one place where flags, the OpenClaw config and this machine meet: flags first,
    /// then the config, then built-in defaults. On a tailnet, Tailscale's resolver is asked
    /// when the system's finds nothing (that is how split DNS that is not applied shows).
    package init(_ options: DiscoveryOptions, config: OpenClawConfig, interfaces: [NetworkInterface]) {
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

    package var browsedDomains: [DomainName] { (local ? [DomainName.local] : []) + domains }
}
