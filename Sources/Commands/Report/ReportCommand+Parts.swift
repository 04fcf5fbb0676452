import DNSSD
import DNSUpdate
import Discovery
import Doctor
import Glibc
import Host
import Output
import Report
import Zones

extension ReportCommand {
    /// What ReportSources reads from this machine, on a thread that may block.
    func gather(_ context: CommandContext, configPath: String) async -> ReportSources {
        let home = context.environment["HOME"] ?? "/root"
        let environment = context.environment
        return await BlockingThreads.shared.value {
            ReportSources.gather(home: home, configPath: configPath, environment: environment)
        }
    }

    /// versions.txt, and OpenClaw's own diagnostics (`OpenClawDiagnostics`) when its CLI is
    /// installed; the manifest says why a part is missing.
    func openClawCLI(_ context: CommandContext, into sources: inout ReportSources) async -> [ReportFile] {
        let user = sources.gatewayUser
        let homes = [user.account?.home, context.environment["HOME"]].compactMap { $0 }
        let folders = OpenClawCLI.folders(environment: context.environment, homes: homes)
        let limit = max(timeout.duration, OpenClawDiagnostics.minimumTime)
        let outcome = await OpenClawDiagnostics.gather(folders: folders, user: user, environment: context.environment, timeout: limit)
        let avahi = await BlockingThreads.shared.value { SystemTool.run("/usr/sbin/avahi-daemon", ["--version"]) }
        let (line, absence) = ReportText.openClaw(outcome)
        var versions = ["clawnet: \(Version.line)", line]
        if let absence { sources.omitted.append(absence) }
        var files: [ReportFile] = []
        if case .ran = outcome, !sources.unsure.isEmpty {
            // Some secret of the config is not known: what OpenClaw says of it could hold it.
            sources.omitted.append(("openclaw doctor and gateway status", ReportSources.unsureWhy))
        } else if case .ran(_, _, _, let doctor, let status) = outcome {
            for (name, run, arguments) in [
                ("openclaw-doctor.json", doctor, OpenClawDiagnostics.doctorArguments),
                ("openclaw-gateway-status.json", status, OpenClawDiagnostics.statusArguments),
            ] {
                let kept = ReportText.openClawRun(run, file: name, timeout: limit, limit: OpenClawDiagnostics.outputLimit)
                if let output = kept.output { files.append(ReportFile(name, output)) }
                if let note = kept.note { sources.omitted.append(("openclaw \(arguments.joined(separator: " "))", note)) }
            }
        }
        versions.append(ReportText.version("avahi-daemon", avahi, looked: ["/usr/sbin/avahi-daemon"]))
        if avahi == nil { sources.omitted.append(("avahi-daemon version", "not installed (/usr/sbin/avahi-daemon)")) }
        return [ReportFile("versions.txt", text: versions.joined(separator: "\n") + "\n")] + files
    }

    /// Each wide-area domain's zone as served (`ServedZoneText`), from --server or the system's
    /// resolvers; the manifest says why one is absent.
    func servedZones(_ domains: [DomainName], into sources: inout ReportSources) async {
        guard !domains.isEmpty else {
            sources.omitted.append(("wide-area zone", "no wide-area domain (discovery.wideArea.domain in the config, or --domain)"))
            return
        }
        let servers = serverOption.servers.isEmpty ? ResolvConf().servers : serverOption.servers
        for domain in domains.prefix(Self.maxZones) {
            switch await ServedZoneText.read(domain, servers: servers, timeout: timeout.duration) {
            case .success(let text): sources.files.append(ReportFile(ReportFile.zoneName(domain.name), text: text, origin: .network))
            case .failure(let failure): sources.omitted.append(("zone \(domain.name)", "not read: \(failure.message)"))
            }
        }
        if domains.count > Self.maxZones {
            sources.omitted.append(("wide-area zones", "only the first \(Self.maxZones) of \(domains.count) domains are read"))
        }
    }

    /// Wide-area domains whose zone is read: a config names one, --domain a few.
    static let maxZones = 4
}
