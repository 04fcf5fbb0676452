import Avahi
import DNSSD
import Discovery
import Foundation
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
}
