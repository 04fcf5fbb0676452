import Foundation
import TestSupport
import Testing

/// watch's discovery events end to end: a Gateway published over mDNS and withdrawn, one pushed
/// into a wide-area zone and deleted, and a stand-in toggled until watch calls it flapping.
/// Every wait is on watch's own JSON Lines events, bounded.
extension WatchCommandTests {
    /// The next event named `event` whose line contains `text`, after line `from`.
    func event(_ watch: ChildProcess, _ event: String, containing text: String, from: Int = 0) async throws -> [String: Any] {
        let line = try await watch.waitForLine(from: from, timeout: .seconds(60), "a \(event) event for \(text)") { line in
            line.stream == .stdout && line.text.contains(#""event":"\#(event)""#) && line.text.contains(text)
        }
        return try jsonObject(line.text)
    }

    /// Runs `body` with `watch`; on a failure, what watch printed goes with it.
    func watching(_ watch: ChildProcess, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            Issue.record("watch output:\n\(watch.outputTail)")
            _ = try? await watch.stop()
            throw error
        }
        #expect(try await watch.stop() == 0, "SIGTERM ends watch cleanly")
    }

    @Test("a Gateway published over mDNS (avahi-publish on gw) appears with source mdns and disappears from mDNS when withdrawn")
    func mdnsAppearsAndDisappears() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let watch = try bed.spawnClawnet(
            ["watch", "--interval", "1s", "--format", "jsonl"], on: .node, environment: ["HOME": bed.directory])
        try await watching(watch) {
            let publisher = try await bed.avahiPublish(name: "Watched \(tag)", txt: ["role=gateway", "gatewayPort=18789"])
            let appeared = try await event(watch, "appeared", containing: tag)
            #expect(appeared["source"] as? String == "mdns", "\(appeared)")
            let mark = watch.lines.count
            publisher.terminate()  // avahi-publish withdraws its service: a goodbye
            let gone = try await event(watch, "disappeared", containing: tag, from: mark)
            #expect(gone["source"] as? String == "mdns", "\(gone)")
            #expect(
                (gone["gateway"] as? [String: Any])?["id"] as? String == (appeared["gateway"] as? [String: Any])?["id"] as? String,
                "the same Gateway: \(gone)")
        }
    }

    @Test("a Gateway pushed into a wide-area zone (nsupdate into BIND) appears with source unicast and disappears when deleted")
    func wideAreaAppearsAndDisappears() async throws {
        let bed = try TestBed.current()
        let key = try await bed.makeTSIGKey()
        let instance = "wa-\(uniqueTag())"
        // One Gateway stays, so that the PTR set exists (TTL 1) before and after the change.
        let zone = openClawZone([
            "$TTL 1", "gw IN A \(bed.ip(.gw))", "_openclaw-gw._tcp IN PTR stays._openclaw-gw._tcp",
            "stays._openclaw-gw._tcp IN SRV 0 0 18789 gw", "stays._openclaw-gw._tcp IN TXT \"role=gateway\"",
        ])
        let dns = try await bed.startBIND(
            zones: ["openclaw.internal": zone], keys: key.bindStatement, zoneOptions: "update-policy { grant \(key.name) zonesub ANY; };")
        defer { dns.terminate() }
        let name = "\(instance)._openclaw-gw._tcp.openclaw.internal."
        func update(_ lines: [String]) async throws {
            let script = (["server \(dns.address) \(dns.port)", "zone openclaw.internal."] + lines + ["send", ""]).joined(separator: "\n")
            let result = try await bed.nsupdate(script, key: key)
            #expect(result.status == 0, "nsupdate: \(result.stderr)")
        }
        let watch = try bed.spawnClawnet(
            [
                "watch", "--no-local", "--domain", "openclaw.internal", "--server", dns.endpoint, "--interval", "1s", "--format", "jsonl",
            ], on: .node, environment: ["HOME": bed.directory])
        try await watching(watch) {
            _ = try await event(watch, "appeared", containing: "stays")
            try await update([
                "update add _openclaw-gw._tcp.openclaw.internal. 1 PTR \(name)", "update add \(name) 1 SRV 0 0 18789 gw.openclaw.internal.",
                "update add \(name) 1 TXT \"role=gateway\"",
            ])
            let appeared = try await event(watch, "appeared", containing: instance)
            #expect(appeared["source"] as? String == "unicast", "\(appeared)")
            let mark = watch.lines.count
            try await update(["update delete _openclaw-gw._tcp.openclaw.internal. PTR \(name)", "update delete \(name)"])
            let gone = try await event(watch, "disappeared", containing: instance, from: mark)
            #expect(gone["source"] as? String == "unicast", "\(gone)")
            #expect(
                !watch.lines.dropFirst(mark).contains { $0.text.contains(#""event":"disappeared""#) && $0.text.contains("stays") },
                "the Gateway that stays is not reported gone")
        }
    }

    @Test("a stand-in stopped and started twice: down, up, down, up, then flapping (4 changes within 10 minutes)")
    func flapping() async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let directory = "\(bed.directory)/watch-tls-\(uniqueTag())"
        var gateway = try await standIn(port: port, directory: directory)
        let url = "wss://\(bed.ip(.gw)):\(port)"
        let watch = try bed.spawnClawnet(
            ["watch", "--no-local", "--manual", url, "--interval", "1s", "--format", "jsonl"], on: .node,
            environment: ["HOME": bed.directory])
        do {
            try await watching(watch) {
                _ = try await event(watch, "up", containing: url)
                for round in 1...2 {
                    var mark = watch.lines.count
                    _ = try await gateway.stop()
                    _ = try await event(watch, "down", containing: url, from: mark)
                    mark = watch.lines.count
                    gateway = try await standIn(port: port, directory: directory)
                    _ = try await event(watch, "up", containing: url, from: mark)
                    let flaps = watch.lines.dropFirst(mark).filter { $0.text.contains(#""event":"flapping""#) }
                    if round == 1 { #expect(flaps.isEmpty, "2 changes are not flapping yet") }
                }
                let flapping = try await event(watch, "flapping", containing: url)
                #expect(flapping["changes"] as? Int == 4, "\(flapping)")
                #expect(flapping["windowMs"] as? Int == 600_000, "\(flapping)")
            }
        } catch {
            _ = try? await gateway.stop()
            throw error
        }
        _ = try? await gateway.stop()
    }
}
