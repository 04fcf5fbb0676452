import ArgumentParser
import DNSSD
import FoundationEssentials
import Host
import Output
import Zones

struct ZoneGenerateCommand: ClawnetCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write the DNS-SD zone (and optionally the CoreDNS stanza) for a wide-area domain.",
        discussion: """
            Sources (combine them): --gateway SPEC (repeatable), --inventory FILE (what \
            `clawnet browse --format json` printed), --from-browse (browse now and mirror what \
            is found: LAN mDNS to a wide-area zone), --this-host (this machine as OpenClaw \
            would publish it). Instance names from a browse are kept, so nodes see the same \
            Gateway name on the LAN and across the tailnet; without one, OpenClaw's rule \
            (<HOSTNAME>-gateway) applies.

            --gateway takes \(GatewaySpec.help).

            Without --out the zone goes to stdout. With --out the file is written atomically, \
            under the content-hash comment OpenClaw's Gateway writes, and only when its records \
            (serial aside) changed: then the SOA serial moves to YYYYMMDDnn (UTC) and never goes \
            down. An existing --out file is replaced only when clawnet or OpenClaw's Gateway \
            wrote it (it begins with the $ORIGIN, $TTL, SOA and NS lines both write, and holds \
            only the records they write) or it is empty; any other file is left as it is (exit \
            1). --corefile puts the CoreDNS server block \
            that serves the file (needs --out) into that Corefile between two marker comments, \
            keeping every other line; a block for the same zone that clawnet did not write is \
            refused, never replaced. --coredns chooses how that block serves the zone: `file` \
            (the default, as OpenClaw writes it), `auto` (every <DOMAIN>.db in --out's folder, \
            one zone each: sharded domains), or `secondary` (CoreDNS transfers the zone from \
            --primary, the BIND, Knot or PowerDNS primary that `zone push` feeds). It prints the \
            next steps for Tailscale split DNS.

            Every value is checked before anything is written, against the rules `zone check` \
            fails a Gateway on, so a zone it would fail is never written (exit 1); both files \
            change together or neither does. \
            Only regular files (or new paths) are written, never through a symbolic link another \
            user planted in a sticky directory such as /tmp. Browsed Gateways (--inventory, \
            --from-browse) that cannot be published are skipped with a note naming them. With \
            --out, a source that failed (a browse error on any path it asked, a browse cut short \
            by --timeout, errors saved in the inventory) or gave no Gateway leaves the file as it \
            is and exits 1: the zone would lose Gateways on no evidence.

            Examples:

                clawnet zone generate --domain openclaw.internal \\
                    --ns-address 100.101.102.103 \\
                    --gateway 'host=studio,ip=100.101.102.103,name=Studio (OpenClaw)'
                clawnet zone generate --domain openclaw.internal --from-browse \\
                    --out /etc/coredns/openclaw.internal.db \\
                    --corefile /etc/coredns/Corefile
                clawnet browse --json | clawnet zone generate \\
                    --domain openclaw.internal --inventory - \\
                    --ns-address 100.101.102.103 | clawnet zone check -

            \(ExitStatus.status(
                (.success, "the zone was written (or is unchanged), or printed"),
                (
                    .failure,
                    "the zone cannot be made (a PTR set over one DNS message) or written, or (with --out) a source failed or gave "
                        + "no Gateway"
                )))
            """
    )

    @Option(
        help: ArgumentHelp("The wide-area domain of the zone, e.g. openclaw.internal.", valueName: "DOMAIN"), transform: Arguments.domain)
    var domain: DomainName

    @OptionGroup var sources: GatewaySourceOptions

    @Option(
        name: .customLong("ns-address"),
        help: ArgumentHelp(
            "Address of ns1, the zone's name server (repeatable; default: this machine's Tailscale addresses).", valueName: "IP"),
        transform: Arguments.unscopedAddress)
    var nsAddresses: [IPAddress] = []

    @Option(
        help: ArgumentHelp("Write the zone here (atomically; untouched when nothing changed).", valueName: "FILE"),
        completion: .file(), transform: Arguments.outputPath)
    var out: String?

    @Option(
        help: ArgumentHelp(
            "Also put the CoreDNS stanza for the zone in this Corefile (needs --out); the rest of it is kept.", valueName: "FILE"),
        completion: .file(), transform: Arguments.outputPath)
    var corefile: String?

    @Option(
        name: .customLong("coredns"),
        help: ArgumentHelp(
            "How the --corefile stanza serves the zone: file (the --out file, reloaded), auto (every <DOMAIN>.db in --out's "
                + "folder), secondary (transferred from --primary).",
            valueName: "PLUGIN"))
    var plugin = CorefileWriter.Plugin.file

    @Option(
        name: .customLong("primary"),
        help: ArgumentHelp(
            "With --coredns secondary: the primary server CoreDNS transfers the zone from (repeatable; the one zone push feeds).",
            valueName: "ADDRESS[:PORT]"),
        transform: Arguments.server)
    var primaries: [DNSServer] = []

    @Option(
        name: .customLong("bind"),
        help: ArgumentHelp("Addresses CoreDNS listens on (repeatable; default: this machine's Tailscale addresses).", valueName: "ADDRESS"),
        transform: Arguments.unscopedAddress)
    var bindAddresses: [IPAddress] = []

    @Flag(
        name: .customLong("browse-records"),
        help: "Add the RFC 6763 browse records (b, lb, _services._dns-sd._udp); OpenClaw does not use them.")
    var browseRecords = false

    @OptionGroup var browseServers: ServersOption<Words>

    /// The old name of --browse-server: refused with the new one, never read as the zone's server.
    @Option(name: .customLong("server"), help: .hidden)
    var oldServerFlag: String?

    @OptionGroup var timeout: TimeoutOption<Words>

    @OptionGroup var global: GlobalOptions

    /// How zone generate words the options it shares.
    enum Words: ServersWording, TimeoutWording {
        static let serversHelp = "With --from-browse: DNS server for --browse-domain."
        /// --server names the zone's own server in `zone push` and `zone check`: the one to browse is --browse-server.
        static let serversFlag = "browse-server"
        static let timeoutHelp = "With --from-browse: how long to browse and check that the Gateways answer, at most (default 5s)."
        static let defaultTimeout = Duration.seconds(5)
    }

    func validate() throws {
        if oldServerFlag != nil {
            throw ValidationError(
                "zone generate --server is now --browse-server (the DNS server --from-browse asks for --browse-domain); "
                    + "--server names the zone's own server in zone push and zone check")
        }
        if plugin != .file && corefile == nil { throw ValidationError("--coredns \(plugin.rawValue) goes with --corefile") }
        if (plugin == .secondary) != !primaries.isEmpty {
            throw ValidationError("--coredns secondary needs --primary (the server CoreDNS transfers the zone from), and only it takes one")
        }
        guard let corefile else { return }
        guard let out else { throw ValidationError("--corefile needs --out: the stanza names the zone file's path") }
        let directory = FileManager.default.currentDirectoryPath
        if OutputFile.same(ZoneGeneration.absolute(out, in: directory), ZoneGeneration.absolute(corefile, in: directory)) {
            throw ValidationError("--out and --corefile name the same file (\(corefile)): the Corefile would overwrite the zone")
        }
        do { _ = try CorefileWriter.pathToken(ZoneGeneration.absolute(out, in: directory)) } catch {
            throw ValidationError("--out \(SafeText.display(Array(out.utf8))): \(error.message)")
        }
    }

    /// The zone generation the flags ask for, paths made absolute in `directory`.
    func generation(in directory: String) -> ZoneGeneration {
        var generation = ZoneGeneration(domain: domain)
        generation.nameServers = nsAddresses
        generation.out = out.map { ZoneGeneration.absolute($0, in: directory) }
        generation.corefile = corefile.map { ZoneGeneration.absolute($0, in: directory) }
        generation.bind = bindAddresses
        generation.plugin = plugin
        generation.primaries = primaries
        generation.browseRecords = browseRecords
        return generation
    }

    /// Gathers the Gateways and prints the zone, or writes it (and the Corefile).
    func run(_ context: CommandContext) async throws -> ExitStatus {
        let terminal = context.terminal
        let config = context.config(sources.config.path)
        config.warnings.forEach { terminal.err("warning: \($0)") }
        let interfaces = context.machine.interfaces()
        let gathered = try await GatewaySourceOptions.collector(context, config: config, interfaces: interfaces).gather(
            sources.sources(browseServers: browseServers.servers, browseTimeout: timeout.duration), domain: domain)
        let outcome = try generation(in: context.workingDirectory).run(
            gathered, tailscale: NetworkInterface.tailscaleAddresses(interfaces).map(\.withoutZone), today: context.clock.today)
        terminal.print(ZoneGenerateLines.transcript(outcome, domain: domain))
        if case .refused(let refusal, _) = outcome { throw refusal }
        return .success
    }
}

extension CorefileWriter.Plugin: ExpressibleByArgument {}
