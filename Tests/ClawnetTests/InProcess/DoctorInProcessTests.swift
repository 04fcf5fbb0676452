import Avahi
import DNSSD
import Discovery
import Foundation
import Host
import TestSupport
import Testing

@testable import clawnet

/// preflight and doctor run in-process with recorded machine facts: their exit status, their
/// JSON, and what a missing prerequisite means. Probes go to 127.0.0.1 only.
@Suite("preflight and doctor in-process (recorded machine)")
struct DoctorInProcessTests {
    static var withoutBus: RecordedMachine {
        var machine = RecordedMachine()
        machine.avahiStatus = .unavailable(
            DiscoveryIssue(source: .mdns, kind: .busMissing, message: "no D-Bus system bus", fix: "start dbus"))
        return machine
    }

    @Test("preflight --require mdns: 0 on a machine with D-Bus, avahi-daemon and a multicast interface; 3 without D-Bus")
    func mdns() async throws {
        let ready = try await InProcessRun.run(["preflight", "--require", "mdns", "--json"])
        #expect(ready.status == 0, "\(ready.out)\(ready.err)")
        let document = try jsonObject(ready.out)
        #expect(document["schema"] as? String == "clawnet.preflight.v2" && document["status"] as? String == "pass", "\(ready.out)")

        let missing = try await InProcessRun.run(["preflight", "--require", "mdns"], machine: Self.withoutBus)
        #expect(missing.status == 3, "\(missing.out)\(missing.err)")
        #expect(missing.out.contains("mdns"), "\(missing.out)")
    }

    @Test("preflight --require wide-area with no domain given or configured: a missing prerequisite, exit 3; --quiet prints nothing")
    func wideAreaWithoutDomain() async throws {
        let run = try await InProcessRun.run(["preflight", "--require", "wide-area", "--quiet"])
        #expect(run.status == 3)
        #expect(run.out.isEmpty && run.err.isEmpty, "\(run.out)\(run.err)")
    }

    @Test("doctor on a port where nothing listens: gw.tcp fails, exit 1, and the table says how to fix it")
    func refused() async throws {
        let run = try await InProcessRun.run(["doctor", "127.0.0.1:1", "--no-local", "--timeout", "3s"])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.out.contains("gw.tcp"), "\(run.out)")
        let json = try await InProcessRun.run(["doctor", "127.0.0.1:1", "--no-local", "--timeout", "3s", "--format", "json"])
        let document = try jsonObject(json.out)
        #expect(document["schema"] as? String == "clawnet.doctor.v1" && document["status"] as? String == "fail", "\(json.out)")
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

    @Test("watch --server without a domain yet: a note that it is asked once the config names one (SIGHUP rereads it)")
    func watchServerWaitsForDomain() async throws {
        let run = try await InProcessRun.run(["watch", "--server", "127.0.0.1", "--timeout", "1s"])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        #expect(run.err.contains("watch: --server is asked once the config names a wide-area domain"), "\(run.err)")
        let nothing = try await InProcessRun.run(["watch", "--no-local", "--server", "127.0.0.1", "--timeout", "1s"])
        #expect(nothing.status == 2 && nothing.err.contains("nothing to watch with --no-local"), "\(nothing.err)")
    }

    @Test("watch --no-local with no domain, no TARGET and no node config watches nothing: a usage error, as browse's")
    func nothingToWatch() async throws {
        let run = try await InProcessRun.run(["watch", "--no-local", "--timeout", "2s"])
        #expect(run.status == 2, "\(run.out)\(run.err)")
        #expect(run.err.contains("nothing to watch with --no-local: give --domain (and --server if needed) or a TARGET"), "\(run.err)")
        var node = RecordedMachine()
        node.openclaw.node.mode = .remote
        node.openclaw.node.remoteURL = try EndpointSpec(parsing: "ws://127.0.0.1:1")
        let watched = try await InProcessRun.run(["watch", "--no-local", "--timeout", "1s"], machine: node)
        #expect(watched.status == 0, "a node's configured Gateway is something to watch: \(watched.out)\(watched.err)")
    }

    @Test("doctor and preflight --no-local with nothing named still check this machine and 127.0.0.1, and say so in one line")
    func nothingToDiscover() async throws {
        for command in ["doctor", "preflight"] {
            let run = try await InProcessRun.run([command, "--no-local", "--timeout", "2s"])
            let notes = run.err.split(separator: "\n").filter { $0.contains("nothing to discover with --no-local") }
            #expect(notes.count == 1 && notes[0].contains("only this machine and 127.0.0.1:18789 are checked"), "\(command): \(run.err)")
            let named = try await InProcessRun.run([command, "--no-local", "--timeout", "2s", "127.0.0.1:1"])
            #expect(!named.err.contains("nothing to discover"), "\(command) with a TARGET: \(named.err)")
        }
    }
}
