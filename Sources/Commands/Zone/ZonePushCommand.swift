import ArgumentParser
import DNSSD
import DNSUpdate
import DNSWire
import FoundationEssentials
import Host
import Output
import Zones

struct ZonePushCommand: ClawnetCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Register Gateways in a zone your DNS server already serves (RFC 2136 UPDATE, signed with TSIG).",
        discussion: """
            Takes the same Gateways as `zone generate` (--gateway, --inventory, --from-browse, \
            --this-host) and registers exactly the records generate would write for them (PTR, \
            SRV, TXT, host A/AAAA; not SOA, NS or ns1) in DOMAIN on its primary --server (BIND, \
            Knot, PowerDNS, ...), from where secondaries get them by NOTIFY and IXFR.

            It sends only the difference, in one UPDATE with prerequisites (every RRset it \
            replaces, and the PTR RRset when instances come or go, must still be what it planned \
            from), and nothing when nothing changed. It plans from its ledger of the last push \
            to this server (in $XDG_STATE_HOME/clawnet, /var/lib/clawnet for root, else \
            ~/.local/state/clawnet) while the zone's SOA serial is the one the ledger was \
            written at; with no ledger, as for an empty zone, the prerequisites saying none of \
            the records is there yet. It reads the zone (AXFR, signed with the key; when transfers are \
            refused, the RRsets of the service type one by one) when the serial moved or a \
            prerequisite fails, and plans and sends again. If someone else changes those \
            records after that read, the server answers YXRRSET or NXRRSET: run again. Other \
            instances of the type stay unless --prune; other names and types are never touched. \
            A host's address records that are replaced are named in the plan (and in \
            --dry-run): "~ host studio: replaces A 10.0.0.5 with 10.0.0.7".

            --prune removes nothing when a source failed (a browse error on any path it asked, \
            a browse cut short by --timeout, errors saved in the inventory) or gave no Gateway: \
            it exits 1 and sends nothing. Instances a source saw but cannot publish are kept.

            --tsig-key FILE takes the key as `tsig-keygen` (BIND) or `keymgr -t` (Knot) wrote \
            it (hmac-sha256 and the other HMACs); the secret is never printed. --dry-run prints \
            the UPDATE in nsupdate syntax instead of sending it (`nsupdate -k KEYFILE` applies it); \
            it asks --server for the zone's serial and, unless the ledger still holds, reads the \
            zone, to print only the difference.

            Several zones of one primary (a fleet in shards): give --domain once for each and an \
            --inventory whose beacons name their zone (`"domain"`); each Gateway goes to the zone \
            its beacon names. Each zone is read, planned and sent on its own, several at a \
            time; a zone that fails is named with its error and the others keep theirs (exit 1).

            --gateway takes \(GatewaySpec.help).

            Examples:

                clawnet zone push --domain openclaw.internal --server 100.101.102.53 \\
                    --tsig-key clawnet.key --this-host
                clawnet zone push --domain openclaw.internal --server 100.101.102.53 \\
                    --tsig-key clawnet.key --inventory fleet.json --prune --dry-run
                clawnet zone push --server 100.101.102.53 --tsig-key clawnet.key \\
                    --inventory fleet.json --domain eu.openclaw.internal \\
                    --domain us.openclaw.internal

            \(ExitStatus.status(
                (.success, "the zone holds the Gateways (nothing needed sending, or the UPDATE was applied)"),
                (
                    .failure,
                    "the server refused or failed the update, the Gateways cannot be written, or (with --prune) a source failed or "
                        + "gave no Gateway"
                )))
            """
    )

    @Option(
        help: ArgumentHelp(
            "The zone to register in, e.g. openclaw.internal. Repeat it for several zones of one primary: each Gateway of "
                + "--inventory goes to the zone its beacon names.", valueName: "DOMAIN"), transform: Arguments.domain)
    var domain: [DomainName] = []

    @Option(help: ArgumentHelp("The zone's primary DNS server.", valueName: "ADDRESS[:PORT]"), transform: Arguments.server)
    var server: DNSServer

    @OptionGroup var tsigKey: TSIGKeyOption<Words>

    @OptionGroup var sources: GatewaySourceOptions

    @Flag(help: "Also remove instances of the type that are not in the sources (only those: never other names or types).")
    var prune = false

    @Flag(
        name: .customLong("dry-run"),
        help: ArgumentHelp(
            "Print the UPDATE in nsupdate syntax and send nothing; the server is still asked for the zone (only its serial while the "
                + "ledger of the last push holds), to work out the difference."))
    var dryRun = false

    @OptionGroup var browseServers: ServersOption<Words>

    @OptionGroup var timeout: TimeoutOption<Words>

    @OptionGroup var global: GlobalOptions

    /// How zone push words the options it shares.
    enum Words: TSIGKeyWording, ServersWording, TimeoutWording {
        static let tsigKeyHelp = "TSIG key file (tsig-keygen or keymgr -t output)."
        static let serversHelp = "With --from-browse: DNS server for --browse-domain."
        /// --server is the zone's primary here.
        static let serversFlag = "browse-server"
        static let timeoutHelp = "Bound for the whole command (default 10s; --from-browse browses at most 5s of it)."
        static let defaultTimeout = Duration.seconds(10)
    }

    /// The longest --from-browse browses of --timeout.
    static let browseLimit = Duration.seconds(5)

    func validate() throws {
        guard !domain.isEmpty else { throw ValidationError("Missing expected argument '--domain <DOMAIN>'") }
        guard domain.count > 1 else { return }
        var seen = Set<DomainName>()
        if let twice = domain.first(where: { !seen.insert($0).inserted }) {
            throw ValidationError("--domain \(twice.name) is given twice")
        }
        guard sources.inventory != nil, sources.gateways.isEmpty, !sources.fromBrowse, !sources.thisHost else {
            throw ValidationError(
                "several --domain take their Gateways from --inventory, each in the zone its beacon names; --gateway, --from-browse "
                    + "and --this-host name no zone: push those with one --domain")
        }
    }

    /// Gathers the Gateways, works out what the server has (`ZonePush`) and sends the difference
    /// (or prints it, with --dry-run); --timeout bounds all of it.
    func run(_ context: CommandContext) async throws -> ExitStatus {
        let terminal = context.terminal
        SecretWarnings.tsigKey(tsigKey.key, terminal: terminal)
        let deadline = context.clock.now() + timeout.duration
        guard domain.count == 1, let domain = domain.first else { return try await pushZones(context, until: deadline) }
        let config = context.config(sources.config.path)
        config.warnings.forEach { terminal.err("warning: \($0)") }
        let gathered = try await GatewaySourceOptions.collector(context, config: config, interfaces: context.machine.interfaces()).gather(
            sources.sources(browseServers: browseServers.servers, browseTimeout: min(timeout.duration, Self.browseLimit)), domain: domain)
        terminal.notes(gathered.notes)
        let registrar = try Registrar(domain: domain, server: server, key: tsigKey.key)
        let (records, keeping, notes) = try registrar.pushRecords(gathered, prune: prune)
        terminal.notes(notes)
        let zone = ZonePush(registrar: registrar, records: records, keeping: keeping, ledgerFile: ledgerFile(registrar, context))
        let outcome = await zone.run(prune: prune, send: !dryRun, until: deadline)
        report(outcome, zone: registrar.zone, terminal: terminal, naming: false)
        if let failure = outcome.failure { throw dryRun && outcome.push == nil ? Self.readFirst(failure, server: server) : failure }
        return .success
    }

    /// Where the ledger of pushes of `registrar`'s zone to --server is kept.
    func ledgerFile(_ registrar: Registrar, _ context: CommandContext) -> PushLedgerFile {
        PushLedgerFile(server: server, zone: registrar.zone, service: registrar.service, environment: context.environment)
    }

    /// A dry run's read failure: it says the server is asked even though nothing is sent.
    static func readFirst(_ error: UpdateFailure, server: DNSServer) -> UpdateFailure {
        UpdateFailure(error.reason, rcode: error.rcode, "--dry-run reads the zone from \(server) first: " + error.message, fix: error.fix)
    }
}
