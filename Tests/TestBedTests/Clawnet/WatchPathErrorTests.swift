import Foundation
import TestSupport
import Testing

/// A discovery path that cannot run, with the real binary: watch says so as an event and, when
/// it was the only path, ends with 3 instead of watching nothing in silence.
extension WatchCommandTests {
    @Test("no D-Bus and mDNS the only path: an error event (matching the schema) and exit 3 before --timeout")
    func withoutBusWatchSaysSoAndExits() async throws {
        let bed = try TestBed.current()
        let environment = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent", "HOME": bed.directory]
        let json = try await bed.run(
            on: .node, [ClawnetBinary.path, "watch", "--format", "jsonl", "--timeout", "30s"], environment: environment,
            timeout: .seconds(25))
        #expect(json.status == 3, "exit \(json.status): \(json.stdout)\(json.stderr)")
        let line = try #require(json.stdout.split(separator: "\n").first.map(String.init), "no event: \(json.stderr)")
        let error = try #require(try jsonObject(line)["error"] as? [String: Any], "\(line)")
        #expect(error["kind"] as? String == "busMissing" && error["source"] as? String == "mdns", "\(line)")
        try await expectMatches(json.stdout, "clawnet.watch-event.v2", lines: true, "watch's error event", bed: bed)

        let table = try await bed.run(
            on: .node, [ClawnetBinary.path, "watch", "--timeout", "30s"], environment: environment, timeout: .seconds(25))
        #expect(table.status == 3 && table.stdout.contains("  error  mdns  "), "exit \(table.status): \(table.stdout)\(table.stderr)")
        #expect(table.stderr.contains("nothing to watch"), "\(table.stderr)")
    }
}
