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

struct ReportCommand: ClawnetCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one archive to attach to an issue: what doctor and browse see, and this machine's network, secrets redacted.",
        discussion: """
            Writes --out FILE, a tar.gz with: doctor.json and browse.json, versions.txt \
            (clawnet, OpenClaw when installed, Avahi, the kernel, the distribution), the OpenClaw \
            config with every secret replaced by [REDACTED] (tokens, passwords, SecretRef ids, \
            private keys; the keys kept), the env file beside it the same way, resolv.conf, the \
            nsswitch hosts line, interfaces and routes, avahi-daemon's state, the end of the \
            Gateway's own log on a Gateway host, and manifest.json naming every file and every \
            redaction. Device identities and credential files are never included. Before \
            anything is written, every secret found (in the config, the env file, the \
            identity and credential files, this process's environment) is searched for in \
            every file, as it is, in hexadecimal and in base64, and replaced. No option turns \
            redaction off.

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

    @Option(name: .customLong("out"), help: ArgumentHelp("The archive to write (a new file).", valueName: "FILE"))
    var out: String

    @OptionGroup var timeout: TimeoutOption<Words>

    @OptionGroup var config: ConfigOption<Words>

    @OptionGroup var global: GlobalOptions

    enum Words: TimeoutWording, ConfigWording {
        static let timeoutHelp = "How long doctor and browse may take (e.g. 5s). Default 5s each."
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
        var files: [(name: String, content: [UInt8])] = []
        var options = DoctorOptions()
        options.timeout = timeout.duration
        options.read(environment: context.environment)
        let doctor = DoctorReport(await Doctor.run(options, system: system))
        files.append(("doctor.json", Array((try JSONOutput.pretty(doctor) + "\n").utf8)))
        let request = DiscoveryRequest(DiscoveryOptions(), config: openClaw, interfaces: context.machine.interfaces())
        let snapshot = await context.discovery.snapshot(request, timeout: timeout.duration)
        files.append(("browse.json", Array((try JSONOutput.pretty(BrowseReport(request: request, snapshot: snapshot)) + "\n").utf8)))
        files.append(("versions.txt", Array(await versions().utf8)))
        files.append(("avahi.txt", Array("\(await context.machine.avahi(.browse))\n".utf8)))
        let home = context.environment["HOME"] ?? "/root"
        let environment = context.environment
        let sources = await BlockingThreads.shared.value {
            ReportSources.gather(home: home, configPath: openClaw.path, environment: environment)
        }
        terminal.clearProgress()
        let archive = try ReportArchive.make(files + sources.files, sources: sources, created: Date())
        do { try AtomicFile.write(bytes: archive, to: path, mode: 0o600) } catch {
            terminal.error("cannot write \(out): \(error)", fix: nil)
            return .failure
        }
        terminal.err("wrote \(out): \(files.count + sources.files.count + 1) files, \(archive.count) bytes; every secret redacted")
        return .success
    }

    /// clawnet's own version and the tools' (each asked with a bounded run).
    private func versions() async -> String {
        await BlockingThreads.shared.value {
            var lines = ["clawnet: \(Version.line)"]
            for (name, path, arguments) in [
                ("openclaw", "/usr/bin/openclaw", ["--version"]), ("openclaw", "/usr/local/bin/openclaw", ["--version"]),
                ("avahi-daemon", "/usr/sbin/avahi-daemon", ["--version"]),
            ] {
                if let output = SystemTool.output(path, arguments) {
                    lines.append("\(name): \(String(decoding: output, as: UTF8.self).trimmingSpaces())")
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
