import DNSSD
import Testing

@testable import Doctor

/// discovery.phones from recorded beacons: what OpenClaw's Android and iOS nodes would do.
@Suite("What a phone would do (recorded beacons)")
struct PhoneVerdictTests {
    @Test("openclaw#99031: no TLS on the LAN: Android ws:// to .local, iOS refuses; on a tailnet or by DNS name Android refuses too")
    func openclaw99031Verdicts() {
        let lan = PhonesEvidence(beacons: [Recorded.beacon()]).beacons[0]
        #expect(lan.android == .plainText(host: "studio.local") && lan.ios == .refused(.iosNeedsTLS))
        var tailnet = Recorded.beacon(source: .unicast, address: "100.101.102.7")
        tailnet.host = BeaconHost("100.101.102.7")
        #expect(PhonesEvidence(beacons: [tailnet]).beacons[0].android == .refused(.androidCleartextHost("100.101.102.7")))
        var named = Recorded.beacon(source: .unicast, txt: [("lanHost", "studio.local")])
        named.host = BeaconHost("studio.openclaw.internal.")
        #expect(
            PhonesEvidence(beacons: [named]).beacons[0].android == .refused(.androidCleartextHost("studio.openclaw.internal")),
            "lanHost counts over mDNS only")
        let tls = PhonesEvidence(beacons: [Recorded.beacon(txt: [("gatewayTls", "1")])]).beacons[0]
        #expect(tls.android == .tlsAfterTrust && tls.ios == .tlsAfterTrust && !tls.refused)
    }

    @Test("the check warns when a phone refuses a beacon, passes when both connect, skips without beacons")
    func check() {
        #expect(MachineChecks.phones(Recorded.discovery(beacons: [Recorded.beacon()])).reason == .phoneRefuses)
        #expect(MachineChecks.phones(Recorded.discovery(beacons: [Recorded.beacon(txt: [("gatewayTls", "1")])])).status == .pass)
        #expect(MachineChecks.phones(Recorded.discovery()).status == .skip)
    }
}
