import ArgumentParser
import DNSSD
import DNSUpdate
import DNSWire
import FoundationEssentials
import Host
import Output
import Zones

struct ZonePushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Register Gateways in a zone your DNS server already serves (RFC 2136 UPDATE, signed with TSIG).",
        discussion: """
            Takes the same Gateways as `zone generate` (--gateway, --inventory, --from-browse, \
            --this-host) and registers exactly the records generate would write for them (PTR, \
            SRV, TXT, host A/AAAA; not SOA, NS or ns1) in DOMAIN on its primary --server (BIND, \
            Knot, PowerDNS, ...), from where secondaries get them by NOTIFY and IXFR.

            It reads what the server has (AXFR, signed with the key; when transfers are \
            refused, the RRsets of the service type one by one), sends only the difference, in \
            one UPDATE with prerequisites (the PTR RRset and every RRset it replaces must still \
            be what was read), and nothing when nothing changed. If someone else changed those \
            records in between, the server answers YXRRSET or NXRRSET: run again. Other \
            instances of the type stay unless --prune; other names and types are never touched.

            --tsig-key FILE takes the key as `tsig-keygen` (BIND) or `keymgr -t` (Knot) wrote \
            it (hmac-sha256 and the other HMACs); the secret is never printed. --dry-run prints \
            the UPDATE in nsupdate syntax instead of sending it (`nsupdate -k KEYFILE` applies it).

            --gateway takes \(GatewaySpec.help).

            Examples:

                clawnet zone push --domain openclaw.internal --server 100.101.102.53 --tsig-key clawnet.key --this-host
                clawnet zone push --domain openclaw.internal --server 100.101.102.53 --tsig-key clawnet.key \\
                    --inventory fleet.json --prune --dry-run

            \(ExitStatus.status(
                (.success, "the zone holds the Gateways (nothing needed sending, or the UPDATE was applied)"),
                (.failure, "the server refused or failed the update, or the Gateways cannot be written")))
            """
    )

    @Option(help: ArgumentHelp("The zone to register in, e.g. openclaw.internal.", valueName: "DOMAIN"), transform: Arguments.domain)
    var domain: DomainName

    @Option(help: ArgumentHelp("The zone's primary DNS server.", valueName: "HOST[:PORT]"), transform: Arguments.server)
    var server: DNSServer

    @Option(
        name: .customLong("tsig-key"), help: ArgumentHelp("TSIG key file (tsig-keygen or keymgr -t output).", valueName: "FILE"),
        transform: Arguments.tsigKey)
    var tsigKey: TSIGKey?

    @OptionGroup var sources: GatewaySources

    @Flag(help: "Also remove instances of the type that are not in the sources (only those: never other names or types).")
    var prune = false

    @Flag(name: .customLong("dry-run"), help: "Print the UPDATE in nsupdate syntax; send nothing.")
    var dryRun = false

    @Option(
        name: .customLong("browse-server"),
        help: ArgumentHelp("With --from-browse: DNS server for --browse-domain.", valueName: "HOST[:PORT]"), transform: Arguments.server)
    var browseServers: [DNSServer] = []

    @Option(
        help: ArgumentHelp("Bound for the whole command (default 10s; --from-browse browses at most 5s of it).", valueName: "DURATION"),
        transform: Arguments.duration)
    var timeout: Duration?

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let terminal = global.makeTerminal()
        let key = tsigKey
        let target = server
        let zoneDomain = domain
        let environment = ProcessInfo.processInfo.environment
        let config = OpenClawConfig.load(explicitPath: sources.configPath, environment: environment)
        config.warnings.forEach { terminal.err("warning: \($0)") }
        let budget = timeout ?? .seconds(10)
        let deadline = ContinuousClock.now + budget
        let (gateways, gatherNotes) = try await sources.gather(
            domain: domain, config: config, environment: environment, interfaces: NetworkInterface.current(), browseServers: browseServers,
            browseTimeout: min(budget, .seconds(5)))
        gatherNotes.forEach { terminal.err("note: \($0)") }
        let desired: [DNSRecord]
        do {
            let (records, notes) = try ZoneWriter.serviceRecords(
                ZoneContent(domain: zoneDomain, gateways: gateways, nameServerAddresses: []))
            notes.forEach { terminal.err("note: \($0)") }
            desired = records
        } catch {
            terminal.error(error.message, fix: error.fix)
            throw ExitStatus.failure.code
        }
        var registration = ServiceRegistration(
            zone: try DNSName(instance: nil, type: nil, domain: zoneDomain),
            service: try DNSName(instance: nil, type: .gateway, domain: zoneDomain),
            server: target, key: key, timeout: budget)
        // --timeout bounds the whole command: each step gets what is left of it.
        func remaining() -> Duration { max(.milliseconds(100), deadline - .now) }
        do throws(UpdateFailure) {
            registration.timeout = remaining()
            let served = try await registration.read(for: desired)
            let plan = try registration.planner.publish(desired, served: served, prune: prune)
            let report: (String) -> Void = dryRun ? { terminal.err($0) } : { terminal.out($0) }
            report(Self.readLine(served))
            let count = Set(desired.filter { $0.type == .ptr }.map(\.data)).count
            guard !plan.isEmpty else {
                terminal.out("unchanged: \(target) serves these \(count) Gateway\(count == 1 ? "" : "s") as they are; nothing sent")
                return
            }
            plan.changes.map(Self.describe).forEach(report)
            let listed = Set(served.instances(of: registration.service)).union(
                desired.compactMap { record -> DNSName? in
                    if case .ptr(let target) = record.data { return target }
                    return nil
                }
            ).subtracting(plan.changes.filter { $0.kind == .removed }.map(\.name))
            if listed.count > ZoneWriter.bindRecordsPerType {
                terminal.err(
                    "note: \(listed.count) instances of \(ServiceType.gateway.name) in \(registration.zone) after this push: BIND 9.18.28+ "
                        + "refuses more than \(ZoneWriter.bindRecordsPerType) records of one type at one name unless `max-records-per-type "
                        + "0;` is set in its options"
                )
            }
            if dryRun {
                terminal.out(linesOf: Self.nsupdateScript(plan, server: target, zone: registration.zone, key: key))
                terminal.err(
                    "dry run: \(plan.changes.count) change\(plan.changes.count == 1 ? "" : "s") in \(plan.changeSets.count) "
                        + "UPDATE\(plan.changeSets.count == 1 ? "" : "s"), nothing sent"
                )
                return
            }
            registration.timeout = remaining()
            let (applied, failure) = await registration.send(plan)
            if let failure {
                let partial = applied > 0 ? " (\(applied) of \(plan.changeSets.count) UPDATEs were applied before it)" : ""
                throw UpdateFailure(failure.reason, rcode: failure.rcode, failure.message + partial, fix: failure.fix)
            }
            terminal.out(
                "pushed \(plan.changes.count) change\(plan.changes.count == 1 ? "" : "s") to \(target) in \(applied) "
                    + "UPDATE\(applied == 1 ? "" : "s")"
            )
        } catch {
            terminal.error(error.message, fix: error.fix)
            throw ExitStatus.failure.code
        }
    }

    static func readLine(_ served: ServedRecords) -> String {
        let serial = served.serial.map { "serial \($0), " } ?? ""
        switch served.source {
        case .transfer(let messages):
            return
                "read \(served.zone) from \(served.server) by AXFR (\(serial)\(served.records.count) records in \(messages) "
                + "message\(messages == 1 ? "" : "s"))"
        case .queries(let refused):
            let why = refused.map { "AXFR refused (\($0)); " } ?? ""
            return
                "read \(served.zone) from \(served.server): \(why)asked the RRsets of the service type (\(serial)\(served.records.count) "
                + "records)"
        case .queriesPastBound(let why):
            return
                "read \(served.zone) from \(served.server): \(why); asked the RRsets of the service type (\(serial)"
                + "\(served.records.count) records)"
        }
    }

    static func describe(_ change: PlannedChange) -> String {
        let name = change.name.first.map { SafeText.display($0) } ?? "\(change.name)"
        switch change.kind {
        case .added: return "+ \(name)"
        case .changed(let types): return "~ \(name): \(types.map(\.description).joined(separator: ", "))"
        case .removed: return "- \(name)"
        case .host(let types): return "~ host \(name): \(types.map(\.description).joined(separator: ", "))"
        }
    }

    /// nsupdate input: comments, server, zone, then each change set and `send`. The key is
    /// named, never written: nsupdate reads it with -k.
    static func nsupdateScript(_ plan: UpdatePlan, server: DNSServer, zone: DNSName, key: TSIGKey?) -> String {
        var lines = [
            "; clawnet zone push --dry-run: \(plan.changes.count) change(s) in \(plan.changeSets.count) UPDATE(s) for \(zone)",
            "; apply with: nsupdate \(key.map { "-k <the key file of \($0.name)> " } ?? "")< this file",
            "server \(server.address) \(server.port)",
            "zone \(zone)",
        ]
        for changeSet in plan.changeSets {
            lines += changeSet.nsupdateLines
            lines.append("send")
        }
        return lines.joined(separator: "\n")
    }
}
