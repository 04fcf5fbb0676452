import Foundation
import TestSupport
import Testing

/// Uses the test bed's "watch" host alone: it stops and restarts that host's avahi-daemon.
@Suite("browse --watch survives avahi-daemon restarts", .testBed)
struct WatchRecoveryTests {
    @Test("daemon killed: an error event; restarted: recovery, with changes made meanwhile")
    func recoversAfterRestart() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let before = try await bed.avahiPublish(name: "Before \(tag)", txt: ["role=gateway"])
        defer { before.terminate() }

        let watcher = try bed.spawnClawnet(["browse", "--watch", "--format", "jsonl"], on: .watch)
        defer { watcher.terminate() }
        try await watcher.waitForLine(timeout: .seconds(15), "added Before") {
            $0.text.contains("\"added\"") && $0.text.contains("Before \(tag)")
        }
        try await watcher.waitForLine(timeout: .seconds(15), "allForNow") { $0.text.contains("\"allForNow\"") }

        try await bed.control("avahi", "stop", "watch")
        let errorLine = try await watcher.waitForLine(timeout: .seconds(10), "an error event") { $0.text.contains("\"error\"") }
        let index = watcher.lines.count
        let error = try #require(try jsonObject(errorLine.text)["error"] as? [String: Any])
        #expect(error["kind"] as? String == "daemonLost" || error["kind"] as? String == "daemonMissing")
        #expect((error["message"] as? String)?.contains("waiting for it to come back") == true)
        #expect(error["fix"] is String)

        // Changes while the daemon is down are picked up after it returns.
        let during = try await bed.avahiPublish(name: "During \(tag)", txt: ["role=gateway"])
        defer { during.terminate() }
        try await bed.control("avahi", "start", "watch")

        try await watcher.waitForLine(from: index, timeout: .seconds(20), "added During") {
            $0.text.contains("\"added\"") && $0.text.contains("During \(tag)")
        }
        try await watcher.waitForLine(from: index, timeout: .seconds(20), "a second allForNow") { $0.text.contains("\"allForNow\"") }
        let afterRestart = watcher.lines.dropFirst(index)
        #expect(!afterRestart.contains { $0.text.contains("\"removed\"") && $0.text.contains("Before \(tag)") }, "still there: not removed")

        // And it still follows the network: a goodbye is a removal.
        try await before.stop()
        try await watcher.waitForLine(from: index, timeout: .seconds(10), "removed Before") {
            $0.text.contains("\"removed\"") && $0.text.contains("Before \(tag)")
        }
        #expect(watcher.isRunning)
    }
}
