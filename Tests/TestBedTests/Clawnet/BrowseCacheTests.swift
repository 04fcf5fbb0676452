import Foundation
import TestSupport
import Testing

/// A one-shot browse takes a warm Avahi cache as complete and waits for the network when the
/// cache is cold. On the lab LAN, whose suite runs one test at a time: it restarts lnode's
/// avahi-daemon.
extension DoctorLabTests {
    @Test("browse from a cold cache waits for the network: Gateways that never announced are found; the next browse takes the cache")
    func browseColdThenWarm() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        // A fresh avahi-daemon, and publishers that never announce: nothing of them is in its cache.
        try await bed.control("avahi", "stop", "lnode")
        try await bed.control("avahi", "start", "lnode")
        var publishers: [ChildProcess] = []
        defer { for publisher in publishers { publisher.terminate() } }
        let names = (0..<3).map { "Cold \(tag) \($0)" }
        for (index, name) in names.enumerated() {
            publishers.append(
                try await bed.zeroconfPublish(
                    name: name, port: 18789 + index, hostLabel: "cold-\(tag)-\(index)", txt: ["role=gateway", "n=\(index)"], on: .lgw,
                    silent: true))
        }
        for cache in ["cold", "warm"] {
            let result = try await bed.clawnet(["browse", "--format", "json"], on: .lnode)
            #expect(result.status == 0, "\(cache): \(result.stderr)")
            let beacons = try #require(try jsonObject(result.stdout)["beacons"] as? [[String: Any]], "\(cache): \(result.stdout)")
            for (index, name) in names.enumerated() {
                let beacon = try #require(beacons.first { $0["instance"] as? String == name }, "\(cache): no \(name) in \(result.stdout)")
                #expect(beacon["host"] as? String == "cold-\(tag)-\(index).local.", "\(cache) \(name)")
                #expect(beacon["port"] as? Int == 18789 + index, "\(cache) \(name)")
                #expect(beacon["addresses"] as? [String] == [bed.ip(.lgw)], "\(cache) \(name)")
                #expect(beacon["txt"] as? [String: String] == ["role": "gateway", "n": "\(index)"], "\(cache) \(name)")
            }
        }
    }
}
