import ArgumentParser
import Avahi
import Commands
import DNSSD
import Discovery
import Doctor
import Foundation
import Host
import Output
import Synchronization
import TestSupport

/// The machine a command runs on in-process: recorded facts, what `LiveSystem` would read.
package struct RecordedMachine: SystemInspector {
    package var hostName = "studio.example"
    package var networkInterfaces = [
        NetworkInterface(name: "lo", addresses: [IPAddress("127.0.0.1")!], isUp: true, isLoopback: true, supportsMulticast: false),
        NetworkInterface(name: "eth0", addresses: [IPAddress("192.168.1.20")!], isUp: true, isLoopback: false, supportsMulticast: true),
    ]
    package var avahiStatus = AvahiStatus.running(version: "avahi 0.8", hostName: "studio.local")
    package var busAddress = "unix:path=/run/dbus/system_bus_socket"
    package var openclaw = OpenClawConfig(path: "/nonexistent/openclaw.json")
    package var resolv = ResolvConf(path: "/etc/resolv.conf", text: "nameserver 127.0.0.53\n")

    package init() {}

    /// This machine on a tailnet: a `tailscale0` with a Tailscale address.
    package static func onTailnet(_ address: String = "100.101.102.103") -> RecordedMachine {
        var machine = RecordedMachine()
        machine.networkInterfaces.append(
            NetworkInterface(name: "tailscale0", addresses: [IPAddress(address)!], isUp: true, isLoopback: false, supportsMulticast: false))
        return machine
    }

    package func busSocketExists() -> Bool? { true }
    package func avahi() -> AvahiStatus { avahiStatus }
    package func avahiInstalled() -> Bool { true }
    package func interfaces() -> [NetworkInterface] { networkInterfaces }
    package func udp5353Holders() -> PortHolders { PortHolders(sockets: 1, holders: [PortHolders.Holder(pid: 410, name: "avahi-daemon")]) }
    package func nsswitchHosts() -> String? { "hosts: files mdns4_minimal [NOTFOUND=return] dns" }
    package func resolvConf() -> ResolvConf { resolv }
    package func usesSystemdResolved() -> Bool { false }
    package func config() -> OpenClawConfig { openclaw }
}

/// What a command run in-process asks of the network (doctor's look-ups and probes).
package enum InProcessNetwork {
    /// Recorded answers only: no socket, no daemon; a question without a recorded answer
    /// fails the test.
    case recorded(RecordedNetwork)
    /// This process's own network (a test bed's namespace, a stand-in Gateway on 127.0.0.1).
    case live
}

/// A command run in-process: parsed from its arguments as the binary parses them, run with a
/// recorded context (`Clawnet.execute`, as `main` runs it), its output read back.
package struct InProcessRun {
    package let status: Int32
    package let recording: TerminalRecording

    package var out: String { recording.out }
    package var err: String { recording.err }
    package var outLines: [String] { out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    package var errLines: [String] { err.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    /// 1 January 2027, 12:00 UTC: serials are 2027010101 and so on.
    package static let fixedUnixSeconds: Int64 = 1_798_804_800

    package static func run(
        _ arguments: [String], machine: RecordedMachine = RecordedMachine(), discovery: any Discovering = RecordedDiscovery(events: []),
        network: InProcessNetwork = .recorded(RecordedNetwork()),
        environment: [String: String] = ["HOME": "/nonexistent", "XDG_STATE_HOME": testStateHome],
        standardInput: [UInt8]? = nil, workingDirectory: String = "/tmp", termination: AsyncStream<Int32> = AsyncStream { _ in },
        recording: TerminalRecording = TerminalRecording()
    ) async throws -> InProcessRun {
        let io: DoctorIO
        switch network {
        case .recorded(let recorded): io = recorded.io(discovery: discovery)
        case .live: io = .live(discovery: discovery)
        }
        let context = CommandContext(
            terminal: Terminal(recordingTo: recording), environment: environment,
            clock: CommandClock(unixSeconds: { fixedUnixSeconds }),
            machine: Machine(
                interfaces: { machine.networkInterfaces }, hostName: { machine.hostName }, inspector: { _ in machine },
                avahi: { _ in machine.avahiStatus }),
            network: io,
            standardInput: StandardInput(isTerminal: false, read: { _ in standardInput ?? [] }),
            workingDirectory: workingDirectory, termination: { termination }, onOutputGone: { _ in })
        let command = try Clawnet.parseAsRoot(arguments)
        guard let status = await Clawnet.execute(parsed: command, context: context) else {
            throw InProcessRunError.notRunnable(arguments)
        }
        if case .recorded(let recorded) = network, !recorded.unanswered.isEmpty {
            throw InProcessRunError.askedUnanswered(arguments, questions: recorded.unanswered.map { "\($0)" })
        }
        return InProcessRun(status: status, recording: recording)
    }
}

/// Why an in-process run could not be trusted. A library target, so no `Testing` here: the
/// release build (the man-page plugin builds every target) has no Testing module; the test
/// that called `run` fails on the thrown error and prints it.
package enum InProcessRunError: Error, CustomStringConvertible {
    case notRunnable([String])
    case askedUnanswered([String], questions: [String])

    package var description: String {
        switch self {
        case .notRunnable(let arguments): "\(arguments) is not a command that runs"
        case .askedUnanswered(let arguments, let questions):
            "\(arguments.joined(separator: " ")) asked the network, with no recorded answer: "
                + questions.joined(separator: "; ")
        }
    }
}
