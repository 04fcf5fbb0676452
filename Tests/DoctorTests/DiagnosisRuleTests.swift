import Avahi
import DNSSD
import Discovery
import Host
import Testing

@testable import Doctor
@testable import Probes

/// Each diagnosis rule on its own, from typed facts: which causes a set of checks yields.
/// The messages here are placeholders on purpose: no rule may read them.
@Suite("Diagnosis rules (table)")
struct DiagnosisRuleTests {
    static func check(_ id: CheckID, _ status: Check.Status, _ reason: CheckReason) -> Check {
        Check(id, status, reason, "(any message)", fix: status == .pass ? nil : "(any fix)")
    }

    static func gateway(_ checks: [Check], beacon: GatewayBeacon? = Recorded.beacon(), tls: Bool = true) -> GatewayResult {
        GatewayResult(target: Recorded.target(tls: tls), beacon: beacon, checks: checks)
    }

    static let gatewayCases: [(String, GatewayResult, [DiagnosisID])] = [
        ("all pass", gateway(CheckID.gateway.map { check($0, .pass, .ok) }), []),
        ("refused, advertised", gateway([check(.gwTCP, .fail, .refused)]), [.gatewayNotListening]),
        ("refused, typed by hand", gateway([check(.gwTCP, .fail, .refused)], beacon: nil), []),
        ("refused on this machine", gateway([check(.gwTCP, .fail, .nothingListensLocally)]), []),
        ("timed out", gateway([check(.gwTCP, .fail, .timedOut)], beacon: nil), [.firewall]),
        ("unreachable", gateway([check(.gwTCP, .fail, .unreachable)]), []),
        ("pin mismatch", gateway([check(.gwPin, .fail, .pinMismatch)]), [.pinChanged]),
        ("beacon's fingerprint differs", gateway([check(.gwPin, .fail, .advertisedMismatch)]), [.pinChanged]),
        ("stale beacon only warns", gateway([check(.gwPin, .warn, .advertisedStale)]), []),
        ("plain text where TLS was expected", gateway([check(.gwTLS, .fail, .notTLS)]), [.tlsExpected]),
        ("plain text, not expected", gateway([check(.gwTLS, .fail, .notTLS)], tls: false), []),
        ("TLS 1.2 only", gateway([check(.gwTLS, .fail, .tlsVersion)]), []),
        (
            "TLS server probed as ws://", gateway([check(.gwHTTP, .fail, .wantsTLS), check(.gwWebSocket, .fail, .wantsTLS)], tls: false),
            [.tlsNotAdvertised]
        ),
        ("expired certificate", gateway([check(.gwCert, .fail, .certificateExpired)]), [.certificate]),
        ("proxy without WebSockets", gateway([check(.gwWebSocket, .fail, .upgradeRefused)]), [.webSocket]),
        (
            "not a Gateway", gateway([check(.gwWebSocket, .pass, .ok), check(.gwProtocol, .fail, .unexpectedFirstFrame)]),
            [.gatewayProtocol]
        ),
    ]

    @Test("each Gateway rule fires on its reason and on nothing else", arguments: gatewayCases)
    func gatewayRules(name: String, result: GatewayResult, expected: [DiagnosisID]) {
        let found = DiagnosisRules.gateway.flatMap { $0(result) }.map(\.id)
        #expect(found == expected, "\(name): \(found)")
    }

    static func evidence(
        _ checks: [Check], system: RecordedSystem = RecordedSystem(), beacons: [GatewayBeacon] = [],
        answers: [HostAnswer] = [], local: Bool = true
    ) -> MachineEvidence {
        MachineEvidence(
            checks: checks, facts: MachineFacts.gather(system),
            discovery: DiscoverySummary(localBrowsed: local, domains: [], beacons: beacons, issues: [], hostAnswers: answers))
    }

    static let host = IPAddress("192.168.1.30")!
    static var noAvahi: RecordedSystem {
        var system = RecordedSystem()
        system.avahiStatus = .unavailable(DiscoveryIssue(source: .mdns, kind: .daemonMissing, message: "not running"))
        return system
    }

    static let machineCases: [(String, MachineEvidence, [DiagnosisID])] = [
        ("a beacon in local.", evidence([], beacons: [Recorded.beacon()]), []),
        ("no bus", evidence([check(.mdnsDBus, .fail, .busMissing)], system: noAvahi), [.noMDNS]),
        ("no daemon", evidence([check(.mdnsDaemon, .fail, .daemonUnavailable)], system: noAvahi), [.noMDNS]),
        (
            "nothing in local., the host answers",
            evidence([], answers: [HostAnswer(address: host, gateway: "gw", answer: .name("gw.local"))]),
            [.gatewayNotAdvertising]
        ),
        (
            "nothing in local., the host is silent", evidence([], answers: [HostAnswer(address: host, gateway: "gw", answer: .noAnswer)]),
            [.multicastBlocked]
        ),
        ("nothing in local., nobody to ask", evidence([]), [.multicastBlocked]),
        ("local. not browsed", evidence([], local: false), []),
        (
            "another responder on 5353", evidence([check(.mdnsPort5353, .warn, .otherResponders)], beacons: [Recorded.beacon()]),
            [.twoMDNSStacks]
        ),
        ("split DNS", evidence([check(.dnsWideArea, .fail, .splitDNS)], beacons: [Recorded.beacon()]), [.splitDNS]),
        ("another wide-area failure", evidence([check(.dnsWideArea, .fail, .domainError)], beacons: [Recorded.beacon()]), []),
    ]

    @Test("each machine rule fires on its facts and on nothing else", arguments: machineCases)
    func machineRules(name: String, evidence: MachineEvidence, expected: [DiagnosisID]) {
        let found = DiagnosisRules.diagnose(evidence, gateways: []).map(\.id)
        #expect(found == expected, "\(name): \(found)")
    }
}
