import Archive
import ArgumentParser
import Avahi
import DNSSD
import Discovery
import Doctor
import FoundationEssentials
import Glibc
import Host
import Output
import Report

struct ReportCommand: ClawnetCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one archive to attach to an issue: what doctor and browse see, and this machine's network, secrets redacted.",
        usage: "clawnet report [<options>] --out <FILE> [<TARGET> ...]",
        discussion: """
            Writes --out FILE, a tar.gz with: doctor.json and doctor.txt (doctor's table), \
            browse.json, versions.txt (clawnet, OpenClaw, Avahi), the kernel and the \
            distribution, the OpenClaw config with every secret replaced by [REDACTED] (tokens, \
            passwords, SecretRef ids, private keys, every value of an env map such as env.vars or \
            skills.entries.*.env; the keys kept), the env files OpenClaw loads (.env in its state \
            folder, ~/.openclaw or OPENCLAW_STATE_DIR, and ~/.config/openclaw/gateway.env) read as \
            OpenClaw reads them, every value redacted; settings OpenClaw documents as plain (OPENCLAW_LOG_LEVEL, \
            OPENCLAW_DISABLE_BONJOUR, ...) are shown. Also resolv.conf, the nsswitch hosts line, \
            interfaces and routes (as `ip route` writes them), avahi-daemon's state, each \
            wide-area domain's zone as served (by AXFR, else its Gateways' RRsets), the end of the \
            Gateway's own log and its journal lines (of the Gateway's user and root only), the \
            answers of `openclaw doctor --lint --json` and `openclaw gateway status --json` when \
            the openclaw CLI is installed, and manifest.json naming every file, every redaction \
            and every part left out and why.

            Device identities and credential files are never included. Every secret found (in the \
            config, the env files and the .env of the Gateway's working directory, the identity and \
            credential files, this process's environment) \
            is searched for in every file of this machine: as it is, in hexadecimal, base64, \
            percent-encoded and JSON-escaped, line by line, and replaced. What came from the \
            network (beacons, DNS answers, Gateways' answers) is left as received, never searched: \
            a [REDACTED] there would tell whoever planted a guess that it was right. A config that \
            does not parse is left out, the values under its secrets' keys still searched for; when \
            not all of them can be found, the Gateway's log and journal and OpenClaw's own reports \
            are left out too, and the report says so. No option turns redaction off.

            TARGET, --domain, --server, --no-local, --manual and --pin aim doctor and browse as \
            they do in `clawnet doctor`. FILE must not exist: the report never replaces a file, \
            not even one that appears while it runs.

            Examples:

                clawnet report --out clawnet-report.tar.gz
                clawnet report --out report.tar.gz studio.local --domain openclaw.internal
                tar -tzf clawnet-report.tar.gz

            \(ExitStatus.status(
                (.success, "the archive was written"),
                (.failure, "it could not be written (FILE appeared meanwhile, or a write failed)"),
                (.usage, "usage error: a bad flag or value, or FILE exists")))
            """
    )

    @Option(
        name: .customLong("out"), help: ArgumentHelp("The archive to write (a new file).", valueName: "FILE"), completion: .file(),
        transform: Arguments.outputPath)
    var out: String

    @OptionGroup var targetArguments: TargetsArgument

    @OptionGroup var domainOption: DomainsOption<Words>

    @OptionGroup var serverOption: ServersOption<Words>

    @OptionGroup var noLocalFlag: NoLocalFlag<Words>

    @OptionGroup var manualOption: ManualOption<Words>

    @OptionGroup var pinOption: PinOption<Words>

    @OptionGroup var timeout: TimeoutOption<Words>

    @OptionGroup var config: ConfigOption<Words>

    @OptionGroup var global: GlobalOptions

    enum Words: DomainsWording, ServersWording, NoLocalWording, ManualWording, PinWording, TimeoutWording, ConfigWording {
        static let domainsHelp = "A wide-area domain to check, browse and read (repeatable; default: the configured one)."
        static let serversHelp = "A DNS server for the wide-area domains, browsed and read as served, instead of the system's (repeatable)."
        static let noLocalHelp = "Do not browse or check local. by mDNS."
        static let manualHelp = "A Gateway given by hand, HOST[:PORT] or a ws(s):// URL: the same as a TARGET (repeatable)."
        static let pinHelp = "The certificate fingerprint nodes pinned (SHA-256; 'sha256:' prefixes and colons are fine)."
        static let timeoutHelp = "How long doctor, browse and each zone read may take (e.g. 5s). Default 5s each."
        static let defaultTimeout: Duration = .seconds(5)
    }

    var doctorOptions: DoctorOptions {
        var options = DoctorOptions()
        options.targets = targetArguments.targets + manualOption.manual.map(DoctorTarget.init)
        options.discovery.domains = domainOption.domains
        options.discovery.servers = serverOption.servers
        options.discovery.local = !noLocalFlag.noLocal
        options.noLocal = noLocalFlag.noLocal
        options.pin = pinOption.pin
        options.timeout = timeout.duration
        return options
    }

    var browseOptions: DiscoveryOptions {
        var options = DiscoveryOptions()
        options.local = !noLocalFlag.noLocal
        options.domains = domainOption.domains
        options.servers = serverOption.servers
        options.manual = targetArguments.targets.compactMap(\.endpoint) + manualOption.manual
        return options
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let path = out.hasPrefix("/") ? out : "\(context.workingDirectory)/\(out)"
        var status = stat()
        if lstat(path, &status) == 0 { throw ValidationError("--out \(out): exists; the report writes only a new file") }
        let system = context.machine.inspector(config.path)
        let openClaw = system.config()
        // The archive's doctor.json says it too; the person running report should know now.
        openClaw.warnings.forEach { context.terminal.err("warning: \($0)") }
        var options = doctorOptions
        try DiscoveryPaths.requireDomain(DiscoveryPaths.Given(options.discovery, config: openClaw, targets: !options.targets.isEmpty))
        options.read(environment: context.environment)
        context.terminal.progress("checking this machine and discovering Gateways …")
        let result = await Doctor.run(options, system: system, io: context.network)
        var files = [
            ReportFile("doctor.json", text: try JSONOutput.pretty(DoctorReport(result)) + "\n", origin: .network),
            ReportFile("doctor.txt", text: ReportText.doctor(result), origin: .network),
        ]
        let request = DiscoveryRequest(browseOptions, config: openClaw, interfaces: context.machine.interfaces())
        let snapshot = await context.discovery.snapshot(request, timeout: timeout.duration)
        let browse = BrowseReport(request: request, snapshot: snapshot)
        files.append(ReportFile("browse.json", text: try browse.json() + "\n", origin: .network))
        files.append(ReportFile("avahi.txt", text: ReportText.avahi(await context.machine.avahi(.browse))))
        var sources = await gather(context, configPath: openClaw.path)
        files += await openClawCLI(context, into: &sources)
        await servedZones(request.domains, into: &sources)
        context.terminal.clearProgress()
        let archive = try ReportArchive.make(files + sources.files, sources: sources, created: Date())
        return write(
            archive, to: path, files: files.count + sources.files.count + 1, complete: sources.unsure.isEmpty, terminal: context.terminal)
    }

    /// The archive at --out, made there only if nothing has appeared at that path since the start.
    func write(_ archive: [UInt8], to path: String, files: Int, complete: Bool, terminal: Terminal) -> ExitStatus {
        do { try AtomicFile.writeNew(bytes: archive, to: path, mode: 0o600) } catch {
            guard error.exists else {
                terminal.error("cannot write \(out): \(error)", fix: nil)
                return .failure
            }
            terminal.error(
                "\(out) appeared while the report ran, made by something else: it was left as it is and the archive was not written",
                fix: "run the report again with --out naming a new file")
            return .failure
        }
        guard complete else {
            terminal.err(
                "wrote \(out): \(files) files, \(archive.count) bytes; every secret found redacted, but the config does not parse, "
                    + "so not every secret could be found: the Gateway's log and journal and OpenClaw's own reports are left out "
                    + "(manifest.json says why)")
            return .success
        }
        terminal.err("wrote \(out): \(files) files, \(archive.count) bytes; every secret of this machine redacted")
        return .success
    }
}
