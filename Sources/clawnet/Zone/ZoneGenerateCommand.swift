import ArgumentParser
import DNSSD
import FoundationEssentials
import Host
import Output
import Zones

struct ZoneGenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write the DNS-SD zone (and optionally the CoreDNS stanza) for a wide-area domain.",
        discussion: """
            Sources (combine them): --gateway SPEC (repeatable), --inventory FILE (what \
            `clawnet browse --format json` printed), --from-browse (browse now and mirror what \
            is found: LAN mDNS to a wide-area zone), --this-host (this machine as OpenClaw \
            would publish it). Instance names from a browse are kept, so nodes see the same \
            Gateway name on the LAN and across the tailnet; without one, OpenClaw's rule \
            (<hostname>-gateway) applies.

            --gateway takes \(GatewaySpec.help).

            Without --out the zone goes to stdout. With --out the file is written atomically, \
            and only when its content (serial aside) changed: then the SOA serial moves to \
            YYYYMMDDnn (UTC) and never goes down. --corefile puts the CoreDNS server block \
            that serves the file (needs --out) into that Corefile between two marker comments, \
            keeping every other line; a block for the same zone that clawnet did not write is \
            refused, never replaced. It prints the next steps for Tailscale split DNS.

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

                clawnet zone generate --domain openclaw.internal --ns-address 100.101.102.103 \\
                    --gateway 'host=studio,ip=100.101.102.103,name=Studio (OpenClaw)'
                clawnet zone generate --domain openclaw.internal --from-browse \\
                    --out /etc/coredns/openclaw.internal.db --corefile /etc/coredns/Corefile
                clawnet zone generate --domain openclaw.internal --inventory fleet.json \\
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

    @OptionGroup var sources: GatewaySources

    @Option(
        name: .customLong("ns-address"),
        help: ArgumentHelp(
            "Address of ns1, the zone's name server (repeatable; default: this machine's Tailscale addresses).", valueName: "IP"),
        transform: Arguments.unscopedAddress)
    var nsAddresses: [IPAddress] = []

    @Option(
        help: ArgumentHelp("Write the zone here (atomically; untouched when nothing changed).", valueName: "FILE"),
        transform: Arguments.outputPath)
    var out: String?

    @Option(
        help: ArgumentHelp(
            "Also put the CoreDNS stanza for the zone in this Corefile (needs --out); the rest of it is kept.", valueName: "FILE"),
        transform: Arguments.outputPath)
    var corefile: String?

    @Option(
        name: .customLong("bind"),
        help: ArgumentHelp("Addresses CoreDNS listens on (repeatable; default: this machine's Tailscale addresses).", valueName: "IP"),
        transform: Arguments.unscopedAddress)
    var bindAddresses: [IPAddress] = []

    @Flag(
        name: .customLong("browse-records"),
        help: "Add the RFC 6763 browse records (b, lb, _services._dns-sd._udp); OpenClaw does not use them.")
    var browseRecords = false

    @Option(
        name: .customLong("server"), help: ArgumentHelp("With --from-browse: DNS server for --browse-domain.", valueName: "HOST[:PORT]"),
        transform: Arguments.server)
    var servers: [DNSServer] = []

    @Option(
        help: ArgumentHelp(
            "With --from-browse: how long to browse and check that the Gateways answer, at most (default 5s).", valueName: "DURATION"),
        transform: Arguments.duration)
    var timeout: Duration?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard let corefile else { return }
        guard let out else { throw ValidationError("--corefile needs --out: the stanza names the zone file's path") }
        if OutputFile.same(Self.absolute(out), Self.absolute(corefile)) {
            throw ValidationError("--out and --corefile name the same file (\(corefile)): the Corefile would overwrite the zone")
        }
        do { _ = try CorefileWriter.pathToken(Self.absolute(out)) } catch {
            throw ValidationError("--out \(SafeText.display(Array(out.utf8))): \(error.message)")
        }
    }

    func run() async throws {
        let terminal = global.makeTerminal()
        let environment = ProcessInfo.processInfo.environment
        let config = OpenClawConfig.load(explicitPath: sources.configPath, environment: environment)
        config.warnings.forEach { terminal.err("warning: \($0)") }
        let interfaces = NetworkInterface.current()
        let tailscale = NetworkInterface.tailscaleAddresses(interfaces).map(\.withoutZone)
        do {
            let gathered = try await sources.gather(
                domain: domain, config: config, environment: environment, interfaces: interfaces, browseServers: servers,
                browseTimeout: timeout ?? .seconds(5))
            let nameServers = nsAddresses.isEmpty ? tailscale : nsAddresses
            let content = ZoneContent(
                domain: domain, gateways: gathered.gateways, nameServerAddresses: nameServers, browseRecords: browseRecords)
            let today = SerialPolicy.Day(unixSeconds: Int64(Date().timeIntervalSince1970))
            guard let out else {
                let rendered = try ZoneWriter.render(content, serial: SerialPolicy.next(after: nil, today: today))
                (gathered.notes + rendered.notes).forEach { terminal.err("note: \($0)") }
                terminal.out(linesOf: rendered.text)
                return
            }
            // Writing the file replaces every Gateway it holds: a browse that failed or found
            // nothing (the network down, a filter too strict) must not empty a zone that serves
            // Gateways today.
            if let refusal = gathered.removalRefusal(kept: out, instead: "to write the zone anyway, print it (no --out)") {
                gathered.notes.forEach { terminal.err("note: \($0)") }
                throw refusal
            }
            try write(content, out: Self.absolute(out), today: today, tailscale: tailscale, notes: gathered.notes, terminal: terminal)
        } catch let error as ZoneError {
            terminal.error(error.message, fix: error.fix)
            throw ExitStatus.failure.code
        } catch let error as AtomicFile.Failure {
            terminal.error(
                "\(error.description); nothing written", fix: "give --out and --corefile regular files this user owns, or new paths")
            throw ExitStatus.failure.code
        } catch let error as RegularFile.Failure {
            terminal.error(error.description, fix: "check that the file named is the one meant (a regular file this user can read)")
            throw ExitStatus.failure.code
        }
    }

    /// The zone and, with --corefile, the Corefile: both prepared and checked first, then
    /// written together (both change or neither does).
    private func write(
        _ content: ZoneContent, out path: String, today: SerialPolicy.Day, tailscale: [IPAddress], notes: [String], terminal: Terminal
    ) throws {
        let zone = try ZoneFileUpdate.prepare(content, at: path, today: today)
        var changes = zone.changed ? [OutputFile.Change(path: path, text: zone.text, previous: zone.previous)] : []
        var corefileChanged = false
        var bind: [IPAddress] = []
        if let corefile {
            bind = bindAddresses.isEmpty ? tailscale : bindAddresses
            guard !bind.isEmpty else {
                throw ZoneError("no address for CoreDNS to listen on", fix: "give --bind IP (this machine has no Tailscale address)")
            }
            let corefilePath = Self.absolute(corefile)
            // Refused before it is read when clawnet would not write it (another user's link).
            let existing = try RegularFile.readIfPresent(AtomicFile.writableTarget(corefilePath).resolved, limit: FileLimit.corefile)
            var text: String?
            if let existing {
                guard let decoded = SafeText.utf8(existing) else {
                    throw ZoneError(
                        "\(corefilePath) is not UTF-8 text; clawnet edits only a Corefile it can keep byte for byte",
                        fix: "check that --corefile names the Corefile")
                }
                text = decoded
            }
            let edited = try CorefileEdit.apply(
                CorefileWriter.stanza(domain: domain, bind: bind, zonePath: path), domain: domain, to: text)
            if edited != text {
                corefileChanged = true
                changes.append(OutputFile.Change(path: corefilePath, text: edited, previous: existing))
            }
        }
        try OutputFile.writeTogether(changes)

        (notes + zone.notes).forEach { terminal.err("note: \($0)") }
        let count = Set(content.gateways.map(\.instance)).count
        terminal.out(
            zone.changed
                ? "wrote \(path) (serial \(zone.serial)\(zone.previousSerial.map { ", was \($0)" } ?? ""); \(count) "
                    + "Gateway\(count == 1 ? "" : "s"))"
                : "unchanged: \(path) (serial \(zone.serial)); nothing written")
        if let corefile {
            let corefilePath = Self.absolute(corefile)
            terminal.out(
                corefileChanged ? "wrote \(corefilePath) (clawnet's stanza for \(domain.withoutTrailingDot))" : "unchanged: \(corefilePath)"
            )
            terminal.err(linesOf: CorefileWriter.nextSteps(domain: domain, bind: bind, corefilePath: corefilePath, zonePath: path))
        }
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
