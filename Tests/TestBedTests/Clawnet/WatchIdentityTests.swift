import Foundation
import TestSupport
import Testing

/// One Gateway across paths and over time (issue 31), end to end: a TLS stand-in on gw that
/// avahi-daemon advertises (`clawnet advertise --serve --tls-dir`), BIND serving the wide-area
/// zone, watch on node. Every step waits on watch's own events; /metrics and /sd are read
/// between steps.
extension WatchCommandTests {
    /// A stand-in on gw that avahi-daemon on gw advertises as `name`, its TLS pair in `directory`.
    func advertisedStandIn(_ name: String, port: Int, directory: String) async throws -> ChildProcess {
        let bed = try TestBed.current()
        let process = try bed.spawnClawnet(
            ["advertise", "--name", name, "--serve", "--port", String(port), "--tls-dir", directory], on: .gw)
        try await process.waitForOutput("like a Gateway (TLS 1.3, sha256 ", timeout: .seconds(30))
        return process
    }

    /// Waits until avahi-daemon on node lists a beacon named with `tag` (a Gateway that is
    /// running when watch starts, as a user's is): browse, at most ten times.
    func listedByMDNS(_ tag: String) async throws {
        let bed = try TestBed.current()
        for _ in 0..<10 {
            let (_, document, _) = try await browseJSON(bed, [])
            if beacons(document).contains(where: { ($0["instance"] as? String)?.contains(tag) == true }) { return }
        }
        Issue.record("node's avahi-daemon never listed \(tag)")
    }

    /// The `clawnet_gateway_up` samples of an exposition, by their `gateway` label.
    func upSeries(_ exposition: String) -> [String: String] {
        var series: [String: String] = [:]
        for line in exposition.split(separator: "\n") where line.hasPrefix("clawnet_gateway_up{gateway=\"") {
            let rest = line.dropFirst("clawnet_gateway_up{gateway=\"".count)
            guard let end = rest.firstIndex(of: "\"") else { continue }
            series[String(rest[..<end])] = line.split(separator: " ").last.map(String.init)
        }
        return series
    }

    /// Watch's JSON Lines events about the Gateway `id`, as `event` or `event source`.
    func events(_ watch: ChildProcess, of id: String, from: Int = 0) -> [String] {
        watch.lines.dropFirst(from).filter { $0.stream == .stdout }.compactMap { line in
            guard let object = try? jsonObject(line.text), (object["gateway"] as? [String: Any])?["id"] as? String == id,
                let name = object["event"] as? String
            else { return nil }
            return (object["source"] as? String).map { "\(name) \($0)" } ?? name
        }
    }

    /// The Gateway ids of watch's events whose line holds `text`.
    func ids(_ watch: ChildProcess, containing text: String) -> Set<String> {
        Set(
            watch.lines.filter { $0.stream == .stdout && $0.text.contains(text) }.compactMap { line in
                ((try? jsonObject(line.text))?["gateway"] as? [String: Any])?["id"] as? String
            })
    }

    /// True when `expected` comes in `all` in its order (other events may come between).
    func inOrder(_ expected: [String], in all: [String]) -> Bool {
        var rest = all[...]
        for event in expected {
            guard let index = rest.firstIndex(of: event) else { return false }
            rest = rest[(index + 1)...]
        }
        return true
    }

    /// The /sd group of `id`, if /sd lists it.
    func serviceDiscovery(_ metrics: String, _ id: String) async throws -> [String: Any]? {
        let list = try JSONSerialization.jsonObject(with: Data(try await fetch("http://\(metrics)/sd").utf8)) as? [[String: Any]]
        return list?.first { ($0["labels"] as? [String: String])?["__meta_clawnet_gateway"] == id }
    }

    @Test(
        "a TARGET that mDNS lists too is one Gateway under the TARGET's id, probed again and again; mDNS adds its path, nothing disappears")
    func targetListedByMDNS() async throws {
        let bed = try TestBed.current()
        let (port, tag) = (testPort(), uniqueTag())
        let gateway = try await advertisedStandIn("Named \(tag) (OpenClaw)", port: port, directory: "\(bed.directory)/watch-tls-\(tag)")
        defer { gateway.terminate() }
        let url = "wss://\(bed.ip(.gw)):\(port)"
        let watch = try bed.spawnClawnet(
            ["watch", url, "--interval", "1s", "--format", "jsonl", "--metrics-listen", "127.0.0.1:0"], on: .node,
            environment: ["HOME": bed.directory])
        try await watching(watch) {
            let serving = try await watch.waitForLine(timeout: .seconds(30), "the metrics address") { $0.text.contains("serving /metrics") }
            let metrics = String(try #require(serving.text.split(separator: " ").last))
            let id = "manual|\(bed.ip(.gw)):\(port)"
            _ = try await event(watch, "up", containing: id)
            // The probes go on: three more after the first up.
            var probes = 0
            for _ in 0..<60 where probes < 4 {
                let exposition = try await fetch("http://\(metrics)/metrics")
                probes =
                    exposition.split(separator: "\n").first { $0.hasPrefix("clawnet_probes_total ") }.flatMap {
                        Int($0.split(separator: " ")[1])
                    } ?? 0
                if probes < 4 { try await Task.sleep(for: .milliseconds(500)) }
            }
            #expect(probes >= 4, "probed again and again: \(probes) probes")
            let seen = events(watch, of: id)
            #expect(seen.sorted() == ["appeared manual", "appeared mdns", "up"], "one Gateway, each path once: \(seen)")
            #expect(ids(watch, containing: tag) == [id], "one id for the TARGET and its mDNS beacon: \(watch.stdout)")
            let group = try #require(try await serviceDiscovery(metrics, id), "/sd lists it")
            #expect((group["labels"] as? [String: String])?["__meta_clawnet_sources"] == "manual,mdns", "\(group)")
        }
    }

    @Test(
        "seen by mDNS and a BIND zone: appeared per path once and up once; goodbye, restart with a renewed certificate, record removed, stopped: one id, up 1 -> 0 -> 1 -> 0, /sd kept"
    )
    func twoPathsOverTime() async throws {
        let bed = try TestBed.current()
        let (port, tag) = (testPort(), uniqueTag())
        let key = try await bed.makeTSIGKey()
        let label = "flap-\(tag)-gateway"
        let name = "Flap \(tag) (OpenClaw)"
        var gateway = try await advertisedStandIn(name, port: port, directory: "\(bed.directory)/watch-tls-\(tag)-1")
        // The zone advertises the first certificate and keeps it through the renewal, as a zone
        // nobody re-published does: after the renewal a beacon disagrees (the zone's), whether or
        // not mDNS has announced the new one by the probe that sees it.
        let zone = openClawZone([
            "$TTL 1", "gw IN A \(bed.ip(.gw))", "_openclaw-gw._tcp IN PTR \(label)._openclaw-gw._tcp",
            "\(label)._openclaw-gw._tcp IN SRV 0 0 \(port) gw",
            "\(label)._openclaw-gw._tcp IN TXT \"displayName=Flap \(tag)\" \"role=gateway\" \"transport=gateway\" \"gatewayPort=\(port)\" "
                + "\"gatewayTls=1\" \"gatewayTlsSha256=\(try fingerprint(of: gateway))\"",
        ])
        let dns = try await bed.startBIND(
            zones: ["openclaw.internal": zone], keys: key.bindStatement, zoneOptions: "update-policy { grant \(key.name) zonesub ANY; };")
        defer { dns.terminate() }
        try await listedByMDNS(tag)
        let watch = try bed.spawnClawnet(
            [
                "watch", "--domain", "openclaw.internal", "--server", dns.endpoint, "--interval", "1s", "--format", "jsonl",
                "--metrics-listen", "127.0.0.1:0",
            ], on: .node, environment: ["HOME": bed.directory])
        do {
            try await watching(watch) {
                let serving = try await watch.waitForLine(timeout: .seconds(30), "the metrics address") {
                    $0.text.contains("serving /metrics")
                }
                let metrics = String(try #require(serving.text.split(separator: " ").last))
                let up = try await event(watch, "up", containing: tag)
                let id = try #require((up["gateway"] as? [String: Any])?["id"] as? String)
                #expect(events(watch, of: id).sorted() == ["appeared mdns", "appeared unicast", "up"], "\(events(watch, of: id))")
                #expect(upSeries(try await fetch("http://\(metrics)/metrics"))[id] == "1")

                // The Gateway stops: goodbye on mDNS, the zone still lists it.
                var mark = watch.lines.count
                _ = try await gateway.stop()
                let down = try await event(watch, "down", containing: id, from: mark)
                #expect(down["check"] as? String == "gw.tcp" && down["diagnosis"] as? String == "gateway-not-listening", "\(down)")
                #expect(upSeries(try await fetch("http://\(metrics)/metrics"))[id] == "0", "the same series, at 0")
                #expect(try await serviceDiscovery(metrics, id) != nil, "/sd keeps it")

                // It starts again with a new certificate on the same listener: the same Gateway.
                mark = watch.lines.count
                gateway = try await advertisedStandIn(name, port: port, directory: "\(bed.directory)/watch-tls-\(tag)-2")
                _ = try await event(watch, "up", containing: id, from: mark)
                let renewed = try await event(watch, "certificateChanged", containing: id, from: mark)
                #expect(renewed["from"] as? String != renewed["to"] as? String)
                #expect(renewed["beaconAgrees"] is Bool, "the zone advertises a fingerprint: whether a beacon agrees is said: \(renewed)")
                let series = upSeries(try await fetch("http://\(metrics)/metrics"))
                #expect(series[id] == "1" && series.keys.filter { $0.contains(tag) }.count <= 1, "one series: \(series)")

                // The record leaves the zone: the unicast path says so; mDNS still lists it.
                mark = watch.lines.count
                let update = """
                    server \(dns.address) \(dns.port)
                    zone openclaw.internal.
                    update delete _openclaw-gw._tcp.openclaw.internal. PTR \(label)._openclaw-gw._tcp.openclaw.internal.
                    update delete \(label)._openclaw-gw._tcp.openclaw.internal.
                    send

                    """
                let sent = try await bed.nsupdate(update, key: key)
                #expect(sent.status == 0, "nsupdate: \(sent.stderr)")
                let unlisted = try await event(watch, "disappeared", containing: id, from: mark)
                #expect(unlisted["source"] as? String == "unicast" && unlisted["forgetAt"] == nil, "\(unlisted)")

                // Stopped again: no path lists it now; kept, probed, down, until forgetAt.
                mark = watch.lines.count
                _ = try await gateway.stop()
                let gone = try await event(watch, "disappeared", containing: id, from: mark)
                #expect(gone["source"] as? String == "mdns" && gone["forgetAt"] is String, "\(gone)")
                _ = try await event(watch, "down", containing: id, from: mark)
                #expect(upSeries(try await fetch("http://\(metrics)/metrics"))[id] == "0")
                let kept = try #require(try await serviceDiscovery(metrics, id), "/sd keeps a Gateway no path lists")
                #expect((kept["labels"] as? [String: String])?["__meta_clawnet_sources"] == "", "\(kept)")
                let all = events(watch, of: id)
                // The probe may reach the restarted Gateway before mDNS has announced it again.
                let expected = [
                    "appeared mdns", "appeared unicast", "up", "disappeared mdns", "down", "certificateChanged", "up",
                    "disappeared unicast",
                    "disappeared mdns", "down",
                ]
                #expect(inOrder(expected, in: all) && inOrder(["down", "appeared mdns", "disappeared unicast"], in: all), "\(all)")
                #expect(all.filter { $0.hasPrefix("appeared") }.count == 3 && !all.contains("forgotten"), "\(all)")
                #expect(all.filter { $0 == "certificateChanged" }.count == 1, "the renewal reported once: \(all)")
                #expect(ids(watch, containing: tag) == [id], "every event of the Gateway under one id: \(watch.stdout)")
                try await expectMatches(watch.stdout, "clawnet.watch-event.v2", lines: true, "watch --format jsonl", bed: bed)
            }
        } catch {
            gateway.terminate()
            throw error
        }
        gateway.terminate()
    }

    @Test("firewalled (nft drop on gw): down with gw.tcp, the same id, /sd kept; the rule gone: up again")
    func firewalled() async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let gateway = try await standIn(port: port, directory: "\(bed.directory)/watch-tls-\(uniqueTag())")
        defer { gateway.terminate() }
        let url = "wss://\(bed.ip(.gw)):\(port)"
        let table = "clawnet_watch_\(port)"
        let rules = """
            table inet \(table) {
              chain input { type filter hook input priority 0; policy accept; tcp dport \(port) drop; }
            }

            """
        let file = "\(bed.directory)/nft-\(uniqueTag()).conf"
        try rules.write(toFile: file, atomically: true, encoding: .utf8)
        let watch = try bed.spawnClawnet(
            ["watch", "--no-local", url, "--interval", "1s", "--format", "jsonl", "--metrics-listen", "127.0.0.1:0"], on: .node,
            environment: ["HOME": bed.directory])
        var failure: (any Error)?
        do {
            try await watching(watch) {
                let serving = try await watch.waitForLine(timeout: .seconds(30), "the metrics address") {
                    $0.text.contains("serving /metrics")
                }
                let metrics = String(try #require(serving.text.split(separator: " ").last))
                let id = "manual|\(bed.ip(.gw)):\(port)"
                _ = try await event(watch, "up", containing: id)
                var mark = watch.lines.count
                let added = try await bed.run(on: .gw, ["nft", "-f", file])
                #expect(added.status == 0, "\(added.stderr)")
                let down = try await event(watch, "down", containing: id, from: mark)
                #expect(down["check"] as? String == "gw.tcp", "\(down)")
                #expect(upSeries(try await fetch("http://\(metrics)/metrics"))[id] == "0")
                #expect(try await serviceDiscovery(metrics, id) != nil)
                mark = watch.lines.count
                _ = try await bed.run(on: .gw, ["nft", "delete", "table", "inet", table])
                _ = try await event(watch, "up", containing: id, from: mark)
                #expect(Set(events(watch, of: id)) == ["appeared manual", "up", "down"], "one id throughout")
            }
        } catch {
            failure = error
        }
        _ = try? await bed.run(on: .gw, ["nft", "delete", "table", "inet", table])
        if let failure { throw failure }
    }
}
