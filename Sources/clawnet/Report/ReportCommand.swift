import Archive
import ArgumentParser
import Avahi
import DNSSD
import DNSUpdate
import Discovery
import Doctor
import FoundationEssentials
import Glibc
import Host
import Output
import Zones

struct ReportCommand: ClawnetCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one archive to attach to an issue: what doctor and browse see, and this machine's network, secrets redacted.",
        usage: "clawnet report [<options>] --out <FILE>",
        discussion: """
            Writes --out FILE, a tar.gz with: doctor.json and browse.json, versions.txt \
            (clawnet, OpenClaw when installed, Avahi, the kernel, the distribution), the OpenClaw \
            config with every secret replaced by [REDACTED] (tokens, passwords, SecretRef ids, \
            private keys; the keys kept), the env file OpenClaw loads (.env in its state folder, \
            ~/.openclaw or OPENCLAW_STATE_DIR) the same way, resolv.conf, the \
            nsswitch hosts line, interfaces and routes, avahi-daemon's state, each wide-area \
            domain's zone as served (by AXFR, else its Gateways' RRsets; from --server or the \
            system's resolvers), the end of the Gateway's own log and its journal lines (where \
            a systemd journal runs) on a Gateway host, and manifest.json naming every file, \
            every redaction and every part left out and why. Device identities and credential \
            files are never included. Before anything is written, every secret found (in the \
            config, the env file, the identity and credential files, this process's \
            environment) is searched for in every file, as it is, in hexadecimal and in base64, \
            and replaced. No option turns redaction off.

            FILE must not exist yet: the report never replaces a file.

            Examples:

                clawnet report --out clawnet-report.tar.gz
                tar -tzf clawnet-report.tar.gz

            \(ExitStatus.status(
                (.success, "the archive was written"),
                (.failure, "it could not be written"),
                (.usage, "usage error: a bad flag or value, or FILE exists")))
            """
    )

    @Option(
        name: .customLong("out"), help: ArgumentHelp("The archive to write (a new file).", valueName: "FILE"), completion: .file(),
        transform: Arguments.outputPath)
    var out: String

    @OptionGroup var serverOption: ServersOption<Words>

    @OptionGroup var timeout: TimeoutOption<Words>

    @OptionGroup var config: ConfigOption<Words>

    @OptionGroup var global: GlobalOptions

    enum Words: ServersWording, TimeoutWording, ConfigWording {
        static let serversHelp = "A DNS server for the wide-area domains, browsed and read as served, instead of the system's (repeatable)."
        static let timeoutHelp = "How long doctor, browse and each zone read may take (e.g. 5s). Default 5s each."
        static let defaultTimeout: Duration = .seconds(5)
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let path = out.hasPrefix("/") ? out : "\(context.workingDirectory)/\(out)"
        var status = stat()
        if lstat(path, &status) == 0 { throw ValidationError("--out \(out): exists; the report writes only a new file") }
        let terminal = context.terminal
        terminal.progress("checking this machine and discovering Gateways …")
        let system = context.machine.inspector(config.path)
        let openClaw = system.config()
        // The archive's doctor.json says it too; the person running report should know now.
        openClaw.warnings.forEach { terminal.err("warning: \($0)") }
        var files: [(name: String, content: [UInt8])] = []
        var options = DoctorOptions()
        options.timeout = timeout.duration
        options.read(environment: context.environment)
        let doctor = DoctorReport(await Doctor.run(options, system: system))
        files.append(("doctor.json", Array((try JSONOutput.pretty(doctor) + "\n").utf8)))
        var discoveryOptions = DiscoveryOptions()
        discoveryOptions.servers = serverOption.servers
        let request = DiscoveryRequest(discoveryOptions, config: openClaw, interfaces: context.machine.interfaces())
        let snapshot = await context.discovery.snapshot(request, timeout: timeout.duration)
        files.append(("browse.json", Array((try JSONOutput.pretty(BrowseReport(request: request, snapshot: snapshot)) + "\n").utf8)))
        files.append(("avahi.txt", Array("\(await context.machine.avahi(.browse))\n".utf8)))
        let home = context.environment["HOME"] ?? "/root"
        let environment = context.environment
        var sources = await BlockingThreads.shared.value {
            ReportSources.gather(home: home, configPath: openClaw.path, environment: environment)
        }
        files.append(("versions.txt", Array(await versions(into: &sources).utf8)))
        await servedZones(request.domains, into: &sources)
        terminal.clearProgress()
        let archive = try ReportArchive.make(files + sources.files, sources: sources, created: Date())
        do { try AtomicFile.write(bytes: archive, to: path, mode: 0o600) } catch {
            terminal.error("cannot write \(out): \(error)", fix: nil)
            return .failure
        }
        terminal.err("wrote \(out): \(files.count + sources.files.count + 1) files, \(archive.count) bytes; every secret redacted")
        return .success
    }

    /// Each wide-area domain's zone as served (`ServedZoneText`), from --server or the system's
    /// resolvers; the manifest says why one is absent.
    private func servedZones(_ domains: [DomainName], into sources: inout ReportSources) async {
        guard !domains.isEmpty else {
            sources.omitted.append(("wide-area zone", "no wide-area domain (discovery.wideArea.domain in the config)"))
            return
        }
        let servers = serverOption.servers.isEmpty ? ResolvConf().servers : serverOption.servers
        for domain in domains.prefix(Self.maxZones) {
            switch await ServedZoneText.read(domain, servers: servers, timeout: timeout.duration) {
            case .success(let text): sources.files.append(("zone-\(domain.name)txt", Array(text.utf8)))
            case .failure(let failure): sources.omitted.append(("zone \(domain.name)", "not read: \(failure.message)"))
            }
        }
    }

    /// Wide-area domains whose zone is read: a config names one, --domain a few.
    static let maxZones = 4

    /// clawnet's own version and the tools' (each asked with a bounded run); a tool found at
    /// none of its paths is named as such, in the text and in the manifest.
    private func versions(into sources: inout ReportSources) async -> String {
        let (lines, missing) = await BlockingThreads.shared.value {
            var lines = ["clawnet: \(Version.line)"]
            var missing: [(String, String)] = []
            for (name, paths) in [
                ("openclaw", ["/usr/bin/openclaw", "/usr/local/bin/openclaw"]), ("avahi-daemon", ["/usr/sbin/avahi-daemon"]),
            ] {
                if let output = paths.lazy.compactMap({ SystemTool.output($0, ["--version"]) }).first {
                    lines.append("\(name): \(String(decoding: output, as: UTF8.self).trimmingSpaces())")
                } else {
                    let why = "not installed, or \(name) --version failed (looked at \(paths.joined(separator: ", ")))"
                    lines.append("\(name): \(why)")
                    missing.append(("\(name) version", why))
                }
            }
            return (lines, missing)
        }
        sources.omitted += missing
        return lines.joined(separator: "\n") + "\n"
    }
}
