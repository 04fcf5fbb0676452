import Avahi
import DNSSD
import Doctor
import Host
import Report

/// The words of the text files `clawnet report` writes into its archive.
package enum ReportText {
    /// avahi.txt: avahi-daemon's state, as doctor's avahi check says it.
    package static func avahi(_ status: AvahiStatus) -> String {
        switch status {
        case .running(let version, let host): "avahi-daemon is running: \(version), this host is \(host) in mDNS\n"
        case .unavailable(let issue):
            "avahi-daemon is not available: \(DiscoveryIssueText(issue).message)\n"
                + (DiscoveryIssueText(issue).fix.map { "fix: \($0)\n" } ?? "")
        }
    }

    /// The width doctor.txt is wrapped to.
    static let doctorWidth = 100

    /// doctor.txt: every check, the diagnosis and the snippets as `clawnet doctor --all` prints
    /// them, without colour, and its summary line.
    package static func doctor(_ result: DoctorResult) -> String {
        let recording = TerminalRecording()
        let terminal = Terminal(recordingTo: recording)
        let report = DoctorReport(result, width: doctorWidth)
        let lines = report.full(terminal)
        terminal.out(lines: lines.out + lines.err)
        if let summary = report.summary(terminal, exit: report.exitStatus.rawValue) { terminal.out(summary) }
        return recording.out
    }

    /// A line of versions.txt for a tool: its answer, or why there is none.
    package static func version(_ tool: String, _ run: SystemTool.Run?, looked: [String]) -> String {
        guard let run else { return "\(tool): not installed (looked in \(looked.joined(separator: ", ")))" }
        let text = SafeText.line(String(decoding: run.output.prefix(512), as: UTF8.self).trimmingSpaces())
        return run.end == .exited(0) ? "\(tool): \(text)" : "\(tool): `--version` \(ended(run.end))"
    }

    /// versions.txt's line for the openclaw CLI, and the manifest's note when it was not run.
    package static func openClaw(_ outcome: OpenClawDiagnostics.Outcome) -> (version: String, omitted: (path: String, why: String)?) {
        switch outcome {
        case .notFound(let looked):
            return (
                version("openclaw", nil, looked: looked), ("openclaw", "not installed: no openclaw in \(looked.joined(separator: ", "))")
            )
        case .refused(let path, let why):
            return ("openclaw: \(path) not run", (path, "not run: \(why)"))
        case .ran(let path, let uid, let run, _, _):
            let line = run.map { version("openclaw", $0, looked: []) } ?? "openclaw: could not be started"
            return (line + " (\(path), run as \(Ownership.user(uid)))", nil)
        }
    }

    /// What the archive keeps of one run of the openclaw CLI: its output when it exited (its exit
    /// status is the finding's, 1 for `doctor --lint` with findings), and the manifest's note when
    /// it did not exit 0 or did not finish.
    package static func openClawRun(_ run: SystemTool.Run?, file: String, timeout: Duration, limit: Int) -> (
        output: [UInt8]?, note: String?
    ) {
        guard let run else { return (nil, "could not be started") }
        switch run.end {
        case .exited(0): return (run.output, nil)
        case .exited: return (run.output, ended(run.end) + "; its output is in \(file)")
        case .signalled, .timedOut, .tooMuchOutput: return (nil, ended(run.end, timeout: timeout, limit: limit) + ": left out")
        }
    }

    /// How a run ended, for the manifest: "exited with status 2", "did not finish within 15 s".
    package static func ended(_ end: SystemTool.Run.End, timeout: Duration? = nil, limit: Int? = nil) -> String {
        switch end {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "was killed by signal \(signal)"
        case .timedOut: "did not finish within \(timeout.map { "\($0.secondsText(fractionDigits: 0)) s" } ?? "its time") and was stopped"
        case .tooMuchOutput: "printed more than \(limit.map { "\($0 >> 10) KiB" } ?? "its limit") and was stopped"
        }
    }
}
