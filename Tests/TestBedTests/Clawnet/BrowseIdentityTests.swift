import Foundation
import TestSupport
import Testing

/// One Gateway seen by two paths in browse's and doctor's output (issue 31): a TLS stand-in on
/// gw that avahi-daemon advertises, and the same Gateway in a BIND zone without its fingerprint.
@Suite("browse and doctor: one Gateway, its sightings, what phones do with each", .serialized, .testBed)
struct BrowseIdentityTests {
    @Test(
        "browse --format json: one beacon, a sighting per path with its own id, phones on each; the table at 80 columns; doctor's beacon the same"
    )
    func sightingsAndPhones() async throws {
        let bed = try TestBed.current()
        let (port, tag) = (testPort(), uniqueTag())
        let gateway = try bed.spawnClawnet(
            [
                "advertise", "--name", "Seen \(tag) (OpenClaw)", "--serve", "--port", String(port), "--tls-dir",
                "\(bed.directory)/tls-\(tag)",
            ],
            on: .gw)
        defer { gateway.terminate() }
        try await gateway.waitForOutput("like a Gateway (TLS 1.3, sha256 ", timeout: .seconds(30))
        let label = "seen-\(tag)-gateway"
        let zone = openClawZone([
            "gw IN A \(bed.ip(.gw))", "_openclaw-gw._tcp IN PTR \(label)._openclaw-gw._tcp",
            "\(label)._openclaw-gw._tcp IN SRV 0 0 \(port) gw",
            "\(label)._openclaw-gw._tcp IN TXT \"displayName=Seen \(tag)\" \"role=gateway\" \"gatewayPort=\(port)\" \"gatewayTls=1\"",
        ])
        let dns = try await bed.startBIND(zones: ["openclaw.internal": zone])
        defer { dns.terminate() }
        let paths = ["--domain", "openclaw.internal", "--server", dns.endpoint]
        // Until avahi on node has resolved the beacon's IPv4 address, browse may see it alone.
        var row: [String: Any] = [:]
        var document: [String: Any] = [:]
        for _ in 0..<10 {
            (_, document, _) = try await browseJSON(bed, paths)
            let rows = beacons(document).filter { ($0["instance"] as? String)?.contains(tag) == true }
            row = rows.first ?? [:]
            if rows.count == 1, strings(row["sources"]) == ["mdns", "unicast"] { break }
        }
        #expect(strings(row["sources"]) == ["mdns", "unicast"], "one row for both paths: \(beacons(document))")
        let sightings = try #require(row["sightings"] as? [[String: Any]])
        let ids = sightings.compactMap { $0["id"] as? String }
        #expect(ids.count == 2 && ids.contains(row["id"] as? String ?? "-"), "the row's id is one sighting's: \(row["id"] ?? "") of \(ids)")
        #expect(ids.contains("_openclaw-gw._tcp|openclaw.internal.|\(label)"), "\(ids)")
        let phones = sightings.map { sighting in
            let phones = sighting["phones"] as? [String: [String: Any]]
            return (sighting["domain"] as? String ?? "", phones?["android"]?["verdict"] as? String, phones?["ios"]?["verdict"] as? String)
        }
        #expect(
            phones.contains { $0 == ("local.", "trustFingerprint", "trustFingerprint") }
                && phones.contains { $0 == ("openclaw.internal.", "platformTrust", "trustFingerprint") },
            "Android takes platform trust for a DNS name, the fingerprint for a .local one: \(phones)")
        #expect(row["url"] as? String == "wss://gw.local:\(port)", "\(row)")
        try await expectMatches(
            String(data: try JSONSerialization.data(withJSONObject: document), encoding: .utf8)!, "clawnet.browse.v1",
            "browse --format json",
            bed: bed)

        let table = try await bed.clawnet(["browse"] + paths, on: .node, environment: ["COLUMNS": "80"])
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(table.stdout)")
        #expect(table.stdout.contains("wss://gw.local:\(port)") && table.stdout.contains("gw.openclaw.internal"), "\(table.stdout)")
        #expect(!table.stdout.contains("local.:"), "no root dot: \(table.stdout)")

        let doctor = try await bed.clawnet(
            ["doctor", "Seen \(tag) (OpenClaw)", "--format", "json"] + paths, on: .node, environment: ["HOME": bed.directory])
        let report = try jsonObject(doctor.stdout)
        let beacon = try #require(((report["gateways"] as? [[String: Any]])?.first)?["beacon"] as? [String: Any], "\(doctor.stdout)")
        #expect((beacon["sightings"] as? [[String: Any]])?.count == 2 && beacon["phones"] != nil, "\(beacon)")
        try await expectMatches(doctor.stdout, "clawnet.doctor.v1", "doctor --format json", bed: bed)
    }
}
