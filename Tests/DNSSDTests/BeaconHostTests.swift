import Foundation
import Testing

@testable import DNSSD

/// The host of a beacon: read as a name where it is one, kept as it arrived for what prints it.
@Suite("BeaconHost: an SRV target or a typed host, read and kept")
struct BeaconHostTests {
    @Test("a host name is read as one; its text, key, root-dot-free form and first label agree with it")
    func hostName() throws {
        let host = BeaconHost("Studio.Local.")
        #expect(host.name == DomainName(host: "studio.local"))
        #expect(host.text == "Studio.Local." && host.description == "Studio.Local.")
        #expect(host.withoutRootDot == "Studio.Local" && host.key == "studio.local" && host.firstLabel == "Studio")
        #expect(BeaconHost("studio.local").key == host.key, "a typed host and an SRV target are one host")
    }

    @Test(
        "an IP literal or text that is no host name has no name; its text stays exactly as it arrived",
        arguments: ["100.101.102.7", "fd7a:115c:a1e0::1", "Evil\u{1b}[31m.local.", "two words.local.", "a..b.", ""])
    func notAName(text: String) {
        let host = BeaconHost(text)
        #expect(host.name == nil, "\(text.debugDescription) read as \(String(describing: host.name))")
        #expect(host.text == text)
        let withoutDot = text.hasSuffix(".") ? String(text.dropLast()) : text
        #expect(host.withoutRootDot == withoutDot && host.key == withoutDot.lowercased())
    }

    @Test(
        "browse's JSON writes the host as it arrived, and reads back the same host", arguments: ["Studio.Local.", "Evil\u{1b}[31m.local."])
    func json(text: String) throws {
        let beacon = try beacon([("role", "gateway")], host: text)
        let data = try JSONEncoder().encode(beacon)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["host"] as? String == text)
        let decoded = try JSONDecoder().decode(GatewayBeacon.self, from: data)
        #expect(decoded.host == beacon.host && decoded.host?.text == text)
    }
}
