import ArgumentParser
import DNSSD
import DNSUpdate
import Host
import Zones

/// `advertise --domain DOMAIN --server ADDRESS[:PORT] [--tsig-key FILE]`: options.
struct WideAreaOptions: ParsableArguments {
    @Option(
        name: .customLong("domain"),
        help: ArgumentHelp(
            "Also register the beacon in this wide-area domain (RFC 2136 UPDATE on --server) while advertise runs.", valueName: "DOMAIN"),
        transform: Arguments.domain)
    var domainOption: DomainName?

    /// advertise's name for --domain before every command said --domain; kept for scripts.
    @Option(name: .customLong("wide-area"), help: .hidden, transform: Arguments.domain)
    var wideArea: DomainName?

    /// The wide-area domain, however it was given.
    var domain: DomainName? { domainOption ?? wideArea }

    @Option(
        name: .customLong("server"), help: ArgumentHelp("With --domain: the domain's primary DNS server.", valueName: "ADDRESS[:PORT]"),
        transform: Arguments.server)
    var server: DNSServer?

    @OptionGroup var tsigKey: TSIGKeyOption<Words>

    @Option(
        name: .customLong("address"),
        help: ArgumentHelp(
            "With --domain: an address to publish for this host (repeatable; default: --bind, else the Tailscale addresses, else every "
                + "routable address).",
            valueName: "IP"), transform: Arguments.address)
    var addresses: [IPAddress] = []

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --domain: how often to check the record is still there and put it back (default 30s).", valueName: "DURATION"),
        transform: Arguments.duration)
    var refresh: Duration?

    @OptionGroup var noLocalFlag: NoLocalFlag<Words>

    /// How advertise words the wide-area options it shares.
    enum Words: TSIGKeyWording, NoLocalWording {
        static let tsigKeyHelp = "With --domain: TSIG key file (tsig-keygen or keymgr -t output)."
        static let noLocalHelp = "With --domain: do not advertise by mDNS in local."
    }

    /// How often the registration is checked without --refresh.
    static let defaultRefresh = Duration.seconds(30)

    var noLocal: Bool { noLocalFlag.noLocal }

    func validate() throws {
        if domainOption != nil && wideArea != nil { throw ValidationError("--wide-area is the old name of --domain: give one of them") }
        guard domain != nil else {
            if server != nil || tsigKey.key != nil || !addresses.isEmpty || refresh != nil || noLocal {
                throw ValidationError("--server, --tsig-key, --address, --refresh and --no-local go with --domain")
            }
            return
        }
        guard server != nil else { throw ValidationError("--domain needs --server (the domain's primary DNS server)") }
    }

    /// The registration of the beacon `name` on `port` with `txt` (nil without --domain):
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
