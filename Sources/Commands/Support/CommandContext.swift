import Avahi
import DNSSD
import Discovery
import Doctor
import FoundationEssentials
import Glibc
import Host
import Output

/// Everything a command takes from the world besides its arguments, built once: by the entry
/// point for this process (`live`), or by a test that runs a command in-process with a
/// recorded terminal, a fixed calendar, a recorded network and recorded machine facts. A
/// command reads none of these any other way.
struct CommandContext: Sendable {
    var terminal: Terminal
    /// The process's environment (NO_COLOR, OPENCLAW_*, HOME, XDG_STATE_HOME, SSL_CERT_FILE...).
    var environment: [String: String]
    var clock: CommandClock
    /// This machine: its interfaces, host name and the facts doctor inspects.
    var machine: Machine
    /// The network as doctor and preflight ask it: discovery, look-ups, probes.
    var network: DoctorIO
    var standardInput: StandardInput
    /// Where relative paths start.
    var workingDirectory: String
    /// SIGINT and SIGTERM (and a stdout whose reader went away), for a command that runs until
    /// it is stopped; made when asked, so that the handlers are set only by those commands.
    var termination: @Sendable () -> AsyncStream<Int32>
    /// Runs the handler once stdout can no longer be written (its reader went away, the disk
    /// is full): a command that would run on (browse --watch) stops then.
    var onOutputGone: @Sendable (_ handler: @escaping @Sendable () -> Void) -> Void
    /// SIGHUP, for a command that rereads its configuration (watch); made when asked.
    var hangups: @Sendable () -> AsyncStream<Void> = { Signals.hangups() }

    /// Discovery (mDNS, unicast DNS-SD, manual targets): the network's, which doctor uses too.
    var discovery: any Discovering { network.discovery }

    /// The OpenClaw config (`--config`, else the default path), as the machine reads it.
    func config(_ path: String?) -> OpenClawConfig {
        machine.inspector(path).config()
    }
}

/// The two clocks a command reads: monotonic time for deadlines, the calendar for serials.
struct CommandClock: Sendable {
    var now: @Sendable () -> ContinuousClock.Instant = { .now }
    /// Seconds since the epoch.
    var unixSeconds: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    var today: UTCDay { UTCDay(unixSeconds: unixSeconds()) }
}

/// The machine a command runs on.
struct Machine: Sendable {
    var interfaces: @Sendable () -> [NetworkInterface]
    var hostName: @Sendable () -> String
    /// What doctor and preflight inspect, reading the OpenClaw config at this path (nil: the default).
    var inspector: @Sendable (_ configPath: String?) -> any SystemInspector
    /// Whether avahi-daemon can be asked (to publish, for advertise).
    var avahi: @Sendable (AvahiPurpose) async -> AvahiStatus
}

/// Standard input as `zone check -` reads it.
struct StandardInput: Sendable {
    var isTerminal: Bool
    /// Everything to the end, at most `limit` bytes.
    var read: @Sendable (_ limit: Int) throws(StandardInputFailure) -> [UInt8]
}

extension CommandContext {
    /// This process: its streams, environment, clocks and machine. Logging is set up here, once.
    static func live(_ options: GlobalOptions) -> CommandContext {
        let environment = ProcessInfo.processInfo.environment
        options.bootstrapLogging()
        return CommandContext(
            terminal: Terminal(color: options.colorAllowed(environment: environment)), environment: environment, clock: CommandClock(),
            machine: Machine(
                interfaces: { NetworkInterface.current() }, hostName: { HostName.current() },
                inspector: { LiveSystem(configPath: $0, environment: environment) }, avahi: { await AvahiStatus.query(for: $0) }),
            network: .live(discovery: LiveDiscovery()),
            standardInput: StandardInput(
                isTerminal: isatty(STDIN_FILENO) == 1,
                read: { limit throws(StandardInputFailure) in
                    try StandardInputReader.read(limit: limit)
                }),
            workingDirectory: FileManager.default.currentDirectoryPath, termination: { Signals.termination() },
            onOutputGone: { StandardStreams.onStdoutFailure($0) })
    }
}
