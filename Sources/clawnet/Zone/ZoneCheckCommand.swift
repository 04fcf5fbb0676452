import ArgumentParser
import DNSSD
import FoundationEssentials
import Host
import Output
import Zones

struct ZoneCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a DNS-SD zone file the way nodes will use it.",
        discussion: """
            Parses the zone with ldns and reports, with line numbers: syntax errors; SOA and NS; \
            the serial's form; every PTR of a service type leading to an SRV and a TXT; every \
            SRV target having an address in the zone (or being outside it); OpenClaw's TXT keys \
            (role, gatewayPort equal to the SRV port, the fingerprint's form); instances listed \
            twice or not at all; TTLs; sizes (BIND's 100-records limit, the 64 KiB message).

            --server also asks a live server: a lower served serial means it has not loaded the \
            file; the same serial with other content means the file changed without a serial \
            bump (CoreDNS reloads only when the serial changes).

            Exit 1 when anything fails. \(ExitStatus.helpText)
            """
    )

    @Argument(help: "The zone file.")
    var file: String

    @Option(help: ArgumentHelp("The zone's domain (default: the owner of its SOA).", valueName: "DOMAIN"), transform: Arguments.domain)
    var domain: DomainName?

    @Option(help: ArgumentHelp("Also compare with what this DNS server serves.", valueName: "HOST[:PORT]"), transform: Arguments.server)
    var server: DNSServer?

    @Option(help: "table or json (schema clawnet.zonecheck.v1).")
    var format: ReportFormat = .table

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let terminal = global.makeTerminal()
        let today = SerialPolicy.Day(unixSeconds: Int64(Date().timeIntervalSince1970))
        let result: ZoneCheck.Result
        do { result = try await ZoneCheck.run(path: file, domain: domain, server: server, today: today) } catch {
            terminal.err(terminal.paint("error", .red, stderr: true) + ": \(SafeText.display(Array(error.description.utf8)))")
            throw ExitStatus.failure.code
        }
        let report = ZoneCheckReport(result)
        try report.print(format, to: terminal)
        try report.exitStatus.exit()
    }
}
