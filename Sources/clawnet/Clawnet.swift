import ArgumentParser
import Glibc
import Output

@main
struct Clawnet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clawnet",
        abstract: "Find OpenClaw Gateways on the network and tell why a node cannot reach one.",
        discussion: """
            Nodes find their Gateway by mDNS in local. (_openclaw-gw._tcp), by unicast DNS-SD in a \
            wide-area domain such as openclaw.internal., or by a host and port typed in. clawnet \
            browses those paths and explains what is broken.

            Commands: doctor (why can this node not reach its Gateway?), preflight (a yes or \
            no for install scripts), browse (what can this machine discover?), advertise \
            (does mDNS cross this network?), zone (serve Gateways to a tailnet by unicast \
            DNS-SD). `clawnet help COMMAND` describes each; so does its man page, such as \
            clawnet-doctor(1).

            With --format json, doctor, preflight, browse and zone check print documents whose \
            JSON Schemas are in /usr/share/clawnet/schemas (docs/schemas in the source).

            Examples:

                clawnet doctor
                clawnet browse --domain openclaw.internal
                clawnet preflight --quiet --require mdns || echo "no mDNS here"

            \(ExitStatus.contract)
            """,
        version: Version.line,
        subcommands: [DoctorCommand.self, PreflightCommand.self, BrowseCommand.self, AdvertiseCommand.self, ZoneCommand.self]
    )

    /// ArgumentParser exits 64 on usage errors; clawnet's contract says 2. Everything it
    /// prints (help, --version, errors) goes through Terminal, so that a failed write is
    /// noticed (`StandardStreams`) like any other.
    static func main() async {
        // A reader that goes away is an EPIPE that StandardStreams handles, not a signal that
        // kills clawnet in the middle of its work.
        signal(SIGPIPE, SIG_IGN)
        var status = ExitStatus.success.rawValue
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            status = report(error)
        }
        Glibc.exit(StandardStreams.exitStatus(status))
    }

    /// What ArgumentParser's `exit(withError:)` prints and returns, through Terminal.
    private static func report(_ error: any Error) -> Int32 {
        let code = exitCode(for: error)
        if code == .validationFailure {
            Terminal(color: false).err(linesOf: fullMessage(for: error))
            return ExitStatus.usage.rawValue
        }
        let message = fullMessage(for: error)
        if !message.isEmpty {
            let terminal = Terminal(color: false)
            if code == .success { terminal.out(linesOf: message) } else { terminal.err(linesOf: message) }
        }
        return code.rawValue
    }
}

extension ReportFormat: ExpressibleByArgument {}

/// How browse prints its result: jsonl streams events as they happen.
enum BrowseFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case table, json, jsonl
}

extension ExitStatus {
    /// Thrown to end a command with this status.
    var code: ExitCode { ExitCode(rawValue) }

    /// Ends the command with this status (nothing to do for success).
    func exit() throws {
        if self != .success { throw code }
    }
}
