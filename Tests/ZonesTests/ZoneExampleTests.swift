import DNSSD
import Foundation
import Host
import Testing

@testable import Zones

/// zones/ holds an example zone and Corefile stanza written by clawnet's own writers. This
/// test fails when they no longer match what clawnet writes; refresh them with
/// `CLAWNET_UPDATE_EXAMPLES=1 swift test --filter ZoneExampleTests`.
@Suite("zones/ examples are current")
struct ZoneExampleTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("zones").path

    static func example() throws -> (zone: String, corefile: String) {
        let domain = try DomainName(validating: "openclaw.internal")
        let gateways = [
            try GatewaySpec.parse(
                "host=studio,ip=100.101.102.103,ip=fd7a:115c:a1e0::1,name=Studio (OpenClaw),tls=\(String(repeating: "5a", count: 32)),tailnet=studio.tail1234.ts.net,ssh=22,cli=/usr/local/bin/openclaw"
            ),
            try GatewaySpec.parse("host=lab,ip=100.101.102.104,port=18790"),
        ]
        let content = ZoneContent(domain: domain, gateways: gateways, nameServerAddresses: [IPAddress("100.101.102.103")!])
        let zone = try ZoneWriter.render(content, serial: 2_026_112_201).text
        // The Corefile as `zone generate --corefile` starts a new one: the stanza between its markers.
        let stanza = try CorefileWriter.stanza(
            domain: domain, bind: [IPAddress("100.101.102.103")!, IPAddress("fd7a:115c:a1e0::1")!],
            zonePath: "/etc/coredns/openclaw.internal.db")
        return (zone, try CorefileEdit.apply(stanza, domain: domain, to: nil))
    }

    @Test("zones/openclaw.internal.db and zones/Corefile match what clawnet writes")
    func examplesAreCurrent() throws {
        let (zone, corefile) = try Self.example()
        let zonePath = Self.directory + "/openclaw.internal.db"
        let corefilePath = Self.directory + "/Corefile"
        if ProcessInfo.processInfo.environment["CLAWNET_UPDATE_EXAMPLES"] == "1" {
            try AtomicFile.write(zone, to: zonePath)
            try AtomicFile.write(corefile, to: corefilePath)
        }
        #expect(
            try AtomicFile.read(zonePath, limit: FileLimit.zone) == zone,
            "zones/openclaw.internal.db is stale: CLAWNET_UPDATE_EXAMPLES=1 swift test --filter ZoneExampleTests")
        #expect(
            try AtomicFile.read(corefilePath, limit: FileLimit.corefile) == corefile,
            "zones/Corefile is stale: CLAWNET_UPDATE_EXAMPLES=1 swift test --filter ZoneExampleTests")
    }
}
