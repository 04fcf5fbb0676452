import Avahi
import DNSSD
import Discovery
import Foundation
import Host
import Testing

@testable import Doctor
@testable import Output
@testable import Probes

/// A machine described by recorded facts: what LiveSystem would have read.
struct RecordedSystem: SystemInspector {
    var busAddress = "unix:path=/run/dbus/system_bus_socket"
    var busExists: Bool? = true
    var avahiStatus = AvahiStatus.running(version: "avahi 0.8", hostName: "node.local")
    var avahiProgram = true
    var networkInterfaces = [
        NetworkInterface(name: "lo", addresses: [IPAddress("127.0.0.1")!], isUp: true, isLoopback: true, supportsMulticast: false),
        NetworkInterface(name: "eth0", addresses: [IPAddress("192.168.1.20")!], isUp: true, isLoopback: false, supportsMulticast: true),
    ]
    var holders = PortHolders(sockets: 2, holders: [PortHolders.Holder(pid: 410, name: "avahi-daemon")])
    var hostsLine: String? = "hosts: files mdns4_minimal [NOTFOUND=return] dns"
    /// The nss-mdns libraries installed; nil: not looked at (the hosts line decides).
    var mdnsModules: Set<String>? = ["mdns4_minimal", "mdns4", "mdns"]
    var resolv = ResolvConf(path: "/etc/resolv.conf", text: "nameserver 192.168.1.1\n")
    var resolved = false
    var openclaw = OpenClawConfig(path: "/home/op/.openclaw/openclaw.json")
    var routeTable: [Route] = []
    var platformFacts = PlatformFacts()
    /// `resolvectl status` as recorded (resolved does not run in the test bed); nil: not asked.
    var resolvedLinks: ResolvedStatus?
    /// `tailscale serve status --json` as recorded (tailscaled does not run in the test bed).
    var serveJSON: String?
    /// `systemctl --user show` and the journal of the Gateway's unit, as recorded (systemd does
    /// not run in the test bed).
    var service: GatewayService?
    /// Whether 127.0.0.1:PORT accepts; nil: not known.
    var loopback: Bool?

    func busSocketExists() -> Bool? { busExists }
    func loopbackAnswers(port: Int, within timeout: Duration) -> Bool? { loopback }
    func avahi() -> AvahiStatus { avahiStatus }
    func avahiInstalled() -> Bool { avahiProgram }
    func interfaces() -> [NetworkInterface] { networkInterfaces }
    func udp5353Holders() -> PortHolders { holders }
    func nsswitchHosts() -> String? { hostsLine }
    func nssMDNSModules() -> Set<String>? { mdnsModules }
    func resolvConf() -> ResolvConf { resolv }
    func usesSystemdResolved() -> Bool { resolved }
    func config() -> OpenClawConfig { openclaw }
    func routes() -> [Route] { routeTable }
    func platform() -> PlatformFacts { platformFacts }
    func resolvedStatus() -> ResolvedStatus? { resolvedLinks }
    func tailscaleServe() -> TailscaleServeStatus? { serveJSON.flatMap { TailscaleServeStatus(json: Array($0.utf8)) } }
    func gatewayService() -> GatewayService? { service }
}

enum Recorded {
    static let domain = try! DomainName(validating: "openclaw.internal")
    static let certificateSHA = TLSFingerprint(digest: [UInt8](repeating: 0xAB, count: 32))
    static let otherSHA = TLSFingerprint(digest: [UInt8](repeating: 0xCD, count: 32))

    /// The TXT of a Gateway with TLS on, which OpenClaw's phones accept (discovery.phones).
    static let tlsTXT: [(key: String, value: String?)] = [("role", "gateway"), ("gatewayTls", "1")]

    static func beacon(
        _ name: String = "Studio (OpenClaw)", source: BeaconSource = .mdns, address: String = "192.168.1.30",
        port: Int = 18789, txt: [(key: String, value: String?)] = [("role", "gateway")]
    ) -> GatewayBeacon {
        GatewayBeacon(
            instance: try! InstanceName(decoded: name), serviceType: .gateway,
            domain: source == .unicast ? domain : .local, source: source,
            host: "studio.local.", port: port, addresses: [IPAddress(address)!], txt: try! TXTRecord(pairs: txt))
    }

    static func discovery(local: Bool = true, domains: [DomainName] = [], beacons: [GatewayBeacon] = [], issues: [DiscoveryIssue] = [])
        -> DiscoverySummary
    {
        DiscoverySummary(localBrowsed: local, domains: domains, beacons: beacons, issues: issues)
    }

    static func target(address: String = "192.168.1.30", tls: Bool = true, advertised: TLSFingerprint? = nil) -> ProbeTarget {
        ProbeTarget(
            label: "wss://studio.local:18789", host: "studio.local", addresses: [IPAddress(address)!], port: 18789,
            tls: tls, advertisedFingerprint: advertised)
    }

    static func tlsFacts(
        version: TLSProtocolVersion = .tls13, sha: TLSFingerprint = certificateSHA,
        notBefore: Date = Date(timeIntervalSinceNow: -86_400), notAfter: Date = Date(timeIntervalSinceNow: 300 * 86_400)
    ) -> TLSFacts {
        TLSFacts(
            version: version, cipher: version == .tls13 ? "TLS_AES_256_GCM_SHA384" : "ECDHE-RSA-AES128-GCM-SHA256", fingerprint: sha,
            certificate: CertificateFacts(
                subject: "CN=openclaw-gateway", issuer: "CN=openclaw-gateway", subjectAlternativeNames: [],
                notBefore: notBefore, notAfter: notAfter, selfSigned: true, publicKey: "RSA 2048"),
            certificateProblem: nil)
    }

    /// A probe report in which every layer behaved as a healthy Gateway's does, unless changed.
    static func healthyReport(_ target: ProbeTarget = target(), tls: TLSOutcome? = nil) -> ProbeReport {
        var report = ProbeReport(target: target)
        report.tcp = [TCPAttempt(address: target.addresses[0], outcome: .connected, elapsed: .milliseconds(2))]
        if target.tls { report.tls = PhaseTiming(outcome: tls ?? .established(tlsFacts()), elapsed: .milliseconds(9)) }
        report.health = PhaseTiming(
            outcome: .response(status: 200, body: #"{"ok":true,"status":"live"}"#, server: nil), elapsed: .milliseconds(3))
        report.ready = PhaseTiming(
            outcome: .response(status: 200, body: #"{"ok":true,"status":"ready"}"#, server: nil), elapsed: .milliseconds(3))
        let frame = FirstFrame(
            text: #"{"type":"event","event":"connect.challenge","payload":{"nonce":"n0nce","ts":1}}"#, content: .challenge(nonce: "n0nce"))
        report.websocket = PhaseTiming(outcome: .opened(frame, closedCleanly: true), elapsed: .milliseconds(4))
        let hello = HelloOk(protocolVersion: 4, serverVersion: "2026.5.1", role: "operator", scopes: ["operator.read"])
        report.connect = PhaseTiming(outcome: .helloOk(hello), elapsed: .milliseconds(4))
        return report
    }

    static func refusedReport(_ target: ProbeTarget) -> ProbeReport {
        var report = ProbeReport(target: target)
        report.tcp = target.addresses.map { TCPAttempt(address: $0, outcome: .refused, elapsed: .microseconds(300)) }
        return report
    }
}

extension Recorded {
    /// A Gateway's evidence from its report, judged as doctor judges it.
    static func evidence(
        _ report: ProbeReport, beacon: GatewayBeacon? = nil, pin: TLSFingerprint? = nil, dnsProblem: DNSProblem? = nil
    ) -> GatewayEvidence {
        GatewayEvidence(report, beacon: beacon, dnsProblem: dnsProblem, pin: pin.map { Pin($0) }, budget: .seconds(5))
    }

    /// A Gateway as the rules see it: `checks`, with evidence from a report of `target` whose
    /// TCP attempts are `tcp`.
    static func result(
        _ target: ProbeTarget, beacon: GatewayBeacon?, checks: [Check], tcp: [TCPAttempt] = [], routes: [Route] = []
    ) -> GatewayResult {
        var report = ProbeReport(target: target)
        report.tcp = tcp
        return GatewayResult(
            evidence: GatewayEvidence(report, beacon: beacon, budget: .seconds(5), routes: routes), checks: checks)
    }
}

// The words a user reads, as the output writes them: tests assert on them as they did when
// checks carried their own.
extension Check {
    var message: String { CheckText(self).message }
    var fix: String? { CheckText(self).fix }
    var detail: [String: String] { CheckDetail.of(self) }
}

extension Diagnosis {
    var cause: String { DiagnosisText(self).cause }
    var fix: String { DiagnosisText(self).fix }
}

extension Preflight.Result {
    var message: String { PreflightText(self).message }
    var fix: String? { PreflightText(self).fix }
}

extension Array where Element == Check {
    func status(_ id: CheckID) -> Check.Status? { first { $0.id == id }?.status }
    subscript(id: CheckID) -> Check? { first { $0.id == id } }
}

// Tests name checks and causes by their ids as written in the report.
extension CheckID: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
}

extension DiagnosisID: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
}

/// Preflight as the command runs it, on `network`: the requirements' results, as the report
/// that decides the exit code. A question the network has no answer for fails the test.
func preflight(
    _ requirements: Set<Preflight.Requirement>, options: DoctorOptions, system: some SystemInspector,
    network: RecordedNetwork = RecordedNetwork(), sourceLocation: SourceLocation = #_sourceLocation
) async -> PreflightReport {
    let (results, elapsed) = await Preflight.run(requirements, options: options, system: system, io: network.io())
    #expect(network.unanswered.isEmpty, "asked without a recorded answer: \(network.unanswered)", sourceLocation: sourceLocation)
    return PreflightReport(requirements: results, elapsed: elapsed)
}
