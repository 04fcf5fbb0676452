import Foundation
import TestSupport
import Testing

/// A Gateway that stays down for another reason: watch prints a new `down` with the new
/// check and diagnosis, as the metrics count the new diagnosis.
extension WatchCommandTests {
    @Test("down while nothing listens, then down again when a Gateway with another certificate than the pin starts there")
    func downCauseChanges() async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let url = "wss://\(bed.ip(.gw)):\(port)"
        let config = "\(bed.directory)/watch-config-\(uniqueTag()).json"
        try #"{ gateway: { mode: "remote", remote: { url: "\#(url)", tlsFingerprint: "\#(String(repeating: "ab", count: 32))" } } }"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let watch = try bed.spawnClawnet(
            ["watch", "--no-local", "--config", config, "--interval", "1s", "--format", "jsonl"], on: .node,
            environment: ["HOME": bed.directory])
        var gateway: ChildProcess?
        do {
            try await watching(watch) {
                let refused = try await event(watch, "down", containing: url)
                #expect(refused["check"] as? String == "gw.tcp", "\(refused)")
                let mark = watch.lines.count
                gateway = try await standIn(port: port, directory: "\(bed.directory)/watch-tls-\(uniqueTag())")
                let pinned = try await event(watch, "down", containing: url, from: mark)
                #expect(pinned["check"] as? String == "gw.pin" && pinned["diagnosis"] as? String == "pin-changed", "\(pinned)")
                #expect((pinned["fix"] as? String)?.isEmpty == false, "doctor's fix for the new cause: \(pinned)")
                let ups = watch.lines.dropFirst(mark).filter { $0.text.contains(#""event":"up""#) && $0.text.contains(url) }
                #expect(ups.isEmpty, "still down: \(ups.map(\.text))")
            }
        } catch {
            _ = try? await gateway?.stop()
            throw error
        }
        _ = try? await gateway?.stop()
    }
}
