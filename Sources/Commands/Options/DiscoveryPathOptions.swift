import ArgumentParser
import DNSSD

/// How a command words the discovery paths' options in its help.
protocol NoLocalWording {
    static var noLocalHelp: String { get }
}

protocol DomainsWording {
    static var domainsHelp: String { get }
}

protocol ServersWording {
    static var serversHelp: String { get }
    /// The flag's name: `server`, unless the command has a --server of its own (`zone push`).
    static var serversFlag: String { get }
}

extension ServersWording {
    static var serversFlag: String { "server" }
}

protocol ManualWording {
    static var manualHelp: String { get }
}

/// `--no-local`: local. is not used (not browsed, not checked, not advertised in).
struct NoLocalFlag<Wording: NoLocalWording>: ParsableArguments {
    @Flag(name: .customLong("no-local"), help: ArgumentHelp(Wording.noLocalHelp))
    var noLocal = false
}

/// `--domain DOMAIN`, repeatable: wide-area domains to browse or check.
struct DomainsOption<Wording: DomainsWording>: ParsableArguments {
    @Option(name: .customLong("domain"), help: ArgumentHelp(Wording.domainsHelp, valueName: "DOMAIN"), transform: Arguments.domain)
    var domains: [DomainName] = []
}

/// `--server HOST[:PORT]`, repeatable: DNS servers to ask instead of the system's.
struct ServersOption<Wording: ServersWording>: ParsableArguments {
    @Option(
        name: .customLong(Wording.serversFlag), help: ArgumentHelp(Wording.serversHelp, valueName: "ADDRESS[:PORT]"),
        transform: Arguments.server)
    var servers: [DNSServer] = []
}

/// `--manual HOST[:PORT]`, repeatable: Gateways given by hand.
struct ManualOption<Wording: ManualWording>: ParsableArguments {
    @Option(name: .customLong("manual"), help: ArgumentHelp(Wording.manualHelp, valueName: "HOST[:PORT]"), transform: Arguments.endpoint)
    var manual: [EndpointSpec] = []
}
