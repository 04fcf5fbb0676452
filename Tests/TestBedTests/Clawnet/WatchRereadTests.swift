import Foundation
import TestSupport
import Testing

/// SIGHUP with a config whose paths changed: discovery starts again, and a Gateway the old
/// paths and the new ones both list stays on the roster.
extension WatchCommandTests {
    @Test("SIGHUP adding a wide-area domain: its Gateway appears, and one mDNS lists all along does not disappear")
    func hangupWithNewDomainKeepsTheOthers() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let zone = openClawZone([
            "$TTL 1", "gw IN A \(bed.ip(.gw))", "_openclaw-gw._tcp IN PTR wa-\(tag)._openclaw-gw._tcp",
            // Another listener than the one mDNS lists (gw's 18789): another Gateway.
            "wa-\(tag)._openclaw-gw._tcp IN SRV 0 0 18790 gw", "wa-\(tag)._openclaw-gw._tcp IN TXT \"role=gateway\"",
        ])
        let dns = try await bed.startBIND(zones: ["openclaw.internal": zone])
        defer { dns.terminate() }
        let config = "\(bed.directory)/watch-config-\(tag).json"
        try "{}".write(toFile: config, atomically: true, encoding: .utf8)
        let beside = try await bed.avahiPublish(name: "Stays \(tag)", txt: ["role=gateway"])
        defer { beside.terminate() }
        let watch = try bed.spawnClawnet(
            ["watch", "--config", config, "--server", dns.endpoint, "--interval", "1s", "--format", "jsonl"], on: .node,
            environment: ["HOME": bed.directory])
        try await watching(watch) {
            _ = try await event(watch, "appeared", containing: "Stays \(tag)")
            try #"{ discovery: { wideArea: { domain: "openclaw.internal" } } }"#.write(toFile: config, atomically: true, encoding: .utf8)
            let mark = watch.lines.count
            kill(watch.pid, SIGHUP)
            let appeared = try await event(watch, "appeared", containing: "wa-\(tag)", from: mark)
            #expect(appeared["source"] as? String == "unicast", "\(appeared)")
            // Its first verdict (nothing listens on gw's 18789: down) comes after the new session's
            // first rosters, when a Gateway it had not listed yet would have been reported gone.
            try await watch.waitForLine(from: mark, timeout: .seconds(30), "a verdict for wa-\(tag)") { line in
                line.text.contains("wa-\(tag)") && (line.text.contains(#""event":"down""#) || line.text.contains(#""event":"up""#))
            }
            let churn = watch.lines.dropFirst(mark).filter {
                $0.text.contains("Stays \(tag)") && $0.text.contains(#""event":"disappeared""#)
            }
            #expect(churn.isEmpty, "listed by mDNS all along: \(churn.map(\.text))")
            #expect(ids(watch, containing: "Stays \(tag)").count == 1, "one id before and after the SIGHUP: \(watch.stdout)")
        }
    }
}
