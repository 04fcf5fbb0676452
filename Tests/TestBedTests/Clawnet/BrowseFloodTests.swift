import Foundation
import TestSupport
import Testing

/// The mDNS flood of the fourth outside attack: 500 instance names announced by bare PTRs (no
/// SRV, TXT or address: no resolver can finish one) from python-zeroconf's packet writer on lgw,
/// beside one real beacon from avahi-publish. A browse on lnode must still list the real one with
/// a timeout well below Avahi's 5 s resolve timeout, and count the rest in one line. On the quiet
/// LAN, so that the flood does not slow the browses of tests running beside it on the main one;
/// in the lab's serialized suite, since its browses fill lnode's cache (the cold-cache test there
/// restarts that avahi-daemon and needs it to have heard nothing).
extension DoctorLabTests {
    static let floodSize = 500

    /// Sends the flood's names (or their goodbyes: other tests browse the same LAN).
    func sendPTRFlood(_ bed: TestBed, prefix: String, goodbye: Bool) async throws {
        let arguments = ["--address", bed.ip(.lgw), "--count", String(Self.floodSize), "--prefix", prefix] + (goodbye ? ["--goodbye"] : [])
        let flood = try bed.spawn(on: .lgw, [bed.python, bed.scripts + "/peers/ptr_flood.py"] + arguments)
        try await flood.waitForOutput("\(goodbye ? "withdrew" : "flooded") \(Self.floodSize)", timeout: .seconds(30))
    }

    /// Publishes the real beacon first (the flood then sits ahead of it in Avahi's cache walk,
    /// which lists the newest first), then the flood; returns once lnode's avahi-daemon holds both
    /// ends of the flood.
    func publishUnderFlood(_ bed: TestBed, tag: String) async throws -> (real: String, publisher: ChildProcess) {
        let real = "Studio under flood \(tag)"
        let publisher = try await bed.avahiPublish(name: real, txt: ["role=gateway", "gatewayPort=18789"], on: .lgw)
        let prefix = "Flood \(tag)"
        try await sendPTRFlood(bed, prefix: prefix, goodbye: false)
        for index in [0, Self.floodSize - 1] { try await bed.waitUntilHeard(name: "\(prefix) \(index)", from: .lgw) }
        return (real, publisher)
    }

    @Test("--timeout 3s (Avahi takes 5 s to give up on one name) lists the real Gateway and counts the flood in one line")
    func realGatewayThroughFlood() async throws {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let (real, publisher) = try await publishUnderFlood(bed, tag: tag)
        defer { publisher.terminate() }
        // The goodbyes go whatever the browses saw: other tests browse the same LAN.
        do {
            try await browsesUnderFlood(bed, real: real, tag: tag)
        } catch {
            try? await sendPTRFlood(bed, prefix: "Flood \(tag)", goodbye: true)
            throw error
        }
        try await sendPTRFlood(bed, prefix: "Flood \(tag)", goodbye: true)
    }

    func browsesUnderFlood(_ bed: TestBed, real: String, tag: String) async throws {
        let table = try await bed.clawnet(["browse", "--timeout", "3s"], on: .lnode, timeout: .seconds(30))
        #expect(table.stdout.split(separator: "\n").contains { $0.hasPrefix(real) }, "stdout: \(table.stdout)\nstderr: \(table.stderr)")
        #expect(!table.stdout.contains("Flood \(tag)"), "no row for a name that never resolved: \(table.stdout)")
        let counted = table.stderr.split(separator: "\n").filter { $0.contains("announced by mDNS could not be resolved") }
        #expect(counted.count == 1, "one counted line: \(table.stderr)")
        let count = counted.first.flatMap { line in line.split(separator: " ").compactMap { Int($0) }.first } ?? 0
        #expect(count >= Self.floodSize, "at least the flood's \(Self.floodSize) names counted: \(counted)")
        #expect(table.stderr.split(separator: "\n").count <= 4, "a handful of lines, never one per name: \(table.stderr.prefix(2_000))")

        let json = try await bed.clawnet(["browse", "--format", "json", "--timeout", "3s"], on: .lnode, timeout: .seconds(30))
        let document = try jsonObject(json.stdout)
        let beacons = try #require(document["beacons"] as? [[String: Any]], "\(json.stdout.prefix(2_000))")
        #expect(beacons.contains { $0["instance"] as? String == real }, "\(json.stdout.prefix(2_000))")
        let errors = document["errors"] as? [[String: Any]] ?? []
        #expect(errors.filter { $0["code"] as? String == "unresolved" }.count == 1, "\(errors)")
        #expect(errors.count <= 2, "no error per name: \(errors.count) errors")
    }
}
