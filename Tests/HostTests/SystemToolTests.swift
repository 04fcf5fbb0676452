import Foundation
import Host
import Testing

/// The bounded runner for the system tools doctor reads: real processes, each bound asserted.
@Suite("system tools are run bounded")
struct SystemToolTests {
    @Test("a tool's output is read to its end; a failing or missing tool gives nil")
    func outputs() {
        #expect(SystemTool.output("/bin/echo", ["NRestarts=3"]).map { String(decoding: $0, as: UTF8.self) } == "NRestarts=3\n")
        #expect(SystemTool.output("/bin/false", []) == nil)
        #expect(SystemTool.output("/nonexistent/resolvectl", ["status"]) == nil)
    }

    @Test("a tool that overruns its time or its output limit is killed and gives nil")
    func bounds() {
        #expect(SystemTool.output("/bin/sleep", ["30"], timeout: .milliseconds(200)) == nil)
        #expect(SystemTool.output("/usr/bin/yes", [], limit: 64 << 10) == nil)
    }

    @Test("a tool that closes its stdout and goes on running is killed at the deadline, its output kept")
    func closedOutputStillRunning() {
        let started = ContinuousClock.now
        let run = SystemTool.run("/bin/sh", ["-c", "echo early; exec >&-; sleep 30"], timeout: .milliseconds(300))
        let waited = ContinuousClock.now - started
        #expect(run?.end == .timedOut, "\(String(describing: run))")
        #expect(run.map { String(decoding: $0.output, as: UTF8.self) } == "early\n")
        #expect(waited < .seconds(10), "waited \(waited) for a tool bounded to 300 ms")
    }
}
