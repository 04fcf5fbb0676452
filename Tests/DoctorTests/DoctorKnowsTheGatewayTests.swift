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
}
