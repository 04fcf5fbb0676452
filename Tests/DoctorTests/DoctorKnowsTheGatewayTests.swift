import Avahi
import DNSSD
import Foundation
import Host
import Testing

@testable import Discovery
@testable import Doctor
@testable import Output
@testable import Probes

/// Issue 31's doctor part on a recorded network: a host, address or instance name a beacon
/// names probed as its beacon says; a stopped Gateway told from one that binds loopback; an
/// mDNS lookup that times out called so; preflight's mdns requirement whatever else is asked.
@Suite("doctor knows the Gateway")
struct DoctorKnowsTheGatewayTests {
    @Test("preflight --require mdns with a TARGET: no avahi-daemon is a missing prerequisite (3), not PASS")
    func preflightMDNSWithTarget() async {
        var options = DoctorOptions()
        options.targets = [try! DoctorTarget("wss://192.168.1.30:18789")]
        options.discovery.local = false
        options.timeout = .seconds(2)
        var noDaemon = RecordedSystem()
        noDaemon.avahiStatus = .unavailable(DiscoveryIssue(source: .mdns, kind: .daemonMissing, message: "not running", fix: "start it"))
        let report = await preflight([.mdns], options: options, system: noDaemon)
        let mdns = report.requirements.first
        #expect(report.exitStatus.rawValue == 3 && mdns?.ok == false, "\(String(describing: mdns?.message))")
        #expect(mdns?.missingPrerequisite == true)
        var answers = RecordedNetwork.Answers()
        answers.probes["wss://192.168.1.30:18789"] = { Recorded.healthyReport($0) }
        let both = await preflight([.mdns, .gateway], options: options, system: noDaemon, network: RecordedNetwork(answers))
        #expect(both.requirements.first { $0.name == .gateway }?.ok == true, "the Gateway answers")
        #expect(both.requirements.first { $0.name == .mdns }?.ok == false, "asked with gateway too")
    }

    static let studio = IPAddress("192.168.1.30")!
    static let fingerprintTXT: [(key: String, value: String?)] = [("role", "gateway"), ("gatewayTlsSha256", Recorded.certificateSHA.hex)]

    /// The answers of a network where studio.local is 192.168.1.30 and `probed` answers as a healthy Gateway.
    static func network(_ probed: String, wantsTLS: Bool = false) -> RecordedNetwork {
        var answers = RecordedNetwork.Answers()
        answers.hosts["studio.local"] = .success([studio])
        answers.probes[probed] = { target in
            var report = Recorded.healthyReport(target)
            if wantsTLS {
                (report.health, report.ready, report.connect) = (PhaseTiming(outcome: .wantsTLS, elapsed: .zero), nil, nil)
                report.websocket = PhaseTiming(outcome: .wantsTLS, elapsed: .zero)
            }
            return report
        }
        return RecordedNetwork(answers)
    }

    @Test(
        "a host or address a beacon names takes its scheme (gatewayTls=1, or only gatewayTlsSha256) and, typed without one, its port",
        arguments: [
            ("studio.local", Recorded.tlsTXT, 18789, "wss://studio.local:18789"),
            ("192.168.1.30", fingerprintTXT, 18789, "wss://192.168.1.30:18789"),
            ("studio.local", [("role", "gateway")], 18789, "ws://studio.local:18789"),
            ("studio.local", Recorded.tlsTXT, 18800, "wss://studio.local:18800"),
        ] as [(String, [(key: String, value: String?)], Int, String)])
    func hostTakesBeaconScheme(typed: String, txt: [(key: String, value: String?)], port: Int, probed: String) async {
        let beacon = Recorded.beacon(port: port, txt: txt)
        let network = Self.network(probed)
        let result = await DoctorPipelineTests.run(DoctorPipelineTests.options([typed]), network: network, found: [beacon])
        #expect(network.asked.filter { if case .probe = $0 { true } else { false } } == [.probe(probed)], "\(network.asked)")
        #expect(result.gateways.first?.beacon?.instance == beacon.instance, "the beacon's name and TXT come along")
        #expect(!result.diagnosis.contains { $0.id == "tls-not-advertised" }, "\(result.diagnosis.map(\.id))")
        #expect(result.status == .pass, "\(result.gateways.first?.checks.filter { $0.status != .pass }.map(\.id) ?? [])")
    }

    @Test("ws:// typed for a Gateway whose beacon says TLS: the scheme typed stays, and the cause is the URL, never the beacon")
    func typedSchemeStays() async throws {
        let network = Self.network("ws://studio.local:18789", wantsTLS: true)
        let beacon = Recorded.beacon(txt: Recorded.tlsTXT)
        let result = await DoctorPipelineTests.run(DoctorPipelineTests.options(["ws://studio.local:18789"]), network: network, found: [beacon])
        let cause = try #require(result.diagnosis.first { $0.id == "tls-not-advertised" }, "\(result.diagnosis.map(\.id))")
        guard case .tlsNotAdvertised(_, let plain, _) = cause.finding else { Issue.record("\(cause.finding)"); return }
        #expect(plain == .givenDespiteBeacon && !cause.cause.contains("no gatewayTls"), "\(cause.cause)")
        #expect(cause.fix.contains("wss://studio.local:18789"), "\(cause.fix)")
    }

    @Test("a host two Gateways share, typed without a port, is not guessed: the configured port, as typed")
    func hostOfTwoGateways() async {
        let network = Self.network("ws://studio.local:18789")
        let beacons = [Recorded.beacon("A", port: 18800, txt: Recorded.tlsTXT), Recorded.beacon("B", port: 18801, txt: Recorded.tlsTXT)]
        let result = await DoctorPipelineTests.run(DoctorPipelineTests.options(["studio.local"]), network: network, found: beacons)
        #expect(network.asked.contains(.probe("ws://studio.local:18789")), "\(network.asked)")
        #expect(result.gateways.first?.beacon == nil)
    }

    @Test("an instance name of any path of a merged Gateway: that path's beacon is probed, under the Gateway's id")
    func instanceOfAnotherPath() async throws {
        let lan = Recorded.beacon(txt: Recorded.tlsTXT)
        var wide = Recorded.beacon("Studio WAN", source: .unicast, txt: Recorded.tlsTXT)
        wide.host = BeaconHost("studio.openclaw.internal.")
        let row = try #require(BeaconMerger.merge([lan, wide], id: lan.id.description))
        var answers = RecordedNetwork.Answers()
        answers.probes["wss://studio.openclaw.internal:18789"] = { Recorded.healthyReport($0) }
        let network = RecordedNetwork(answers)
        let result = await DoctorPipelineTests.run(DoctorPipelineTests.options(["Studio WAN"]), network: network, found: [row])
        #expect(network.asked == [.probe("wss://studio.openclaw.internal:18789")], "\(network.asked)")
        #expect(result.gateways.first?.beacon?.gatewayID == lan.id.description, "one Gateway, one id")
    }
}
