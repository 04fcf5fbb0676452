import Foundation
import TestSupport
import Testing

/// A Gateway that listens on IPv4 only (OpenClaw's `bind: lan`) on a host mDNS advertises with
/// an IPv4 and an IPv6 address: Avahi resolves them one event at a time, and watch must judge
/// the Gateway by every address (the one that connects wins), as doctor does.
extension WatchCommandTests {
    @Test("a dual-stack host's IPv4-only Gateway found by mDNS is up at once, never down first, and still up when it is announced again")
    func dualStackGatewayIsNotDownFirst() async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let tag = uniqueTag()
        let gateway = try await standIn(port: port, directory: "\(bed.directory)/watch-tls-\(tag)")
        let fingerprint = try fingerprint(of: gateway)
        let txt = ["role=gateway", "gatewayPort=\(port)", "gatewayTls=1", "gatewayTlsSha256=\(fingerprint)"]
        let name = "Dual \(tag)"
        let watch = try bed.spawnClawnet(
            ["watch", "--interval", "5s", "--format", "jsonl", "--metrics-listen", "127.0.0.1:0"], on: .node,
            environment: ["HOME": bed.directory])
        do {
            try await watching(watch) {
                let serving = try await watch.waitForLine(timeout: .seconds(30), "the metrics address") {
                    $0.text.contains("serving /metrics")
                }
                let metrics = String(try #require(serving.text.split(separator: " ").last))
                for round in 1...2 {
                    let mark = watch.lines.count
                    let publisher = try await bed.avahiPublish(name: name, port: port, txt: txt)
                    defer { publisher.terminate() }
                    _ = try await event(watch, "appeared", containing: tag, from: mark)
                    if round == 1 {
                        let up = try await event(watch, "up", containing: tag, from: mark)
                        let downs = watch.lines.dropFirst(mark).filter { $0.text.contains(#""event":"down""#) && $0.text.contains(tag) }
                        #expect(downs.isEmpty, "no down before up: \(downs.map(\.text)) (up: \(up))")
                    } else {
                        // Kept on the roster while no path listed it, and still up: the same Gateway back.
                        let all = watch.lines.filter { $0.text.contains(tag) && $0.text.contains(#""event":"#) }.map(\.text)
                        #expect(!all.contains { $0.contains(#""event":"down""#) || $0.contains(#""event":"forgotten""#) }, "\(all)")
                        #expect(all.filter { $0.contains(#""event":"up""#) }.count == 1, "up once, never down: \(all)")
                    }
                    // blackbox_exporter gets the address that answered, not the advertised IPv6.
                    let listed = try await fetch("http://\(metrics)/sd")
                    #expect(listed.contains(#""targets":["\#(bed.ip(.gw)):\#(port)"]"#), "round \(round): \(listed)")
                    let gone = watch.lines.count
                    _ = try await publisher.stop()
                    _ = try await event(watch, "disappeared", containing: tag, from: gone)
                }
            }
        } catch {
            _ = try? await gateway.stop()
            throw error
        }
        _ = try? await gateway.stop()
    }
}
