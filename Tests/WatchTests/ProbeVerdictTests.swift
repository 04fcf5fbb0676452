import Avahi
import DNSSD
import Discovery
import Foundation
import Host
import Testing

@testable import Doctor
@testable import Probes
@testable import Watch

/// A machine with D-Bus, avahi-daemon and a LAN interface, and no OpenClaw config.
struct QuietMachine: SystemInspector {
    let busAddress = "unix:path=/run/dbus/system_bus_socket"
    func busSocketExists() -> Bool? { true }
    func avahi() -> AvahiStatus { .running(version: "avahi 0.8", hostName: "node.local") }
    func avahiInstalled() -> Bool { true }
    func interfaces() -> [NetworkInterface] {
        [NetworkInterface(name: "eth0", addresses: [IPAddress("192.168.1.20")!], isUp: true, isLoopback: false, supportsMulticast: true)]
    }
    func udp5353Holders() -> PortHolders { PortHolders(sockets: 1, holders: [PortHolders.Holder(pid: 410, name: "avahi-daemon")]) }
    func nsswitchHosts() -> String? { "hosts: files mdns4_minimal [NOTFOUND=return] dns" }
    func resolvConf() -> ResolvConf { ResolvConf(path: "/etc/resolv.conf", text: "nameserver 192.168.1.1\n") }
    func usesSystemdResolved() -> Bool { false }
    func config() -> OpenClawConfig { OpenClawConfig(path: "/nonexistent/openclaw.json") }
}

/// Watch judges each probe as doctor does: one `GatewayJudgement`, then doctor's rules. The
/// same report of the same beacon, through `Doctor.run` (on a recorded network) and through
/// `ProbeVerdict.judge`, fails the same check for the same causes.
@Suite("watch's verdict on a probe is doctor's")
struct ProbeVerdictTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)
    static let advertised = TLSFingerprint(digest: [UInt8](repeating: 0xAB, count: 32))

    static let beacon = GatewayBeacon(
        instance: try! InstanceName(decoded: "Studio (OpenClaw)"), serviceType: .gateway, domain: .local, source: .mdns,
        host: "studio.local.", port: 18789, addresses: [IPAddress("192.168.1.30")!],
        txt: try! TXTRecord(pairs: [("role", "gateway"), ("gatewayTls", "1"), ("gatewayTlsSha256", advertised.hex)]))

    static func certificate(_ fingerprint: TLSFingerprint) -> TLSFacts {
        TLSFacts(
            version: .tls13, cipher: "TLS_AES_256_GCM_SHA384", fingerprint: fingerprint,
            certificate: CertificateFacts(
                subject: "CN=openclaw-gateway", issuer: "CN=openclaw-gateway", subjectAlternativeNames: [],
                notBefore: now.addingTimeInterval(-86_400), notAfter: now.addingTimeInterval(300 * 86_400), selfSigned: true,
                publicKey: "RSA 2048"),
            certificateProblem: nil)
    }

    /// The beacon's target as probed: refused (no certificate), or up to the WebSocket
    /// (`websocket`, else the challenge and hello-ok) with a certificate of `fingerprint`.
    static func report(_ target: ProbeTarget, certificate fingerprint: TLSFingerprint?, websocket: WebSocketOutcome? = nil) -> ProbeReport {
        var report = ProbeReport(target: target)
        let took = Duration.milliseconds(3)
        let address = target.addresses[0]
        guard let fingerprint else {
            report.tcp = [TCPAttempt(address: address, outcome: .refused, elapsed: took)]
            return report
        }
        report.tcp = [TCPAttempt(address: address, outcome: .connected, elapsed: took)]
        report.tls = PhaseTiming(outcome: .established(certificate(fingerprint)), elapsed: took)
        let live = HTTPOutcome.response(status: 200, body: #"{"ok":true}"#, server: nil)
        (report.health, report.ready) = (PhaseTiming(outcome: live, elapsed: took), PhaseTiming(outcome: live, elapsed: took))
        let nonce = #"{"type":"event","event":"connect.challenge","payload":{"nonce":"n","ts":1}}"#
        let opened = WebSocketOutcome.opened(FirstFrame(text: nonce, content: .challenge(nonce: "n")), closedCleanly: true)
        report.websocket = PhaseTiming(outcome: websocket ?? opened, elapsed: took)
        let hello = HelloOk(protocolVersion: 4, serverVersion: "2026.5.1", role: "operator", scopes: [])
        if websocket == nil { report.connect = PhaseTiming(outcome: .helloOk(hello), elapsed: took) }
        return report
    }

    /// Reports of the beacon's target, by name.
    static let reports: [String: @Sendable (ProbeTarget) -> ProbeReport] = [
        "healthy": { report($0, certificate: advertised) },
        "refused": { report($0, certificate: nil) },
        "not the advertised certificate": { report($0, certificate: TLSFingerprint(digest: [UInt8](repeating: 0xCD, count: 32))) },
        "no challenge": { report($0, certificate: advertised, websocket: .upgradeRefused(status: 404)) },
    ]

    @Test(
        "one report, judged by doctor and by watch: the same failing check, the same causes, the same layer times",
        arguments: reports.keys.sorted())
    func sameAsDoctor(name: String) async throws {
        let report = try #require(Self.reports[name])
        let target = Doctor.probeTarget(Self.beacon)
        var answers = RecordedNetwork.Answers()
        answers.probes[RecordedNetwork.probeKey(target)] = report
        answers.probes["ws://127.0.0.1:18789"] = { Self.report($0, certificate: nil) }
        let network = RecordedNetwork(answers, now: Self.now)
        var options = DoctorOptions()
        (options.discovery.local, options.noLocal) = (false, true)
        let discovery = RecordedDiscovery(events: [.added(Self.beacon), .allForNow])
        let doctor = await Doctor.run(options, system: QuietMachine(), io: network.io(discovery: discovery))
        let gateway = try #require(doctor.gateways.first { $0.target == target.label }, "\(doctor.gateways.map(\.target))")
        let causes = doctor.diagnosis.filter { $0.evidence.contains { $0.target == target.label } }

        let setup = WatchSetup.read(DiscoveryOptions(), system: QuietMachine())
        let verdict = ProbeVerdict.judge(
            report(target), beacon: Self.beacon, pin: nil, machine: setup.machine, machineCauses: setup.machineCauses,
            budget: .seconds(5), now: Self.now)

        let failed = gateway.checks.first { $0.status == .fail }
        #expect(
            verdict.failure?.check == failed?.id,
            "\(name): watch \(String(describing: verdict.failure)), doctor \(String(describing: failed))")
        #expect(verdict.diagnoses == causes.map(\.id), "\(name): watch \(verdict.diagnoses), doctor \(causes.map(\.id))")
        let timed = gateway.checks.filter { $0.status != .skip && $0.id != .gwDNS }
        #expect(verdict.durations == Dictionary(uniqueKeysWithValues: timed.map { ($0.id, $0.elapsed) }), "\(name)")
        #expect(network.unanswered.isEmpty, "\(network.unanswered)")
    }

    @Test("whether the Gateway's beacon advertises the certificate served: true, false, and nil when no beacon has a fingerprint")
    func beaconAgrees() {
        let setup = WatchSetup.read(DiscoveryOptions(), system: QuietMachine())
        let target = Doctor.probeTarget(Self.beacon)
        let other = TLSFingerprint(digest: [UInt8](repeating: 0xCD, count: 32))
        var bare = Self.beacon
        bare.txt = try! TXTRecord(pairs: [("role", "gateway"), ("gatewayTls", "1")])
        let cases: [(GatewayBeacon, TLSFingerprint, Bool?)] = [
            (Self.beacon, Self.advertised, true), (Self.beacon, other, false), (bare, other, nil),
        ]
        for (beacon, served, agrees) in cases {
            let verdict = ProbeVerdict.judge(
                Self.report(target, certificate: served), beacon: beacon, pin: nil, machine: setup.machine,
                machineCauses: setup.machineCauses, budget: .seconds(5), now: Self.now)
            #expect(verdict.beaconAgrees == agrees, "served \(served.short): \(String(describing: verdict.beaconAgrees))")
        }
    }
}
