import ArgumentParser
import DNSSD
import DNSUpdate
import FoundationEssentials
import Host
import Output
import Zones

struct ZoneCheckCommand: ClawnetCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a DNS-SD zone file the way nodes will use it.",
        usage: "clawnet zone check [<options>] [<FILE>]",
        discussion: """
            Parses the zone with ldns and reports, with line numbers: syntax errors; SOA and NS; \
            the serial's form; every PTR of a service type leading to an SRV and a TXT; every \
            SRV target having an address in the zone (or being outside it); OpenClaw's TXT keys \
            (role, gatewayPort equal to the SRV port, the fingerprint's form); instances listed \
            twice or not at all; TTLs; sizes (BIND's 100-records limit, the 64 KiB message). A \
            fragment that `clawnet doctor --emit-zone` wrote (its first line names the zone) is \
            checked without SOA and NS: those are the zone's.

            --server also asks a live server: a lower served serial means it has not loaded the \
            file; the same serial with other content means the file changed without a serial \
            bump (CoreDNS reloads only when the serial changes). Every Gateway the server serves \
            is tried over TCP on its SRV port: refused means a record left behind by a Gateway \
            that is not running.

            --axfr reads the zone as the server serves it (AXFR, signed with --tsig-key) and \
            lints that, without a FILE (give --domain). Several --server (a primary and its \
            secondaries): their serials and records must agree, or the one that lags is named.

            FILE `-` reads the zone from standard input (at most 16 MiB).

            Examples:

                clawnet zone check /etc/coredns/openclaw.internal.db
                clawnet zone check /etc/coredns/openclaw.internal.db \\
                    --server 100.101.102.103
                clawnet zone check --axfr --domain openclaw.internal \\
                    --server 100.101.102.53 --tsig-key clawnet.key
                clawnet zone generate --domain openclaw.internal \\
                    --ns-address 100.101.102.103 \\
                    --gateway host=studio,ip=100.101.102.103 | clawnet zone check -
                clawnet zone check <(ssh ns1 cat /etc/coredns/openclaw.internal.db)

            \(ExitStatus.status((.success, "nothing failed (warnings allowed)"), (.failure, "a check failed, or the zone cannot be read")))
            """
    )

    @Argument(
        help: ArgumentHelp("The zone file, or - to read it from standard input (optional with --axfr).", valueName: "FILE"),
        completion: .file(),
        transform: Arguments.inputPath)
    var file: String?

    /// `-` reads at most this much: a zone of 10,000 Gateways is about 5 MB.
    static let standardInputLimit = 16 * 1024 * 1024

    @Option(help: ArgumentHelp("The zone's domain (default: the owner of its SOA).", valueName: "DOMAIN"), transform: Arguments.domain)
    var domain: DomainName?

    @OptionGroup var serverOption: ServersOption<Words>

    @Flag(help: "With --server: read the zone by AXFR and lint it as served.")
    var axfr = false

    @OptionGroup var tsigKey: TSIGKeyOption<Words>

    @OptionGroup var timeout: TimeoutOption<Words>

    @OptionGroup var format: FormatOptions<Words>

    @OptionGroup var global: GlobalOptions

    /// How zone check words the options it shares.
    enum Words: ServersWording, TSIGKeyWording, TimeoutWording, FormatWording {
        typealias Format = ReportFormat
        static let serversHelp = "Also check what this DNS server serves (repeatable: a primary and its secondaries)."
        static let tsigKeyHelp = "With --axfr: TSIG key file for the transfer (tsig-keygen or keymgr -t output)."
        static let timeoutHelp = "Bound for the servers' answers, every query (a TCP retry included) and all together (default 5s)."
        static let defaultTimeout = Duration.seconds(5)
        static let formatHelp = "table (the default) or json (schema clawnet.zonecheck.v3)."
    }

    func validate() throws {
        let servers = serverOption.servers
        guard file != nil || (axfr && !servers.isEmpty && domain != nil) else {
            throw ValidationError("give a zone FILE, or --axfr with --server and --domain to check the zone as served")
        }
        if (axfr || tsigKey.key != nil) && servers.isEmpty { throw ValidationError("--axfr and --tsig-key go with --server") }
    }

    var request: ZoneCheck.Request {
        var request = ZoneCheck.Request(path: file, domain: domain)
        request.servers = serverOption.servers
        request.transfer = axfr
        request.key = tsigKey.key
        request.timeout = timeout.duration
        return request
    }

    /// The zone (a file, standard input, or the served one) linted and compared; the exit
    /// status is the report's.
    func run(_ context: CommandContext) async throws -> ExitStatus {
        let terminal = context.terminal
        SecretWarnings.tsigKey(tsigKey.key, terminal: terminal)
        var request = self.request
        if file == "-" {
            if context.standardInput.isTerminal { terminal.err("reading the zone from standard input (Ctrl-D ends it)") }
            do { request.text = try context.standardInput.read(Self.standardInputLimit) } catch {
                throw CommandError(error.description, fix: "pipe a zone file of at most \(Self.standardInputLimit / 1_048_576) MiB")
            }
        }
        let result: ZoneCheck.Result
        do { result = try await ZoneCheck.run(request, today: context.clock.today) } catch {
            throw CommandError(
                SafeText.display(Array(error.description.utf8)),
                fix: "check the path (a regular zone file, or - for standard input) and --server")
        }
        let report = ZoneCheckReport(
            result, width: TextWrap.terminalWidth(environment: context.environment, terminalColumns: context.terminal.columns))
        try report.print(format.chosen, to: terminal)
        return report.exitStatus
    }
}
