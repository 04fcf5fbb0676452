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
package struct CommandContext: Sendable {
    package var terminal: Terminal
    /// The process's environment (NO_COLOR, OPENCLAW_*, HOME, XDG_STATE_HOME, SSL_CERT_FILE...).
    package var environment: [String: String]
    package var clock: CommandClock
    /// This machine: its interfaces, host name and the facts doctor inspects.
    package var machine: Machine
    /// The network as doctor and preflight ask it: discovery, look-ups, probes.
    package var network: DoctorIO
    package var standardInput: StandardInput
    /// Where relative paths start.
    package var workingDirectory: String
    /// SIGINT and SIGTERM (and a stdout whose reader went away), for a command that runs until
    /// it is stopped; made when asked, so that the handlers are set only by those commands.
    package var termination: @Sendable () -> AsyncStream<Int32>
    /// Runs the handler once stdout can no longer be written (its reader went away, the disk
    /// is full): a command that would run on (browse --watch) stops then.
    package var onOutputGone: @Sendable (_ handler: @escaping @Sendable () -> Void) -> Void
    /// SIGHUP, for a command that rereads its configuration (watch); made when asked.
    package var hangups: @Sendable () -> AsyncStream<Void> = { Signals.hangups() }

    package init(
        terminal: Terminal, environment: [String: String], clock: CommandClock, machine: Machine, network: DoctorIO,
        standardInput: StandardInput, workingDirectory: String, termination: @escaping @Sendable () -> AsyncStream<Int32>,
        onOutputGone: @escaping @Sendable (_ handler: @escaping @Sendable () -> Void) -> Void,
        hangups: @escaping @Sendable () -> AsyncStream<Void> = { Signals.hangups() }
    ) {
        self.terminal = terminal
        self.environment = environment
        self.clock = clock
        self.machine = machine
        self.network = network
        self.standardInput = standardInput
        self.workingDirectory = workingDirectory
        self.termination = termination
        self.onOutputGone = onOutputGone
        self.hangups = hangups
    }

    /// Discovery (mDNS, unicast DNS-SD, manual targets): the network's, which doctor uses too.
    package var discovery: any Discovering { network.discovery }

    /// The OpenClaw config (`--config`, else the default path), as the machine reads it.
    package func config(_ path: String?) -> OpenClawConfig {
        machine.inspector(path).config()
    }
}

/// The two clocks a command reads: monotonic time for deadlines, the calendar for serials.
package struct CommandClock: Sendable {
    package var now: @Sendable () -> ContinuousClock.Instant = { .now }
    /// Seconds since the epoch.
    package var unixSeconds: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    package var today: UTCDay { UTCDay(unixSeconds: unixSeconds()) }

    package init(
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        unixSeconds: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.now = now
        self.unixSeconds = unixSeconds
    }
}

/// The machine a command runs on.
package struct Machine: Sendable {
    package var interfaces: @Sendable () -> [NetworkInterface]
    package var hostName: @Sendable () -> String
    /// What doctor and preflight inspect, reading the OpenClaw config at this path (nil: the default).
    package var inspector: @Sendable (_ configPath: String?) -> any SystemInspector
    /// Whether avahi-daemon can be asked (to publish, for advertise).
    package var avahi: @Sendable (AvahiPurpose) async -> AvahiStatus

    package init(
        interfaces: @escaping @Sendable () -> [NetworkInterface], hostName: @escaping @Sendable () -> String,
        inspector: @escaping @Sendable (_ configPath: String?) -> any SystemInspector,
        avahi: @escaping @Sendable (AvahiPurpose) async -> AvahiStatus
    ) {
        self.interfaces = interfaces
        self.hostName = hostName
        self.inspector = inspector
        self.avahi = avahi
    }
}

/// Standard input as `zone check -` reads it.
package struct StandardInput: Sendable {
    package var isTerminal: Bool
    /// Everything to the end, at most `limit` bytes.
    package var read: @Sendable (_ limit: Int) throws(StandardInputFailure) -> [UInt8]

    package init(isTerminal: Bool, read: @escaping @Sendable (_ limit: Int) throws(StandardInputFailure) -> [UInt8]) {
        self.isTerminal = isTerminal
        self.read = read
    }
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
