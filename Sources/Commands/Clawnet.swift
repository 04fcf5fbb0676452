import ArgumentParser
import Glibc
import Output

/// The root command. The `clawnet` executable only calls `main`; the commands live in this
/// library so that tests run them in-process, exactly as the binary does.
package struct Clawnet: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "clawnet",
        abstract: "Find OpenClaw Gateways on the network and tell why a node cannot reach one.",
        discussion: """
            Nodes find their Gateway by mDNS in local. (_openclaw-gw._tcp), by unicast DNS-SD in a \
            wide-area domain such as openclaw.internal., or by a host and port typed in. clawnet \
            browses those paths and explains what is broken.

            Commands: doctor (why can this node not reach its Gateway?), preflight (a yes or \
            no for install scripts), browse (what can this machine discover?), advertise \
            (does mDNS cross this network?), zone (serve Gateways to a tailnet by unicast \
            DNS-SD), watch (tell when Gateways go up or down; Prometheus metrics), report \
            (one archive to attach to an issue, secrets redacted). \
            `clawnet help COMMAND` describes each; so does its man page, such as clawnet-doctor(1).

            With --format json, doctor, preflight, browse and zone check print documents whose \
            JSON Schemas are in /usr/share/clawnet/schemas (docs/schemas in the source).

            Examples:

                clawnet doctor
                clawnet browse --domain openclaw.internal
                clawnet preflight --quiet --require mdns || echo "no mDNS here"

            \(ExitStatus.contract)
            """,
        version: Version.line,
        subcommands: [
            DoctorCommand.self, PreflightCommand.self, BrowseCommand.self, AdvertiseCommand.self, ZoneCommand.self, WatchCommand.self,
            ReportCommand.self,
        ]
    )

    package init() {}

    /// Parses, builds the one `CommandContext` of this process and runs the command with it;
    /// then the exit status: what the command's result means, or `status(after:)` of what
    /// stopped it, once its output is accounted for (`StandardStreams`).
    package static func main() async {
        // A reader that goes away is an EPIPE that StandardStreams handles, not a signal that
        // kills clawnet in the middle of its work.
        signal(SIGPIPE, SIG_IGN)
        var status: Int32
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let unknown = CommandNames.unknown(in: arguments, root: Clawnet.self) {
            Terminal(color: false).err(linesOf: runtimeUsage(ValidationError(unknown.message), of: unknown.parent))
            Glibc.exit(StandardStreams.exitStatus(ExitStatus.usage.rawValue))
        }
        if let twice = StandardInputUse.twice(arguments) {
            Terminal(color: false).err("Error: \(twice)")
            Glibc.exit(ExitStatus.usage.rawValue)
        }
        do {
            var command = try parseAsRoot()
            if let clawnetCommand = command as? any ClawnetCommand {
                status = await execute(clawnetCommand, context: .live(clawnetCommand.global))
            } else if command is Clawnet || command is ZoneCommand {
                // `clawnet` and `clawnet zone` alone name nothing to run: a usage error (as `git`
                // or `ip` alone), their help on standard error.
                Terminal(color: false).err(linesOf: helpMessage(for: type(of: command)))
                status = ExitStatus.usage.rawValue
            } else {
                // `--help` and `help COMMAND`: ArgumentParser's help command prints it.
                try command.run()
                status = ExitStatus.success.rawValue
            }
        } catch {
            status = usage(error)
        }
        Glibc.exit(StandardStreams.exitStatus(status))
    }

    /// Runs what `parseAsRoot` returned with `context`, as `main` would (a test's in-process run);
    /// nil when it is not a command that runs.
    package static func execute(parsed: any ParsableCommand, context: CommandContext) async -> Int32? {
        guard let command = parsed as? any ClawnetCommand else { return nil }
        return await execute(command, context: context)
    }

    /// Runs a parsed command with `context`: the status its result means, or `status(after:)`
    /// of what stopped it.
    static func execute(_ command: any ClawnetCommand, context: CommandContext) async -> Int32 {
        do { return try await command.run(context).rawValue } catch {
            let note = (command as? any ReadsConfig).flatMap { ConfigNote.line(context.config($0.configPath)) }
            return status(after: error, of: type(of: command), terminal: context.terminal, note: note)
        }
    }

    /// The one mapping from what stopped a command to its exit code: ArgumentParser's errors
    /// (a usage error found while running, such as --server without a domain) as ArgumentParser
    /// reports them, with `command`'s usage; clawnet's printed (`ErrorLines`) and mapped by `ExitStatus.of`.
    /// `note`: a line said after the error (an OpenClaw config that could not be used).
    static func status(after error: any Error, of command: any ParsableCommand.Type, terminal: Terminal, note: String? = nil) -> Int32 {
        if error is ValidationError {
            terminal.err(linesOf: runtimeUsage(error, of: command, note: note))
            return ExitStatus.usage.rawValue
        }
        guard !isArgumentParsers(error) else {
            defer { note.map { terminal.err($0) } }
            return usage(error, terminal: terminal)
        }
        terminal.err(lines: ErrorLines.lines(error, terminal: terminal) + (note.map { [$0] } ?? []))
        return ExitStatus.of(error).rawValue
    }

    /// A usage error found while `command` ran, as ArgumentParser words one found while parsing
    /// it: the message, then that command's usage line (not the top-level one) and where its help is.
    static func runtimeUsage(_ error: any Error, of command: any ParsableCommand.Type, note: String? = nil) -> String {
        let path = commandPath(to: command, from: Clawnet.self) ?? [Clawnet._commandName, command._commandName]
        return "Error: \(message(for: error))\n\(note.map { $0 + "\n" } ?? "")Usage: \(usageString(for: command))\n"
            + "  See '\(path.joined(separator: " ")) --help' for more information."
    }

    /// The names from `root` down to `command` ("clawnet zone push"); nil when it is not under `root`.
    static func commandPath(to command: any ParsableCommand.Type, from root: any ParsableCommand.Type) -> [String]? {
        if ObjectIdentifier(root) == ObjectIdentifier(command) { return [root._commandName] }
        for subcommand in root.configuration.subcommands {
            if let path = commandPath(to: command, from: subcommand) { return [root._commandName] + path }
        }
        return nil
    }

    /// An error ArgumentParser reports (a usage error, help, --version, an exit code).
    static func isArgumentParsers(_ error: any Error) -> Bool {
        error is ValidationError || error is CleanExit || error is ExitCode
    }

    /// What ArgumentParser's `exit(withError:)` prints and returns, through Terminal: it exits
    /// 64 on usage errors, clawnet's contract says 2. Everything it prints (help, --version,
    /// errors) goes through Terminal, so that a failed write is noticed (`StandardStreams`)
    /// like any other.
    private static func usage(_ error: any Error, terminal: Terminal = Terminal(color: false)) -> Int32 {
        let code = exitCode(for: error)
        if code == .validationFailure {
            terminal.err(linesOf: fullMessage(for: error))
            return ExitStatus.usage.rawValue
        }
        let message = fullMessage(for: error)
        if !message.isEmpty {
            if code == .success { terminal.out(linesOf: message) } else { terminal.err(linesOf: message) }
        }
        return code.rawValue
    }
}

extension ReportFormat: ExpressibleByArgument {}
extension BrowseFormat: ExpressibleByArgument {}
