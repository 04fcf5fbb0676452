import ArgumentParser
import DNSSD
import DNSWire
import Discovery
import FoundationEssentials
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
            bump (CoreDNS reloads only when the serial changes). Every Gateway the server serves \
            is tried over TCP on its SRV port: refused means a record left behind by a Gateway \
            that is not running.

            --axfr reads the zone as the server serves it (AXFR, signed with --tsig-key) and \
            lints that, without a FILE (give --domain). Several --server (a primary and its \
            secondaries): their serials and records must agree, or the one that lags is named.

            Exit 1 when anything fails. \(Exit.helpText)
            """
    )

    @Argument(help: "The zone file (optional with --axfr).")
    var file: String?

    @Option(help: ArgumentHelp("The zone's domain (default: the owner of its SOA).", valueName: "DOMAIN"))
    var domain: String?

    @Option(name: .customLong("server"), help: ArgumentHelp("Also check what this DNS server serves (repeatable: a primary and its secondaries).", valueName: "HOST[:PORT]"))
    var servers: [String] = []

    @Flag(help: "With --server: read the zone by AXFR and lint it as served.")
    var axfr = false

    @Option(name: .customLong("tsig-key"), help: ArgumentHelp("With --axfr: TSIG key file for the transfer (tsig-keygen or keymgr -t output).", valueName: "FILE"))
    var tsigKey: String?

    @Option(help: ArgumentHelp("Bound for each server's answers (default 5s).", valueName: "DURATION"))
    var timeout: DurationArgument?

    @Option(help: "table or json (schema clawnet.zonecheck.v1).")
    var format: ReportFormat = .table

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let domain {
            do { _ = try DomainName(validating: domain) } catch { throw ValidationError("--domain \(domain): \(error.message)") }
        }
        _ = try ParsedArguments.servers(servers)
        guard file != nil || (axfr && !servers.isEmpty && domain != nil) else {
            throw ValidationError("give a zone FILE, or --axfr with --server and --domain to check the zone as served")
        }
        if (axfr || tsigKey != nil) && servers.isEmpty { throw ValidationError("--axfr and --tsig-key go with --server") }
        _ = try ParsedArguments.tsigKey(tsigKey)
    }

    struct Report: Encodable {
        let schema = "clawnet.zonecheck.v1"
        let file: String?
        let domain: String?
        let status: ZoneFinding.Severity
        let findings: [ZoneFinding]
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        let key = try ParsedArguments.tsigKey(tsigKey)
        let servers = try ParsedArguments.servers(self.servers)
        let requested = domain.flatMap { try? DomainName(validating: $0) }
        let origin = requested.flatMap { try? DNSName(instance: nil, type: nil, domain: $0) }
        let today = SerialPolicy.Day(unixSeconds: Int64(Date().timeIntervalSince1970))
        let budget = timeout?.duration ?? .seconds(5)
        var findings: [ZoneFinding] = []
        var apex = origin
        if let file {
            guard FileManager.default.fileExists(atPath: file) else {
                terminal.err("error: cannot read \(file): no such file")
                throw Exit.failure
            }
            let zone = ZoneFile.read(path: file, origin: origin, defaultTTL: UInt32(ZoneWriter.ttl))
            findings += ZoneLinter.check(zone, domain: requested, today: today)
            apex = origin ?? zone.records.first { $0.type == .soa }?.name
            if let apex, !servers.isEmpty {
                let client = DNSClient()
                for server in servers {
                    findings += await LiveZoneComparison.compare(zone, apex: apex, server: server, client: client)
                }
                await client.shutdown()
            }
        }
        if let apex, !servers.isEmpty {
            findings += await ServedZoneChecks.run(servers: servers, zone: apex, key: key, transfer: axfr, timeout: budget, today: today)
        }
        findings.sort { $0.severity != $1.severity ? $0.severity > $1.severity : ($0.line ?? 0) < ($1.line ?? 0) }
        let status = findings.map(\.severity).max() ?? .pass

        if format == .json {
            terminal.out(try JSONOutput.pretty(Report(file: file, domain: apex?.description, status: status, findings: findings)))
        } else {
            for finding in findings {
                let mark = switch finding.severity {
                case .fail: terminal.paint("FAIL", .red)
                case .warn: terminal.paint("WARN", .yellow)
                case .pass: terminal.paint("PASS", .green)
                }
                let line = finding.line.map { "line \($0)" } ?? ""
                terminal.out("\(mark)  \(line.padding(9))  \(finding.message)")
                if let fix = finding.fix, finding.severity != .pass { terminal.out("      \(String().padding(9))  fix: \(fix)") }
            }
            let failures = findings.filter { $0.severity == .fail }.count
            let warnings = findings.filter { $0.severity == .warn }.count
            let source = file ?? servers.map(\.description).joined(separator: ", ")
            terminal.err(terminal.paint("\(source) (\(apex?.description ?? "unknown zone")): \(failures) failure\(failures == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")", .dim, stderr: true))
        }
        if status == .fail { throw Exit.failure }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
