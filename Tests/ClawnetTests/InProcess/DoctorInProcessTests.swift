import Avahi
import CommandTestSupport
import DNSSD
import Discovery
import Doctor
import Foundation
import Host
import TestSupport
import Testing

@testable import Commands
@testable import Probes

/// preflight and doctor run in-process with recorded machine facts and a recorded network:
/// their exit status, their JSON, and what a missing prerequisite means. No socket opens and
/// no daemon is asked: every question gets a recorded answer (`InProcessRun` fails a test on
/// one that has none), and each test says which it expects.
@Suite("preflight and doctor in-process (recorded machine and network)")
struct DoctorInProcessTests {
    static var withoutBus: RecordedMachine {
        var machine = RecordedMachine()
        machine.avahiStatus = .unavailable(DiscoveryIssue.noBus)
        return machine
    }

    /// A network on which nothing listens at these ws:// endpoints ("127.0.0.1:18789").
    static func refusing(_ endpoints: [String]) -> RecordedNetwork {
        var answers = RecordedNetwork.Answers()
        for endpoint in endpoints { answers.probes["ws://\(endpoint)"] = refused }
        return RecordedNetwork(answers)
    }

    static let refused: @Sendable (ProbeTarget) -> ProbeReport = { target in
        var report = ProbeReport(target: target)
        report.tcp = target.addresses.map { TCPAttempt(address: $0, outcome: .refused, elapsed: .microseconds(300)) }
        return report
    }

    @Test("preflight --require mdns: 0 on a machine with D-Bus, avahi-daemon and a multicast interface; 3 without D-Bus")
    func mdns() async throws {
        let network = RecordedNetwork()
        let ready = try await InProcessRun.run(["preflight", "--require", "mdns", "--json"], network: .recorded(network))
        #expect(ready.status == 0, "\(ready.out)\(ready.err)")
        let document = try jsonObject(ready.out)
        #expect(document["schema"] as? String == "clawnet.preflight.v2" && document["status"] as? String == "pass", "\(ready.out)")

        let missing = try await InProcessRun.run(["preflight", "--require", "mdns"], machine: Self.withoutBus, network: .recorded(network))
        #expect(missing.status == 3, "\(missing.out)\(missing.err)")
        #expect(missing.out.contains("mdns"), "\(missing.out)")
        #expect(network.asked.isEmpty, "mDNS is decided by the machine's facts alone: \(network.asked)")
    }

    @Test("preflight --require wide-area with no domain given or configured: a missing prerequisite, exit 3; --quiet prints nothing")
    func wideAreaWithoutDomain() async throws {
        let run = try await InProcessRun.run(["preflight", "--require", "wide-area", "--quiet"])
        #expect(run.status == 3)
        #expect(run.out.isEmpty && run.err.isEmpty, "\(run.out)\(run.err)")
    }

    @Test("doctor on a port where nothing listens: gw.tcp fails, exit 1, and the table says how to fix it")
    func refused() async throws {
        let network = Self.refusing(["127.0.0.1:1"])
        let run = try await InProcessRun.run(["doctor", "127.0.0.1:1", "--no-local", "--timeout", "3s"], network: .recorded(network))
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.out.contains("gw.tcp"), "\(run.out)")
        let json = try await InProcessRun.run(
            ["doctor", "127.0.0.1:1", "--no-local", "--timeout", "3s", "--format", "json"], network: .recorded(network))
        let document = try jsonObject(json.out)
        #expect(document["schema"] as? String == "clawnet.doctor.v1" && document["status"] as? String == "fail", "\(json.out)")
        #expect(network.asked == [.probe("ws://127.0.0.1:1"), .probe("ws://127.0.0.1:1")], "\(network.asked)")
    }

    @Test(
        "--server without a wide-area domain is the same usage error (exit 2) for browse, doctor and preflight",
        arguments: ["browse", "doctor", "preflight"])
    func serverWithoutDomain(command: String) async throws {
        let run = try await InProcessRun.run([command, "--no-local", "--server", "127.0.0.1", "--timeout", "2s"])
        #expect(run.status == 2, "\(run.out)\(run.err)")
        #expect(run.err.contains("--server needs a wide-area domain to ask about: add --domain"), "\(run.err)")
        #expect(run.err.contains("Usage: clawnet \(command) "), "the command's own usage: \(run.err)")
    }

    @Test("doctor and preflight --no-local with nothing named still check this machine and 127.0.0.1, and say so in one line")
    func nothingToDiscover() async throws {
        for command in ["doctor", "preflight"] {
            let network = Self.refusing(["127.0.0.1:18789", "127.0.0.1:1"])
            let run = try await InProcessRun.run([command, "--no-local", "--timeout", "2s"], network: .recorded(network))
            let notes = run.err.split(separator: "\n").filter { $0.contains("nothing to discover with --no-local") }
            #expect(notes.count == 1 && notes[0].contains("only this machine and 127.0.0.1:18789 are checked"), "\(command): \(run.err)")
            let named = try await InProcessRun.run([command, "--no-local", "--timeout", "2s", "127.0.0.1:1"], network: .recorded(network))
            #expect(!named.err.contains("nothing to discover"), "\(command) with a TARGET: \(named.err)")
            #expect(network.asked == [.probe("ws://127.0.0.1:18789"), .probe("ws://127.0.0.1:1")], "\(command): \(network.asked)")
        }
    }
}
