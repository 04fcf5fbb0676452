import Foundation
import TestSupport
import Testing

/// `clawnet watch` end to end in the test bed: a stand-in Gateway on gw that goes down, comes
/// back and changes its certificate, watched from node; its /metrics checked by promtool and
/// scraped (with the Gateways found through /sd) by a real Prometheus.
@Suite("clawnet watch against a stand-in, promtool and Prometheus", .serialized, .testBed)
struct WatchCommandTests {
    /// A stand-in on gw without a beacon, its TLS pair kept in `directory`.
    func standIn(port: Int, directory: String) async throws -> ChildProcess {
        let bed = try TestBed.current()
        let process = try bed.spawnClawnet(
            ["advertise", "--serve-only", "--port", String(port), "--tls-dir", directory, "--bind", bed.ip(.gw)], on: .gw)
        try await process.waitForOutput("like a Gateway (TLS 1.3, sha256 ", timeout: .seconds(30))
        return process
    }

    /// The SHA-256 of the certificate a stand-in says it serves.
    func fingerprint(of standIn: ChildProcess) throws -> String {
        let serving = try #require(standIn.lines.first { $0.text.contains("sha256 ") })
        return String(try #require(serving.text.split(separator: " ").last?.dropLast()))
    }

    /// The next JSON Lines event of `watch` named `event`, after line `from`.
    func event(_ watch: ChildProcess, _ event: String, from: Int = 0, timeout: Duration = .seconds(40)) async throws -> [String: Any] {
        let line = try await watch.waitForLine(from: from, timeout: timeout, "a \(event) event") { line in
            line.stream == .stdout && line.text.contains(#""event":"\#(event)""#)
        }
        return try jsonObject(line.text)
    }

    func fetch(_ url: String) async throws -> String {
        let result = try await TestBed.current().run(on: .node, ["curl", "-sf", "--max-time", "5", url], timeout: .seconds(15))
        #expect(result.status == 0, "curl \(url): \(result.stderr)")
        return result.stdout
    }

    @Test(
        "watch reports up, down with doctor's check and diagnosis, up again and the new certificate; metrics pass promtool and a real Prometheus scrapes them"
    )
    func goesDownComesBackNewCertificate() async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let first = "\(bed.directory)/watch-tls-\(uniqueTag())"
        let second = "\(bed.directory)/watch-tls-\(uniqueTag())"
        var gateway = try await standIn(port: port, directory: first)
        let url = "wss://\(bed.ip(.gw)):\(port)"
        let watch = try bed.spawnClawnet(
            ["watch", "--no-local", "--manual", url, "--interval", "1s", "--format", "jsonl", "--metrics-listen", "127.0.0.1:0"], on: .node,
            environment: ["HOME": bed.directory])
        var prometheus: ChildProcess?
        var failure: (any Error)?
        do {
            let serving = try await watch.waitForLine(timeout: .seconds(30), "the metrics address") { $0.text.contains("serving /metrics") }
            let metrics = String(try #require(serving.text.split(separator: " ").last))
            let appeared = try await event(watch, "appeared")
            #expect(appeared["source"] as? String == "manual")
            #expect((appeared["gateway"] as? [String: Any])?["url"] as? String == url)
            _ = try await event(watch, "up")

            let exposition = try await fetch("http://\(metrics)/metrics")
            #expect(exposition.contains(#"clawnet_gateway_up{gateway="manual|\#(bed.ip(.gw)):\#(port)""#), "\(exposition)")
            let check = try await bed.run(on: .node, ["sh", "-c", "curl -sf http://\(metrics)/metrics | promtool check metrics"])
            #expect(check.status == 0, "promtool check metrics: \(check.stdout)\(check.stderr)")

            prometheus = try await startPrometheus(metrics: metrics)
            let scraper = try #require(prometheus)
            try await waitForQuery(scraper, "clawnet_gateway_up == 1")

            let mark = watch.lines.count
            _ = try await gateway.stop()
            let down = try await event(watch, "down", from: mark)
            #expect(down["check"] as? String == "gw.tcp", "\(down)")
            #expect(down["diagnosis"] as? String == "nothing-listens", "\(down)")
            #expect((down["cause"] as? String)?.isEmpty == false, "\(down)")
            #expect((down["fix"] as? String)?.isEmpty == false, "\(down)")
            try await waitForQuery(scraper, "clawnet_gateway_up == 0")

            let back = watch.lines.count
            gateway = try await standIn(port: port, directory: second)
            let changed = try await event(watch, "certificateChanged", from: back)
            #expect(changed["from"] as? String != changed["to"] as? String)
            _ = try await event(watch, "up", from: back)
            try await waitForQuery(scraper, "changes(clawnet_gateway_certificate_not_after_seconds[10m]) >= 1 and clawnet_gateway_up == 1")
            try await waitForQuery(scraper, "min_over_time(clawnet_gateway_up[10m]) == 0")
            let targets = try await fetch("http://\(prometheusAddress)/api/v1/targets")
            #expect(targets.contains(#""__meta_clawnet_url":"\#(url)""#), "the Gateway reached Prometheus through /sd: \(targets)")

            #expect(try await watch.stop() == 0, "SIGTERM ends watch cleanly")
            let events = watch.lines.filter { $0.stream == .stdout }.map(\.text).joined(separator: "\n")
            try await expectMatches(events, "clawnet.watch-event.v2", lines: true, "watch --format jsonl", bed: bed)
        } catch {
            failure = error
        }
        watch.terminate()
        prometheus?.terminate()
        _ = try? await gateway.stop()
        if let failure {
            Issue.record("watch output:\n\(watch.outputTail)")
            throw failure
        }
    }

    @Test("an instance name as a TARGET: watch says it is watched once a discovery path lists it, and runs to --timeout")
    func instanceNameTarget() async throws {
        let bed = try TestBed.current()
        let result = try await bed.clawnet(
            ["watch", "My Studio", "--no-local", "--timeout", "1s"], on: .node, environment: ["HOME": bed.directory], timeout: .seconds(30))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("My Studio: an instance name, watched when a discovery path lists it"), "\(result.stderr)")
    }

    @Test(
        "SIGHUP rereads the config: the node's Gateway is watched from gateway.remote.url, a new pin is reported and fails; no Gateway disappears"
    )
    func hangupRereadsPin() async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let tag = uniqueTag()
        let gateway = try await standIn(port: port, directory: "\(bed.directory)/watch-tls-\(tag)")
        let fingerprint = try fingerprint(of: gateway)
        let url = "wss://\(bed.ip(.gw)):\(port)"
        let config = "\(bed.directory)/watch-config-\(tag).json"
        func write(pin: String) throws {
            try #"{ gateway: { mode: "remote", remote: { url: "\#(url)", tlsFingerprint: "\#(pin)" } } }"#
                .write(toFile: config, atomically: true, encoding: .utf8)
        }
        try write(pin: fingerprint)
        // A Gateway mDNS lists beside the configured one: a reread config keeps both.
        let beside = try await bed.avahiPublish(name: "Stays \(tag)", txt: ["role=gateway"])
        defer { beside.terminate() }
        let watch = try bed.spawnClawnet(
            ["watch", "--config", config, "--interval", "1s", "--format", "jsonl"], on: .node, environment: ["HOME": bed.directory])
        var failure: (any Error)?
        do {
            let appeared = try await event(watch, "appeared", containing: url)
            #expect((appeared["gateway"] as? [String: Any])?["url"] as? String == url, "the node's configured Gateway: \(appeared)")
            _ = try await event(watch, "appeared", containing: tag)
            _ = try await event(watch, "up", containing: url)
            let other = String(repeating: "ab", count: 32)
            try write(pin: other)
            let mark = watch.lines.count
            kill(watch.pid, SIGHUP)
            let changed = try await event(watch, "pinChanged", containing: url, from: mark)
            #expect(changed["from"] as? String == fingerprint.lowercased() && changed["to"] as? String == other, "\(changed)")
            let down = try await event(watch, "down", containing: url, from: mark)
            #expect(down["check"] as? String == "gw.pin" && down["diagnosis"] as? String == "pin-changed", "\(down)")
            let churn = watch.lines.dropFirst(mark).filter { line in
                (line.text.contains(#""event":"disappeared""#) || line.text.contains(#""event":"appeared""#))
                    && (line.text.contains(url) || line.text.contains(tag))
            }
            #expect(churn.isEmpty, "a new pin is no reason to disappear and appear: \(churn.map(\.text))")
        } catch {
            failure = error
        }
        _ = try? await watch.stop()
        _ = try? await gateway.stop()
        if let failure {
            Issue.record("watch output:\n\(watch.outputTail)")
            throw failure
        }
    }

    var prometheusAddress: String { "127.0.0.1:\(Self.prometheusPort)" }
    static let prometheusPort = testPort()

    /// Prometheus in node's namespace scraping watch's /metrics every second, and reading the
    /// Gateways from /sd.
    func startPrometheus(metrics: String) async throws -> ChildProcess {
        let bed = try TestBed.current()
        let directory = "\(bed.directory)/prometheus-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = """
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            scrape_configs:
              - job_name: clawnet
                static_configs:
                  - targets: ['\(metrics)']
              - job_name: gateways
                http_sd_configs:
                  - url: 'http://\(metrics)/sd'
                    refresh_interval: 1s

            """
        try config.write(toFile: "\(directory)/prometheus.yml", atomically: true, encoding: .utf8)
        let process = try bed.spawn(
            on: .node,
            [
                "prometheus", "--config.file=\(directory)/prometheus.yml", "--storage.tsdb.path=\(directory)/tsdb",
                "--web.listen-address=\(prometheusAddress)",
            ])
        try await process.waitForLine(timeout: .seconds(60), "Prometheus ready") {
            $0.text.contains("Server is ready to receive web requests")
        }
        return process
    }

    /// Asks Prometheus `query` until it returns a sample (each scrape is a second apart): at
    /// most `attempts` times, then fails with the last answer.
    func waitForQuery(_ prometheus: ChildProcess, _ query: String, attempts: Int = 60) async throws {
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
        var last = ""
        for _ in 0..<attempts {
            last = try await fetch("http://\(prometheusAddress)/api/v1/query?query=\(encoded)")
            if last.contains(#""result":[{"#) { return }
            // Prometheus evaluates what it has scraped; the next scrape is a second away.
            try await Task.sleep(for: .milliseconds(500))
        }
        Issue.record("Prometheus never answered \(query) with a sample; last answer: \(last)")
        throw CancellationError()
    }
}
