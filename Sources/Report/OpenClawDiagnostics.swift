import Host
/// OpenClaw's own view of this machine, for `clawnet report` (issue "OpenClaw 2", item 9): the
/// answers of `openclaw --version`, `openclaw doctor --lint --json` (`{ok, checksRun,
/// checksSkipped, findings[{checkId, severity, message, path, fixHint}]}`; docs/cli/doctor.md:
/// `--json` is a lint option, and lint neither prompts nor writes) and `openclaw gateway status
/// --json`, each run bounded in time and output. Their text is this machine's: it is scrubbed of
/// every secret like the rest.
package enum OpenClawDiagnostics {
    package static let versionArguments = ["--version"]
    package static let doctorArguments = ["doctor", "--lint", "--json"]
    package static let statusArguments = ["gateway", "status", "--json"]
    /// Node starts in a second or two and OpenClaw's doctor reads its config and state: seconds,
    /// never this long. A CLI that hangs is stopped here (with its children) and named as such.
    package static let minimumTime = Duration.seconds(15)
    /// More than any doctor report; a CLI that prints more is stopped and left out.
    package static let outputLimit = 1 << 20

    package enum Outcome: Sendable {
        /// No `openclaw` in any of these folders.
        case notFound(looked: [String])
        /// Found, and not run: why.
        case refused(path: String, why: String)
        /// Each run, nil when it could not start.
        case ran(path: String, user: UInt32, version: SystemTool.Run?, doctor: SystemTool.Run?, status: SystemTool.Run?)
    }

    /// Finds the CLI in `folders` and runs it three times at once, each within `timeout`.
    package static func gather(folders: [String], user: GatewayUser, environment: [String: String], timeout: Duration) async -> Outcome {
        guard let path = OpenClawCLI.find(in: folders) else { return .notFound(looked: folders) }
        let cli: OpenClawCLI
        switch OpenClawCLI.prepare(path, as: user, environment: environment) {
        case .success(let prepared): cli = prepared
        case .failure(let refusal): return .refused(path: path, why: refusal.why)
        }
        let threads = BlockingThreads.shared
        async let version = threads.value { cli.run(versionArguments, limit: SystemTool.outputLimit, timeout: timeout) }
        async let doctor = threads.value { cli.run(doctorArguments, limit: outputLimit, timeout: timeout) }
        async let status = threads.value { cli.run(statusArguments, limit: outputLimit, timeout: timeout) }
        return .ran(path: path, user: cli.user.uid, version: await version, doctor: await doctor, status: await status)
    }
}
