import DNSSD
import Testing

@testable import Doctor

/// discovery.gateways from recorded beacons: one Gateway per fingerprint and port (else host
/// and port), what it finds first, and what it leaves alone.
@Suite("Several Gateways told apart (recorded beacons)")
struct GatewaySightingsTests {
    static let fingerprint = String(repeating: "ab", count: 32)

    static func check(_ beacons: [GatewayBeacon]) -> Check {
        MachineChecks.gatewaysSeen(Recorded.discovery(beacons: beacons))
    }

    @Test("one Gateway under two instance names (a name conflict's \"(2)\"): advertised twice, said once")
    func advertisedTwice() {
        let txt: [(key: String, value: String?)] = [("gatewayTlsSha256", Self.fingerprint)]
        let check = Self.check([
            Recorded.beacon("Studio (OpenClaw)", txt: txt), Recorded.beacon("Studio (OpenClaw) (2)", address: "192.168.7.30", txt: txt),
        ])
        #expect(check.status == .warn && check.reason == .advertisedTwice, "\(check)")
        guard case .gateways(let evidence) = check.evidence else {
            Issue.record("no evidence")
            return
        }
        #expect(evidence.gateways.count == 1 && evidence.advertisedTwice.first?.names.count == 2)
    }

    @Test("two Gateways on one host (two ports) are two: multiple_gateways; one alone passes")
    func twoOnOneHost() {
        #expect(
            Self.check([Recorded.beacon("Studio (OpenClaw)"), Recorded.beacon("Rescue (OpenClaw)", port: 19789)]).reason
                == .multipleGateways)
        #expect(Self.check([Recorded.beacon()]).status == .pass)
        #expect(Self.check([]).status == .skip)
        #expect(Self.check([Recorded.beacon(source: .manual), Recorded.beacon("Other", source: .manual, port: 1)]).status == .skip)
    }

    @Test("a TXT that contradicts its SRV (gatewayPort, lanHost) comes first; one host name at two addresses is a collision")
    func disagreementsAndCollisions() {
        let lying = Recorded.beacon(txt: [("gatewayPort", "18790"), ("lanHost", "other.local")])
        let check = Self.check([lying, Recorded.beacon("Den (OpenClaw)", address: "192.168.1.31", port: 19000)])
        #expect(check.reason == .txtDisagreesWithSRV, "\(check)")
        guard case .gateways(let evidence) = check.evidence else {
            Issue.record("no evidence")
            return
        }
        #expect(evidence.disagreements.map(\.field) == ["gatewayPort", "lanHost"])
        #expect(evidence.collisions.first?.host == "studio.local", "two machines, one name: \(evidence.collisions)")
        let collision = Self.check([Recorded.beacon(), Recorded.beacon("Den (OpenClaw)", address: "192.168.1.31", port: 19000)])
        #expect(collision.reason == .hostNameCollision, "\(collision)")
    }

    @Test("each finding is its rule's cause, and only that rule's")
    func rules() {
        for (reason, id) in [
            (CheckReason.txtDisagreesWithSRV, DiagnosisID.beaconDisagrees), (.hostNameCollision, .hostNameCollision),
            (.advertisedTwice, .gatewayAdvertisedTwice), (.multipleGateways, .multipleGateways),
        ] {
            let machine = MachineResult(
                checks: [Check(.discoveryGateways, .warn, reason)], facts: MachineFacts.gather(RecordedSystem()),
                discovery: Recorded.discovery(beacons: [Recorded.beacon()]))
            let found = DiagnosisRules.diagnose(machine, gateways: []).map(\.id)
            #expect(found == [id], "\(reason): \(found)")
        }
    }
}
