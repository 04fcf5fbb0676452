import CommandTestSupport
import DNSSD
import Foundation
import Host
import Testing

@testable import Commands

/// watch run in-process on a recorded machine: what it refuses, and what it waits for, before
/// it watches anything.
@Suite("watch in-process: its paths before it starts (recorded machine)")
struct WatchPathsInProcessTests {
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
}
