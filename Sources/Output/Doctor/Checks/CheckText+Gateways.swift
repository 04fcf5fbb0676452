import DNSSD
import Doctor

/// The words of discovery.gateways: each Gateway once, with the names it is advertised under,
/// and what disagrees (GatewaysEvidence).
extension CheckText {
    static func gateways(_ reason: CheckReason, _ evidence: GatewaysEvidence) -> CheckText {
        let listed = evidence.gateways.prefix(maxListed).map(gatewayWords).joined(separator: "; ")
        switch reason {
        case .noGatewaysSeen:
            return CheckText("no Gateway was discovered: nothing to tell apart")
        case .txtDisagreesWithSRV:
            let said = evidence.disagreements.prefix(maxListed).map {
                "\($0.name): TXT \($0.field)=\(words($0.txt)), SRV says \(words($0.srv))"
            }
            return CheckText(
                said.joined(separator: "; ") + ": nodes and phones that read the TXT dial another place than DNS-SD resolves",
                fix: "advertise one truth: set gateway.port / the Gateway's host name so the TXT and the SRV agree (a TXT edited "
                    + "by hand, or a proxy's port published as the Gateway's?), then restart the Gateway")
        case .hostNameCollision:
            let said = evidence.collisions.prefix(maxListed).map { collision in
                "\(words(collision.host)) at "
                    + collision.addresses.map { $0.map(\.description).joined(separator: ", ") }.joined(separator: " and at ")
            }
            return CheckText(
                said.joined(separator: "; ") + ": two machines claim one host name, so `.local` lookups reach either",
                fix: "give each machine its own host name (`hostnamectl set-hostname`); Avahi renames a conflicting host "
                    + "(`name-2.local`), so a pinned or configured name may now point at the other machine")
        case .advertisedTwice:
            let twice = evidence.advertisedTwice.prefix(maxListed).map(gatewayWords).joined(separator: "; ")
            return CheckText(
                "\(twice): one Gateway (same fingerprint and port) under several instance names: a name conflict renamed it, or it "
                    + "is announced once per interface or by two advertisers",
                fix: "advertise it once: one mDNS advertiser on the Gateway host (OpenClaw's own or avahi, not both), and "
                    + "restart it so the \"(2)\" name goes")
        case .multipleGateways:
            return CheckText(
                "\(evidence.gateways.count) distinct Gateways (multiple_gateways): \(listed)",
                fix: "usual only with isolated profiles (a rescue bot) on purpose; a node pairs with the one gateway.remote.url "
                    + "names: check it is the one you mean")
        default: break
        }
        return CheckText("\(Plural.counted(evidence.gateways.count, "Gateway")), each said once: \(listed)")
    }

    /// More Gateways or findings than this are counted, not listed.
    static let maxListed = 8

    /// `Studio (OpenClaw) and Studio (OpenClaw) (2) at studio.local:18789, sha256 1a2b3c4d…`.
    static func gatewayWords(_ gateway: GatewaysEvidence.Sighting) -> String {
        let names = gateway.names.prefix(maxListed).joined(separator: " and ")
        guard let beacon = gateway.beacons.first else { return names }
        let host = beacon.host.map { words($0.withoutRootDot) } ?? "?"
        let port = beacon.port.map(String.init) ?? "?"
        let fingerprint = beacon.reading.info.tlsSha256.map { ", sha256 \($0.hex.prefix(8))…" } ?? ""
        return "\(names) at \(host):\(port)\(fingerprint)"
    }
}
