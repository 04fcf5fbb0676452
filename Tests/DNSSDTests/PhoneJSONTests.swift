import Foundation
import Testing

@testable import DNSSD

/// `phones` and `sightings` of a beacon in browse's JSON, and Android's platform trust of a
/// public DNS name (GatewayTls.kt, isGatewayTlsSystemTrustCandidate).
@Suite("What phones do with a beacon, in JSON")
struct PhoneJSONTests {
    @Test(
        "a public DNS name is tried with Android's CA store; .local, IP literals, single labels and all-digit names are not",
        arguments: [
            ("gateway.example.com", true), ("node.tailnet-name.ts.net", true), ("gateway.local", false), ("192.0.2.10", false),
            ("2001:db8::10", false), ("gateway", false), ("127.1", false), ("gate_way.example.com", false), ("-gw.example.com", false),
        ])
    func systemTrustCandidates(host: String, candidate: Bool) {
        #expect(PhoneVerdicts.systemTrustCandidate(host) == candidate, "\(host)")
    }

    @Test("TLS to a DNS name: Android platformTrust, iOS trustFingerprint; no TLS on a LAN: plainText and refuse with its reason")
    func verdictsInJSON() throws {
        let tls = try beacon(
            [("gatewayTls", "1")], host: "gw.openclaw.internal.", addresses: ["100.64.0.7"],
            domain: DomainName(validating: "openclaw.internal"),
            source: .unicast)
        #expect(tls.phones.android == .platformTrust(host: "gw.openclaw.internal") && tls.phones.ios == .tlsAfterTrust)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(tls)) as? [String: Any]
        let phones = try #require(json?["phones"] as? [String: [String: String]])
        #expect(phones["android"] == ["verdict": "platformTrust", "host": "gw.openclaw.internal"], "\(phones)")
        #expect(phones["ios"] == ["verdict": "trustFingerprint", "host": "gw.openclaw.internal"], "\(phones)")

        let plain = try beacon([("lanHost", "studio.local")])
        let lan = try JSONSerialization.jsonObject(with: JSONEncoder().encode(plain)) as? [String: Any]
        let lanPhones = try #require(lan?["phones"] as? [String: [String: String]])
        #expect(lanPhones["android"] == ["verdict": "plainText", "host": "studio.local"], "\(lanPhones)")
        #expect(lanPhones["ios"] == ["verdict": "refuse", "host": "studio.local", "reason": "tlsRequired"], "\(lanPhones)")
    }

    @Test("a merged beacon's JSON: its id the Gateway's, each sighting with its own id; read back as written, old documents too")
    func sightingsRoundTrip() throws {
        let lan = try beacon([("displayName", "Studio")])
        let wan = try beacon(
            [("displayName", "Studio")], host: "studio.openclaw.internal.", addresses: ["100.64.0.7"],
            domain: DomainName(validating: "openclaw.internal"), source: .unicast)
        var merged = lan
        merged.assignedID = wan.id.description
        merged.sightings = [lan, wan]
        let data = try JSONEncoder().encode(merged)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(object?["id"] as? String == wan.id.description)
        let sightings = try #require(object?["sightings"] as? [[String: Any]])
        #expect(sightings.compactMap { $0["id"] as? String } == [lan.id.description, wan.id.description])
        #expect(sightings.allSatisfy { $0["sightings"] == nil && $0["phones"] != nil })
        let read = try JSONDecoder().decode(GatewayBeacon.self, from: data)
        #expect(read.gatewayID == wan.id.description && read.sightings.map(\.id) == [lan.id, wan.id])
        let alone = try JSONDecoder().decode(GatewayBeacon.self, from: JSONEncoder().encode(lan))
        #expect(alone.assignedID == nil && alone.gatewayID == lan.id.description && alone.sightings.isEmpty)
    }
}
