import ArgumentParser
import DNSSD
import DNSUpdate
import Host
import Zones

/// `advertise --wide-area DOMAIN --server ADDRESS[:PORT] [--tsig-key FILE]`: options.
struct WideAreaOptions: ParsableArguments {
    @Option(
        name: .customLong("wide-area"),
        help: ArgumentHelp(
            "Also register the beacon in this wide-area domain (RFC 2136 UPDATE on --server) while advertise runs.", valueName: "DOMAIN"),
        transform: Arguments.domain)
    var domain: DomainName?

    @Option(
        name: .customLong("server"), help: ArgumentHelp("With --wide-area: the domain's primary DNS server.", valueName: "ADDRESS[:PORT]"),
        transform: Arguments.server)
    var server: DNSServer?

    @OptionGroup var tsigKey: TSIGKeyOption<Words>

    @Option(
        name: .customLong("address"),
        help: ArgumentHelp(
            "With --wide-area: an address to publish for this host (repeatable; default: --bind, else the Tailscale addresses, else every "
                + "routable address).",
            valueName: "IP"), transform: Arguments.address)
    var addresses: [IPAddress] = []

    @Option(
        help: ArgumentHelp(
            "With --wide-area: how often to check the record is still there and put it back (default 30s).", valueName: "DURATION"),
        transform: Arguments.duration)
    var refresh: Duration?

    @OptionGroup var noLocalFlag: NoLocalFlag<Words>

    /// How advertise words the wide-area options it shares.
    enum Words: TSIGKeyWording, NoLocalWording {
        static let tsigKeyHelp = "With --wide-area: TSIG key file (tsig-keygen or keymgr -t output)."
        static let noLocalHelp = "With --wide-area: do not advertise by mDNS in local."
    }

    /// How often the registration is checked without --refresh.
    static let defaultRefresh = Duration.seconds(30)

    var noLocal: Bool { noLocalFlag.noLocal }

    func validate() throws {
        guard domain != nil else {
            if server != nil || tsigKey.key != nil || !addresses.isEmpty || refresh != nil || noLocal {
                throw ValidationError("--server, --tsig-key, --address, --refresh and --no-local go with --wide-area")
            }
            return
        }
        guard server != nil else { throw ValidationError("--wide-area needs --server (the domain's primary DNS server)") }
    }

    /// The registration of the beacon `name` on `port` with `txt` (nil without --wide-area):
    /// this host under its name's label, at the addresses `WideAreaRegistration.addresses` picks.
    func registration(
        name: String, port: Int, txt: TXTRecord, bindAddress: String?, context: CommandContext,
        observer: @escaping @Sendable (WideAreaRegistration, WideAreaRegistration.Event) -> Void
    ) throws -> WideAreaRegistration? {
        guard let domain, let server else { return nil }
        let host = ZoneGateway.label(HostName.label(of: context.machine.hostName()) ?? "", fallback: HostName.fallback)
        let addresses = WideAreaRegistration.addresses(given: addresses, bound: bindAddress, interfaces: context.machine.interfaces())
        let gateway = ZoneGateway(
            instance: try InstanceName(decoded: name), hostLabel: host, addresses: addresses, port: port,
            txt: ZoneGateway.openClawOrder(txt.attributes))
        return try WideAreaRegistration(
            registrar: try Registrar(domain: domain, server: server, key: tsigKey.key), gateway: gateway, environment: context.environment,
            observer: observer)
    }
}
