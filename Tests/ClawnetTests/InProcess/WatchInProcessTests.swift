import CommandTestSupport
import DNSSD
import Discovery
import Foundation
import TestSupport
import Testing

@testable import Commands

/// watch run in-process with recorded discovery: a path's error is an event, and a watch that
/// can discover nothing at all ends with 3, as browse does. No Avahi, no DNS.
@Suite("watch in-process (recorded discovery)")
struct WatchInProcessTests {
    static let noBus = DiscoveryEvent.error(DiscoveryIssue.noBus)

    @Test("mDNS the only path and no D-Bus: an error event (jsonl and table) and exit 3, long before --timeout")
    func onlyPathFails() async throws {
        let json = try await InProcessRun.run(
            ["watch", "--format", "jsonl", "--timeout", "10m"], discovery: RecordedDiscovery(events: [Self.noBus]))
        #expect(json.status == 3, "\(json.out)\(json.err)")
        let event = try jsonObject(try #require(json.outLines.first, "no line: \(json.err)"))
        let error = try #require(event["error"] as? [String: Any], "\(event)")
        #expect(event["event"] as? String == "error" && event["time"] is String && event["gateway"] == nil, "\(event)")
        #expect(
            error["kind"] as? String == "busMissing" && error["source"] as? String == "mdns" && error["code"] as? String == "busNotRunning")
        #expect((error["fix"] as? String)?.hasPrefix("start D-Bus") == true, "\(error)")
        #expect(json.err.contains("nothing to watch: mDNS is the only path"), "\(json.err)")

        let table = try await InProcessRun.run(["watch", "--timeout", "10m"], discovery: RecordedDiscovery(events: [Self.noBus]))
        #expect(table.status == 3, "\(table.out)\(table.err)")
        #expect(table.out.contains("  error  mdns  the D-Bus system bus is not running (no socket at "), "\(table.out)")
        #expect(table.out.contains("(fix: start D-Bus: `sudo systemctl start dbus`"), "\(table.out)")
    }

    @Test("another path beside mDNS: the error is printed and watch goes on (until --timeout, exit 0)")
    func otherPathsGoOn() async throws {
        let run = try await InProcessRun.run(
            ["watch", "--manual", "127.0.0.1:9", "--format", "jsonl", "--timeout", "1s"], discovery: RecordedDiscovery(events: [Self.noBus])
        )
        #expect(run.status == 0, "\(run.out)\(run.err)")
        #expect(run.out.contains(#""event":"error""#), "\(run.out)")
        #expect(!run.err.contains("nothing to watch"), "\(run.err)")
    }
}
