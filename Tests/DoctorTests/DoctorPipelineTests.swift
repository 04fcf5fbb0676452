import Avahi
import DNSSD
import Foundation
import Host
import Synchronization
import Testing

@testable import Discovery
@testable import Doctor
@testable import Probes

/// `Doctor.run` whole, on a recorded machine and a recorded network: the targets resolved, the
/// names explained, the probes, the implicit 127.0.0.1 and its second probe, the hosts asked
/// why mDNS is quiet. No socket opens and no daemon is asked; each test says which questions
/// doctor asks, and one without a recorded answer fails it.
@Suite("doctor's pipeline on a recorded network")
struct DoctorPipelineTests {
    static func run(
        _ options: DoctorOptions, system: RecordedSystem = RecordedSystem(), network: RecordedNetwork, found: [GatewayBeacon] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> DoctorResult {
        let discovery = RecordedDiscovery(events: found.map(DiscoveryEvent.added) + [.allForNow])
        let result = await Doctor.run(options, system: system, io: network.io(discovery: discovery))
        #expect(network.unanswered.isEmpty, "asked without a recorded answer: \(network.unanswered)", sourceLocation: sourceLocation)
        return result
    }

    static func options(_ targets: [String] = [], only: Set<CheckID>? = nil, local: Bool = false) -> DoctorOptions {
        var options = DoctorOptions()
        options.targets = targets.map { try! DoctorTarget($0) }
        options.only = only
        options.discovery.local = local
        options.noLocal = !local
        return options
    }

    static func failure(_ message: String, _ kind: HostLookup.Failure.Kind) -> Result<[IPAddress], HostLookup.Failure> {
        .failure(HostLookup.Failure(message: message, kind: kind))
    }

    @Test("names: one that does not exist, a .local one without nss-mdns, a ts.net one only MagicDNS knows; an instance name found nowhere")
    func names() async {
        var answers = RecordedNetwork.Answers()
        answers.hosts = [
            "nope.openclaw.internal": Self.failure("cannot resolve nope.openclaw.internal: Name or service not known", .notFound),
            "box.local": Self.failure("cannot resolve box.local: Name or service not known", .notFound),
            "gw.tail1234.ts.net": Self.failure("cannot resolve gw.tail1234.ts.net: Name or service not known", .notFound),
        ]
        answers.mdnsHosts = ["box.local": .unavailable("avahi-daemon is not running")]
        answers.magicDNS = ["gw.tail1234.ts.net": [IPAddress("100.101.102.7")!]]
        let network = RecordedNetwork(answers)
        var system = RecordedSystem()
        system.hostsLine = "hosts: files dns"
        let targets = ["wss://nope.openclaw.internal:18789", "wss://box.local:18789", "wss://gw.tail1234.ts.net:18789", "Kitchen Gateway"]
        let result = await Self.run(Self.options(targets, only: ["gw.dns"]), system: system, network: network)
        #expect(result.diagnosis.map(\.id) == ["name-not-found", "nss-mdns-missing", "magicdns-not-applied", "unknown-target"])
        let asked: Set<RecordedNetwork.Question> = [
            .host("nope.openclaw.internal"), .host("box.local"), .mdnsHost("box.local"), .host("gw.tail1234.ts.net"),
            .magicDNS("gw.tail1234.ts.net"),
        ]
        #expect(Set(network.asked) == asked && network.asked.count == asked.count, "only gw.dns: no probe; \(network.asked)")
    }

    @Test(".local names nsswitch cannot resolve, asked of avahi-daemon: one host answers (a warning), another does not (a failure)")
    func localNames() async {
        var answers = RecordedNetwork.Answers()
        for name in ["lamp.local", "nobody.local"] {
            answers.hosts[name] = Self.failure("cannot resolve \(name): Temporary failure in name resolution", .noAnswer)
        }
        answers.mdnsHosts = ["lamp.local": .found([IPAddress("192.168.1.40")!]), "nobody.local": .noAnswer]
        let network = RecordedNetwork(answers)
        let result = await Self.run(
            Self.options(["wss://lamp.local:18789", "wss://nobody.local:18789"], only: ["gw.dns"]), network: network)
        let dns = result.gateways.compactMap { $0.checks.first { $0.id == "gw.dns" } }
        #expect(dns.map(\.status) == [.warn, .fail] && dns.map(\.reason) == [.localNameOnlyByAvahi, .localNameUnanswered], "\(dns)")
        #expect(network.asked.filter { if case .mdnsHost = $0 { true } else { false } }.count == 2, "\(network.asked)")
    }

    @Test("the implicit 127.0.0.1, probed as ws://, answers TLS: probed again as wss://, gw.tls warns (no config says TLS), nothing fails")
    func localFallbackFoundTLS() async {
        var answers = RecordedNetwork.Answers()
        answers.probes["ws://127.0.0.1:18789"] = { target in
            var report = Recorded.healthyReport(target)
            report.health = PhaseTiming(outcome: .wantsTLS, elapsed: .milliseconds(2))
            report.websocket = PhaseTiming(outcome: .wantsTLS, elapsed: .milliseconds(2))
            report.connect = nil
            return report
        }
        answers.probes["wss://127.0.0.1:18789"] = { Recorded.healthyReport($0) }
        let network = RecordedNetwork(answers)
        var system = RecordedSystem()
        system.openclaw.exists = true
        let result = await Self.run(Self.options(), system: system, network: network)
        #expect(result.gateways.map(\.target) == ["wss://127.0.0.1:18789"], "\(result.gateways.map(\.target))")
        let tls = result.gateways.first?.checks.first { $0.id == "gw.tls" }
        #expect(tls?.status == .warn && tls?.reason == .tlsNotConfigured, "\(String(describing: tls))")
        #expect(result.status == .warn, "\(result.gateways.first?.checks.map { "\($0.id) \($0.status)" } ?? [])")
        #expect(network.asked == [.probe("ws://127.0.0.1:18789"), .probe("wss://127.0.0.1:18789")], "\(network.asked)")
    }

    @Test("a Gateway discovered on this machine's own address that 127.0.0.1 reaches too: one listener, reported once")
    func sameListenerOnce() async {
        let beacon = Recorded.beacon(address: "192.168.1.20")
        var answers = RecordedNetwork.Answers()
        answers.probes[RecordedNetwork.probeKey(Doctor.probeTarget(beacon))] = { Recorded.healthyReport($0) }
        answers.probes["ws://127.0.0.1:18789"] = { Recorded.healthyReport($0) }
        let network = RecordedNetwork(answers)
        let result = await Self.run(Self.options(), network: network, found: [beacon])
        #expect(result.gateways.map(\.target) == [Doctor.probeTarget(beacon).label], "\(result.gateways.map(\.target))")
        #expect(network.asked.count == 2, "both probed, then one left out: \(network.asked)")
    }

    @Test(
        "nothing in local. though a Gateway on the LAN was found by DNS-SD: its host is asked whether it answers mDNS",
        arguments: [true, false])
    func quietLocal(hostAnswers: Bool) async {
        let beacon = Recorded.beacon(source: .unicast, address: "192.168.1.30")
        var answers = RecordedNetwork.Answers()
        answers.probes[RecordedNetwork.probeKey(Doctor.probeTarget(beacon))] = { Recorded.healthyReport($0) }
        answers.probes["ws://127.0.0.1:18789"] = { Recorded.refusedReport($0) }
        answers.mdnsNames[IPAddress("192.168.1.30")!] = hostAnswers ? .name("studio.local") : .noAnswer
        let network = RecordedNetwork(answers)
        let result = await Self.run(Self.options(local: true), network: network, found: [beacon])
        let cause: DiagnosisID = hostAnswers ? .gatewayNotAdvertising : .multicastBlocked
        #expect(result.diagnosis.contains { $0.id == cause }, "\(result.diagnosis.map(\.id))")
        #expect(network.asked.contains(.mdnsName(IPAddress("192.168.1.30")!)), "\(network.asked)")
    }

    @Test("a verified Gateway the wide-area domain lacks: the run's report carries its zone snippet (what --emit-zone writes)")
    func snippet() async {
        let beacon = Recorded.beacon(txt: Recorded.tlsTXT)
        var answers = RecordedNetwork.Answers()
        answers.probes[RecordedNetwork.probeKey(Doctor.probeTarget(beacon))] = { Recorded.healthyReport($0) }
        answers.probes["ws://127.0.0.1:18789"] = { Recorded.refusedReport($0) }
        let network = RecordedNetwork(answers)
        let discovery = RecordedDiscovery(events: [.added(beacon), .allForNow])
        var options = Self.options(local: true)
        options.discovery.domains = [Recorded.domain]
        let result = await Doctor.run(options, system: RecordedSystem(), io: network.io(discovery: discovery))
        #expect(result.snippets.map(\.reason) == [.missing] && result.snippets.first?.domain == Recorded.domain, "\(result.snippets)")
        #expect(discovery.requests.map(\.domains) == [[Recorded.domain]], "doctor asks the discovery it is given")
        #expect(network.unanswered.isEmpty, "\(network.unanswered)")
    }

    /// The discovery a test can time: the timeout doctor gives it.
    final class TimedDiscovery: Discovering {
        let given = Mutex<Duration?>(nil)

        func snapshot(
            _ request: DiscoveryRequest, timeout: Duration?, untilAllForNow: Bool, initial: [DiscoveryIssue],
            onEvent: (DiscoveryEvent, BeaconCollection) -> Void
        ) async -> DiscoverySnapshot {
            given.withLock { $0 = timeout }
            return DiscoverySnapshot(beacons: [], issues: [], timedOut: false, elapsed: .zero)
        }
    }

    @Test("one deadline: discovery gets at most the first half of --timeout, the probes what is left of the whole")
    func deadline() async throws {
        var answers = RecordedNetwork.Answers()
        answers.probes["ws://127.0.0.1:18789"] = { Recorded.refusedReport($0) }
        let network = RecordedNetwork(answers)
        let discovery = TimedDiscovery()
        var io = network.io(discovery: discovery)
        let budget = Mutex<Duration?>(nil)
        let recorded = io.probe
        io.probe = { targets, given, limit, phases in
            budget.withLock { $0 = given }
            return await recorded(targets, given, limit, phases)
        }
        var options = Self.options()
        // A minute, not a few seconds: on a loaded machine the run itself must not eat the half.
        options.timeout = .seconds(60)
        let result = await Doctor.run(options, system: RecordedSystem(), io: io)
        let discoveryTime = try #require(discovery.given.withLock { $0 })
        let probeTime = try #require(budget.withLock { $0 })
        #expect(discoveryTime <= .seconds(30) && discoveryTime > .seconds(20), "\(discoveryTime)")
        #expect(probeTime <= .seconds(60) && probeTime > discoveryTime, "\(probeTime)")
        #expect(result.elapsed < .seconds(60), "\(result.elapsed)")
    }
}
