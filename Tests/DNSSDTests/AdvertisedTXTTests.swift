import Testing

@testable import DNSSD

/// The TXT `clawnet advertise` publishes: OpenClaw's minimal mDNS advertiser's keys in its
/// order, the served stand-in's facts, and --txt entries replacing keys in place.
@Suite("advertise's TXT")
struct AdvertisedTXTTests {
    static func text(_ record: TXTRecord) -> [String] {
        record.strings.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("defaults: role, gatewayPort, lanHost, displayName (without \" (OpenClaw)\"), transport; no TLS without a stand-in")
    func defaults() throws {
        let txt = try GatewayTXT.advertised(name: "Studio (OpenClaw)", port: 18789, hostLabel: "studio", served: nil, extra: [])
        #expect(Self.text(txt) == ["role=gateway", "gatewayPort=18789", "lanHost=studio.local", "displayName=Studio", "transport=gateway"])
    }

    @Test("a stand-in with TLS: gatewayTls and its fingerprint; directly reachable unless it listens on loopback")
    func served() throws {
        let fingerprint = TLSFingerprint(digest: [UInt8](repeating: 0xAB, count: 32))
        let open = try GatewayTXT.advertised(
            name: "Lab", port: 443, hostLabel: "lab", served: .init(fingerprint: fingerprint, loopback: false), extra: [])
        #expect(Self.text(open).contains("gatewayTls=1") && Self.text(open).contains("gatewayTlsSha256=\(fingerprint.hex)"))
        #expect(Self.text(open).contains("gatewayDirectReachable=1"))
        let loopback = try GatewayTXT.advertised(
            name: "Lab", port: 443, hostLabel: "lab", served: .init(fingerprint: nil, loopback: true), extra: [])
        #expect(!Self.text(loopback).contains { $0.hasPrefix("gatewayTls") || $0.hasPrefix("gatewayDirectReachable") })
    }

    @Test("--txt replaces a default in place (any case), adds a new key at the end, and KEY alone is a flag; a bad key is refused")
    func extra() throws {
        let txt = try GatewayTXT.advertised(
            name: "Lab", port: 18789, hostLabel: "lab", served: nil, extra: ["GATEWAYPORT=1", "canvasPort=18793", "beta"])
        #expect(
            Self.text(txt) == [
                "role=gateway", "GATEWAYPORT=1", "lanHost=lab.local", "displayName=Lab", "transport=gateway", "canvasPort=18793", "beta",
            ])
        #expect(
            try #require(throws: DNSSDError.self) {
                try GatewayTXT.advertised(name: "Lab", port: 1, hostLabel: "lab", served: nil, extra: ["=v"])
            }.code == .txtKey)
    }
}
