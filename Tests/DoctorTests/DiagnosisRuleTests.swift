import Avahi
import DNSSD
import Discovery
import Foundation
import Host
import TestSupport
import Testing

@testable import Doctor
@testable import Probes

/// Each diagnosis rule on its own, from typed facts: which causes a set of checks yields.
/// The messages here are placeholders on purpose: no rule may read them.
@Suite("Diagnosis rules (table)")
struct DiagnosisRuleTests {
    /// A check with a reason and no evidence: the rules decide on reasons and typed evidence,
    /// and a check's words are not theirs to read.
    static func check(_ id: CheckID, _ status: Check.Status, _ reason: CheckReason) -> Check {
        Check(id, status, reason)
    }

    static func gateway(
        _ checks: [Check], beacon: GatewayBeacon? = Recorded.beacon(), tls: Bool = true, address: String = "192.168.1.30",
        tcp: [TCPAttempt] = [], routes: [Route] = []
    ) -> GatewayResult {
        Recorded.result(Recorded.target(address: address, tls: tls), beacon: beacon, checks: checks, tcp: tcp, routes: routes)
    }

    /// A Gateway whose gw.tcp reached no address: `address` gave `outcome`. The rules read the
    /// typed attempts, never the JSON words.
    static func silent(
        _ address: String, _ reason: CheckReason, outcome: TCPAttempt.Outcome = .timedOut, status: Check.Status = .fail,
        beacon: GatewayBeacon? = Recorded.beacon(), routes: [Route] = []
    ) -> GatewayResult {
        gateway(
            [check(.gwTCP, status, reason)], beacon: beacon, address: address,
            tcp: [TCPAttempt(address: IPAddress(address)!, outcome: outcome, elapsed: .seconds(1))], routes: routes)
    }

    /// A machine that explains nothing by itself: local. not browsed, no findings.
    static func quiet(_ system: RecordedSystem = RecordedSystem()) -> MachineResult {
        evidence([], system: system, local: false)
    }

    static var onTailnet: RecordedSystem {
        var system = RecordedSystem()
        system.networkInterfaces.append(
            NetworkInterface(
                name: "tailscale0", addresses: [IPAddress("100.101.102.5")!, IPAddress("10.77.0.5")!], isUp: true, isLoopback: false,
                supportsMulticast: false, networks: [IPNetwork("100.101.102.5/32")!, IPNetwork("10.77.0.0/16")!]))
        return system
    }

    static var withRoutes: RecordedSystem {
        var system = RecordedSystem()
        system.routeTable = [
            Route(network: IPNetwork("192.168.1.0/24")!, interface: "eth0"), Route(network: IPNetwork("0.0.0.0/0")!, interface: "eth0"),
        ]
        return system
    }

    static let gatewayCases: [(String, GatewayResult, MachineResult, [DiagnosisID])] = [
        ("all pass", gateway(CheckID.gateway.map { check($0, .pass, .ok) }), quiet(), []),
        ("NXDOMAIN", gateway([check(.gwDNS, .fail, .nameNotFound)], beacon: nil), quiet(), [.nameNotFound]),
        (".local without nss-mdns", gateway([check(.gwDNS, .fail, .localNameWithoutNSS)], beacon: nil), quiet(), [.nssMdnsMissing]),
        ("MagicDNS not applied", gateway([check(.gwDNS, .fail, .magicDNSNotApplied)], beacon: nil), quiet(), [.magicDNSNotApplied]),
        ("no address", gateway([check(.gwDNS, .fail, .noAddress)], beacon: nil), quiet(), [.nameUnresolved]),
        ("unknown name", gateway([check(.gwDNS, .fail, .unknownTarget)], beacon: nil), quiet(), [.unknownTarget]),
        ("refused, advertised", gateway([check(.gwTCP, .fail, .refused)]), quiet(), [.gatewayNotListening]),
        ("refused, typed by hand", gateway([check(.gwTCP, .fail, .refused)], beacon: nil), quiet(), [.nothingListens]),
        ("refused on this machine", gateway([check(.gwTCP, .fail, .nothingListensLocally)]), quiet(), [.nothingListens]),
        ("timed out, route unknown", silent("192.168.1.30", .timedOut, beacon: nil), quiet(), [.firewall]),
        (
            "timed out on the local network", silent("192.168.1.30", .timedOut, beacon: nil, routes: withRoutes.routeTable),
            quiet(withRoutes),
            [.firewall]
        ),
        (
            "unreachable, route unknown", silent("192.168.1.30", .unreachable, outcome: .unreachable("no route")), quiet(),
            [.hostUnreachable]
        ),
        (
            "tailnet address, this machine off the tailnet", silent("100.101.102.7", .timedOut),
            quiet(), [.tailnetUnreachable]
        ),
        (
            "tailnet address that refused: not silent, so not the tailnet", silent("100.101.102.7", .timedOut, outcome: .refused),
            quiet(), [.firewall]
        ),
        (
            "tailnet address, on the tailnet", silent("100.101.102.7", .timedOut), quiet(onTailnet),
            [.tailnetUnreachable]
        ),
        (
            "Headscale range from tailscale0's subnet",
            silent("10.77.0.9", .unreachable, outcome: .unreachable("no route")),
            quiet(onTailnet), [.tailnetUnreachable]
        ),
        (
            "a private address with no route",
            silent("10.77.0.9", .unreachable, outcome: .unreachable("no route"), routes: withRoutes.routeTable),
            quiet(withRoutes), [.unroutableAddress]
        ),
        (
            "a Docker bridge beside a good address",
            silent("172.17.0.1", .partlyUnreachable, outcome: .unreachable("no route"), status: .warn, routes: withRoutes.routeTable),
            quiet(withRoutes), [.unroutableAddress]
        ),
        ("pin mismatch", gateway([check(.gwPin, .fail, .pinMismatch)]), quiet(), [.pinChanged]),
        ("beacon's fingerprint differs", gateway([check(.gwPin, .fail, .advertisedMismatch)]), quiet(), [.pinChanged]),
        ("stale beacon only warns", gateway([check(.gwPin, .warn, .advertisedStale)]), quiet(), []),
        ("plain text where TLS was expected", gateway([check(.gwTLS, .fail, .notTLS)]), quiet(), [.tlsExpected]),
        ("TLS 1.2 only", gateway([check(.gwTLS, .fail, .tlsVersion)]), quiet(), [.tlsVersion]),
        ("a TLS alert", gateway([check(.gwTLS, .fail, .tlsAlert)]), quiet(), [.tlsAlert]),
        ("a handshake that fails", gateway([check(.gwTLS, .fail, .handshakeFailed)]), quiet(), [.tlsHandshake]),
        (
            "TLS server probed as ws://",
            gateway([check(.gwHTTP, .fail, .wantsTLS), check(.gwWebSocket, .fail, .wantsTLS)], tls: false), quiet(), [.tlsNotAdvertised]
        ),
        ("expired certificate", gateway([check(.gwCert, .fail, .certificateExpired)]), quiet(), [.certificate]),
        (
            "another program on the port",
            gateway([check(.gwHTTP, .fail, .unhealthy), check(.gwWebSocket, .fail, .upgradeRefused)]), quiet(),
            [.anotherProgram]
        ),
        ("a 200 that is not a Gateway's", gateway([check(.gwHTTP, .fail, .notGatewayHealth)]), quiet(), [.anotherProgram]),
        ("health check fails", gateway([check(.gwHTTP, .fail, .healthFailed)]), quiet(), [.health]),
        ("proxy without WebSockets", gateway([check(.gwWebSocket, .fail, .upgradeRefused)]), quiet(), [.webSocket]),
        (
            "not a Gateway", gateway([check(.gwWebSocket, .pass, .ok), check(.gwProtocol, .fail, .unexpectedFirstFrame)]), quiet(),
            [.gatewayProtocol]
        ),
        ("credentials asked for: not a failure", gateway([check(.gwConnect, .pass, .credentialsRequired)]), quiet(), []),
        ("pairing required", gateway([check(.gwConnect, .fail, .pairingRequired)]), quiet(), [.pairingRequired]),
        ("token mismatch", gateway([check(.gwConnect, .fail, .tokenMismatch)]), quiet(), [.gatewayAuth]),
        ("token missing", gateway([check(.gwConnect, .fail, .tokenMissing)]), quiet(), [.gatewayAuth]),
        ("protocol mismatch", gateway([check(.gwConnect, .fail, .protocolMismatch)]), quiet(), [.protocolMismatch]),
        ("still starting: named, a warning", gateway([check(.gwConnect, .warn, .gatewayStarting)]), quiet(), [.gatewayStarting]),
        ("closed with 1008", gateway([check(.gwConnect, .fail, .closedByGateway)]), quiet(), [.connect]),
    ]

    @Test("each Gateway rule fires on its reason and on nothing else", arguments: gatewayCases)
    func gatewayRules(name: String, result: GatewayResult, evidence: MachineResult, expected: [DiagnosisID]) {
        let found = DiagnosisRules.diagnose(evidence, gateways: [result]).map(\.id)
        #expect(found == expected, "\(name): \(found)")
    }

    static func evidence(
        _ checks: [Check], system: RecordedSystem = RecordedSystem(), beacons: [GatewayBeacon] = [],
        answers: [HostAnswer] = [], local: Bool = true
    ) -> MachineResult {
        MachineResult(
            checks: checks, facts: MachineFacts.gather(system),
            discovery: DiscoverySummary(localBrowsed: local, domains: [], beacons: beacons, issues: [], hostAnswers: answers))
    }

    static let host = IPAddress("192.168.1.30")!
    static var noAvahi: RecordedSystem {
        var system = RecordedSystem()
        system.avahiStatus = .unavailable(DiscoveryIssue.noDaemon)
        return system
    }

    /// A Gateway host (its config exists) with advertising settings and container facts.
    static func gatewayHost(mdnsMode: MDNSMode? = nil, disable: String? = nil, container: String? = nil, remote: Bool = false)
        -> RecordedSystem
    {
        var system = RecordedSystem()
        system.openclaw.exists = true
        system.openclaw.advertising.mdnsMode = mdnsMode
        system.openclaw.advertising.disableBonjour = disable
        if remote { system.openclaw.node.mode = .remote }
        system.platformFacts.container = container
        return system
    }

    static let machineCases: [(String, MachineResult, [DiagnosisID])] = [
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
        ("this Gateway host: discovery.mdns.mode off", evidence([], system: gatewayHost(mdnsMode: .off)), [.gatewayNotAdvertising]),
        ("this Gateway host: OPENCLAW_DISABLE_BONJOUR=1", evidence([], system: gatewayHost(disable: "1")), [.gatewayNotAdvertising]),
        ("this Gateway host: a container", evidence([], system: gatewayHost(container: "/.dockerenv")), [.gatewayNotAdvertising]),
        (
            "a container with OPENCLAW_DISABLE_BONJOUR=0 advertises",
            evidence([], system: gatewayHost(disable: "0", container: "/.dockerenv")),
            [.multicastBlocked]
        ),
        (
            "a node in a container advertises nothing of its own",
            evidence([], system: gatewayHost(container: "/.dockerenv", remote: true)), [.multicastBlocked]
        ),
        (
            "another responder on 5353", evidence([check(.mdnsPort5353, .warn, .otherResponders)], beacons: [Recorded.beacon()]),
            [.twoMDNSStacks]
        ),
        (
            "no multicast interface", evidence([check(.mdnsInterfaces, .fail, .noMulticastInterface)], beacons: [Recorded.beacon()]),
            [.noMulticastInterface]
        ),
        ("split DNS", evidence([check(.dnsWideArea, .fail, .splitDNS)], beacons: [Recorded.beacon()]), [.splitDNS]),
        (
            "another wide-area failure", evidence([check(.dnsWideArea, .fail, .domainError)], beacons: [Recorded.beacon()]),
            [.wideAreaDomain]
        ),
    ]

    @Test("each machine rule fires on its facts and on nothing else", arguments: machineCases)
    func machineRules(name: String, evidence: MachineResult, expected: [DiagnosisID]) {
        let found = DiagnosisRules.diagnose(evidence, gateways: []).map(\.id)
        #expect(found == expected, "\(name): \(found)")
    }

    @Test("the advertising cause names the switch that is off and how to turn it on")
    func advertisingSwitch() throws {
        let found = DiagnosisRules.diagnose(Self.evidence([], system: Self.gatewayHost(mdnsMode: .off)), gateways: [])
        let cause = try #require(found.first)
        #expect(cause.cause.contains("discovery.mdns.mode is \"off\""))
        #expect(cause.fix.contains("\"minimal\""))
        #expect(cause.evidence.map(\.description) == ["openclaw.advertising", "mdns.browse"])
    }

    /// Every failure a layer declares, with the rules that declare they explain it.
    static let failures: [DiagnosisRule.Explained] = Layer.all.flatMap { layer in
        layer.failures.sorted { $0.rawValue < $1.rawValue }.map { DiagnosisRule.Explained(layer.id, $0) }
    }

    @Test("every failure a layer can have is explained by some rule (the declarations, as a table)")
    func tableIsComplete() {
        let explained = Set(DiagnosisRules.all.flatMap(\.explains))
        let missing = Self.failures.filter { !explained.contains($0) }
        #expect(missing.isEmpty, "failures no rule declares it explains: \(missing)")
        let strays = explained.filter { !Self.failures.contains($0) }
        #expect(strays.isEmpty, "rules explain what no layer fails with: \(strays)")
    }

    @Test("every reason a check fails with is explained by a rule that declares it, never by the generic one", arguments: failures)
    func failureIsExplained(failure: DiagnosisRule.Explained) {
        let (id, reason) = (failure.check, failure.reason)
        let declaring = Set(DiagnosisRules.all.filter { $0.explains.contains(failure) }.map(\.id))
        let failing = Self.check(id, .fail, reason)
        let found: [Diagnosis]
        if id.rawValue.hasPrefix("gw.") {
            let result = Self.gateway([failing], tls: reason != .wantsTLS)
            found = DiagnosisRules.diagnose(Self.quiet(), gateways: [result])
        } else {
            let system = reason == .busMissing || reason == .daemonUnavailable ? Self.noAvahi : RecordedSystem()
            found = DiagnosisRules.diagnose(Self.evidence([failing], system: system, beacons: [Recorded.beacon()]), gateways: [])
        }
        let naming = found.filter { $0.evidence.contains { $0.check == id } }
        #expect(naming.contains { declaring.contains($0.id) }, "\(failure): \(found.map(\.id)), declared by \(declaring)")
        #expect(!found.contains { $0.id == .checkFailed }, "\(failure) fell through to the generic cause: \(found.map(\.id))")
    }

    @Test("the recorded scenes fail only with reasons their layers declare")
    func scenesFailAsDeclared() {
        for scene in GoldenScene.all {
            let result = scene.result()
            for check in result.checks + result.gateways.flatMap(\.checks) where check.status == .fail {
                let declared = Layer.all.first { $0.id == check.id }?.failures ?? []
                #expect(declared.contains(check.reason), "\(scene.name): \(check.id) failed with \(check.reason)")
            }
        }
    }

    @Test("a failure no rule knows still ends with a cause that names its check")
    func genericCause() throws {
        let odd = Self.check(.openclawConfig, .fail, .configInvalid)
        let machine = DiagnosisRules.diagnose(Self.evidence([odd], beacons: [Recorded.beacon()]), gateways: [])
        let cause = try #require(machine.first { $0.id == .checkFailed })
        #expect(cause.evidence.map(\.description) == ["openclaw.config"])
        #expect(cause.cause.contains("OpenClaw configuration failed"))
        let result = Self.gateway([Self.check(.gwPin, .fail, .advertisedStale)])
        let gateway = DiagnosisRules.diagnose(Self.quiet(), gateways: [result])
        #expect(gateway.map(\.id) == [.checkFailed])
        #expect(gateway.first?.evidence.map(\.description) == ["gw.pin wss://studio.local:18789"])
    }

    @Test("a browse error kind that names one of doctor's causes carries doctor's id for it, and only ids doctor has")
    func browseKindsNameDiagnoses() throws {
        let named: [DiscoveryIssue.Kind: DiagnosisID] = [
            .busMissing: .noMDNS, .daemonMissing: .noMDNS, .splitDNS: .splitDNS, .lookupFailed: .nameUnresolved,
        ]
        for (kind, id) in named { #expect(kind.diagnosis == id.rawValue, "\(kind)") }
    }
}
