import Avahi
import DNSSD
import Foundation
import Host
import TestSupport
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
        noDaemon.avahiStatus = .unavailable(DiscoveryIssue.noDaemon)
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
        let failing = result.gateways.flatMap(\.checks).filter { $0.status == .fail }
        let notPassing = result.gateways.flatMap(\.checks).filter { $0.status != .pass }
        #expect(failing.isEmpty && (probed.hasPrefix("ws:") || result.status == .pass), "\(notPassing)")
    }

    @Test("ws:// typed for a Gateway whose beacon says TLS: the scheme typed stays, and the cause is the URL, never the beacon")
    func typedSchemeStays() async throws {
        let network = Self.network("ws://studio.local:18789", wantsTLS: true)
        let beacon = Recorded.beacon(txt: Recorded.tlsTXT)
        let result = await DoctorPipelineTests.run(
            DoctorPipelineTests.options(["ws://studio.local:18789"]), network: network, found: [beacon])
        let cause = try #require(result.diagnosis.first { $0.id == "tls-not-advertised" }, "\(result.diagnosis.map(\.id))")
        guard case .tlsNotAdvertised(_, let plain, _) = cause.finding else {
            Issue.record("\(cause.finding)")
            return
        }
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

    /// Doctor without targets: `beacon` probed (refused), 127.0.0.1 answering or not, on a Gateway host's config.
    static func stopped(
        _ beacon: GatewayBeacon, loopback: Bool, local: Bool = false, hostAnswer: AvahiAddressLookup.Answer? = nil
    ) async -> DoctorResult {
        var answers = RecordedNetwork.Answers()
        answers.probes[RecordedNetwork.probeKey(Doctor.probeTarget(beacon))] = { Recorded.refusedReport($0) }
        answers.probes["ws://127.0.0.1:18789"] = { loopback ? Recorded.healthyReport($0) : Recorded.refusedReport($0) }
        if let hostAnswer { answers.mdnsNames[beacon.addresses[0]] = hostAnswer }
        var system = RecordedSystem()
        system.openclaw.exists = true
        return await DoctorPipelineTests.run(
            DoctorPipelineTests.options(local: local), system: system, network: RecordedNetwork(answers), found: [beacon])
    }

    @Test("a stopped Gateway elsewhere (its record stays): 'start it' as OpenClaw documents it, never gateway.bind")
    func stoppedElsewhere() async throws {
        let result = await Self.stopped(Recorded.beacon(source: .unicast), loopback: false)
        let cause = try #require(result.diagnosis.first { $0.id == "gateway-not-listening" }, "\(result.diagnosis.map(\.id))")
        #expect(cause.cause.contains("stopped") && !cause.cause.contains("binds loopback"), "\(cause.cause)")
        #expect(cause.fix.contains("openclaw gateway start") && cause.fix.contains("openclaw-gateway.service"), "\(cause.fix)")
        #expect(!cause.fix.contains("gateway.bind to"), "\(cause.fix)")
    }

    @Test("on the Gateway host, 127.0.0.1 answering: it binds loopback (known, not guessed); 127.0.0.1 silent: it is not running")
    func onTheGatewayHost() async throws {
        let here = Recorded.beacon(source: .unicast, address: "192.168.1.20")
        let bound = await Self.stopped(here, loopback: true)
        let loopback = try #require(bound.diagnosis.first { $0.id == "gateway-not-listening" }, "\(bound.diagnosis.map(\.id))")
        #expect(loopback.cause.contains("answers on 127.0.0.1:18789 only") && loopback.fix.contains("gateway.bind"), "\(loopback.cause)")
        #expect(!loopback.cause.contains("or is not running") && !loopback.fix.contains("gateway start"), "\(loopback.fix)")
        let down = await Self.stopped(here, loopback: false)
        let stopped = try #require(down.diagnosis.first { $0.id == "gateway-not-listening" }, "\(down.diagnosis.map(\.id))")
        #expect(stopped.cause.contains("not running (nothing listens on 127.0.0.1:18789 either)"), "\(stopped.cause)")
        #expect(stopped.fix.hasPrefix("start it here: `openclaw gateway start`") && !stopped.fix.contains("gateway.bind"), "\(stopped.fix)")
    }

    @Test("nothing in local., the stopped Gateway's host answers mDNS: the cause is the stop, not the Bonjour switches")
    func stoppedHostAnswersMDNS() async throws {
        let result = await Self.stopped(Recorded.beacon(source: .unicast), loopback: false, local: true, hostAnswer: .name("studio.local"))
        let quiet = try #require(result.diagnosis.first { $0.id == "gateway-not-advertising" }, "\(result.diagnosis.map(\.id))")
        #expect(quiet.cause.contains("stopped") && quiet.fix.contains("openclaw gateway start"), "\(quiet.cause) / \(quiet.fix)")
        #expect(!quiet.fix.contains("BONJOUR") && !quiet.fix.contains("bonjour"), "\(quiet.fix)")
    }

    @Test(
        "a configured node whose gateway.remote.url is a .local name: nothing in local., no mDNS answer for it: an mDNS timeout, UDP 5353")
    func mdnsTimeoutOnConfiguredNode() async throws {
        var system = RecordedSystem()
        system.openclaw.exists = true
        system.openclaw.node.mode = .remote
        system.openclaw.node.remoteURL = try EndpointSpec(parsing: "wss://gw.local:18789")
        var answers = RecordedNetwork.Answers()
        let slow = "looking up gw.local took longer than 2.0 s (an mDNS name: no host answered by mDNS in time)"
        answers.hosts["gw.local"] = DoctorPipelineTests.failure(slow, .noAnswer)
        answers.mdnsHosts["gw.local"] = .noAnswer
        answers.probes["wss://gw.local:18789"] = { ProbeReport(target: $0) }
        let result = await DoctorPipelineTests.run(
            DoctorPipelineTests.options(local: true), system: system, network: RecordedNetwork(answers))
        let ids = result.diagnosis.map(\.id)
        let timeout = try #require(result.diagnosis.first { $0.id == "mdns-timeout" }, "\(ids)")
        #expect(!ids.contains("multicast-blocked"), "\(ids)")
        #expect(
            timeout.cause.contains("gw.local") && timeout.fix.contains("allow UDP 5353 on both hosts"), "\(timeout.cause) / \(timeout.fix)")
        let words = result.diagnosis.map { $0.cause + $0.fix } + result.gateways.flatMap(\.checks).map { $0.message + ($0.fix ?? "") }
        #expect(!words.contains { $0.contains("DNS server that does not answer") }, "\(words)")
    }
}
