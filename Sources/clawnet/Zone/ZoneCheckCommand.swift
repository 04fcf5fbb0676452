import ArgumentParser
import DNSSD
import DNSWire
import Discovery
import FoundationEssentials
import Glibc
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

            Examples:

                clawnet zone check /etc/coredns/openclaw.internal.db
                clawnet zone check /etc/coredns/openclaw.internal.db --server 100.101.102.103
                clawnet zone generate --domain openclaw.internal --ns-address 100.101.102.103 \\
                    --gateway host=studio,ip=100.101.102.103 | clawnet zone check -

            \(Exit.status((Exit.success, "nothing failed (warnings allowed)"), (Exit.failure, "a check failed, or the zone cannot be read")))
            """
    )

    @Argument(help: "The zone file, or - to read it from standard input.")
    var file: String

    /// `-` reads at most this much: a zone of 10,000 Gateways is about 5 MB.
    static let standardInputLimit = 16 * 1024 * 1024

    @Option(help: ArgumentHelp("The zone's domain (default: the owner of its SOA).", valueName: "DOMAIN"))
    var domain: String?

    @Option(help: ArgumentHelp("Also compare with what this DNS server serves.", valueName: "HOST[:PORT]"))
    var server: String?

    @Option(help: "table or json (schema clawnet.zonecheck.v1).")
    var format: ReportFormat = .table

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let domain {
            do { _ = try DomainName(validating: domain) } catch { throw ValidationError("--domain \(domain): \(error.message)") }
        }
        if let server {
            do { _ = try DNSServer(parsing: server) } catch { throw ValidationError("--server \(server): \(error.message)") }
        }
    }

    struct Report: Encodable {
        let schema = "clawnet.zonecheck.v1"
        let file: String
        let domain: String?
        let status: ZoneFinding.Severity
        let findings: [ZoneFinding]
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        let requested = domain.flatMap { try? DomainName(validating: $0) }
        let origin = requested.flatMap { try? DNSName(instance: nil, type: nil, domain: $0) }
        let zone = try read(origin: origin, terminal: terminal)
        let today = SerialPolicy.Day(unixSeconds: Int64(Date().timeIntervalSince1970))
        var findings = ZoneLinter.check(zone, domain: requested, today: today)
        let apex = origin ?? zone.records.first { $0.type == .soa }?.name
        if let server = server.flatMap({ try? DNSServer(parsing: $0) }), let apex {
            let client = DNSClient()
            findings += await LiveZoneComparison.compare(zone, apex: apex, server: server, client: client)
            await client.shutdown()
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
            let source = file == "-" ? "standard input" : file
            terminal.err(terminal.paint("\(source) (\(apex?.description ?? "unknown zone")): \(failures) failure\(failures == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")", .dim, stderr: true))
        }
        if status == .fail { throw Exit.failure }
    }

    /// The zone from the file, or from standard input for `-`.
    private func read(origin: DNSName?, terminal: Terminal) throws -> ZoneFile {
        let ttl = UInt32(ZoneWriter.ttl)
        guard file == "-" else {
            guard FileManager.default.fileExists(atPath: file) else {
                terminal.err("error: cannot read \(file): no such file")
                throw Exit.failure
            }
            return ZoneFile.read(path: file, origin: origin, defaultTTL: ttl)
        }
        if isatty(STDIN_FILENO) == 1 { terminal.err("reading the zone from standard input (Ctrl-D ends it)") }
        do {
            return ZoneFile.read(bytes: try StandardInput.read(limit: Self.standardInputLimit), origin: origin, defaultTTL: ttl)
        } catch {
            terminal.err("error: \(error.description)")
            throw Exit.failure
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
