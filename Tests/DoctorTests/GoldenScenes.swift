import Avahi
import DNSSD
import Discovery
import Foundation
import Host

@testable import Doctor
@testable import Output
@testable import Probes

/// Recorded scenes for the golden tests: a machine, what discovery found, and each Gateway's
/// probe report. Every value is fixed (dates, elapsed times), so the rendered report is too.
struct GoldenScene: Sendable {
    /// One Gateway of the scene: its probe report and what doctor knew before probing it.
    struct Gateway: Sendable {
        var report: ProbeReport
        var beacon: GatewayBeacon?
        var dnsProblem: DNSProblem?
        var pin: TLSFingerprint?
        var pinFromConfig = false
        var isLocalFallback = false
        /// The local fallback answered TLS to ws:// and was probed again as wss://.
        var foundTLS = false
        /// A name that matched nothing (then `report` is ignored).
        var unknown: String?

        init(
            _ report: ProbeReport, beacon: GatewayBeacon? = nil, dnsProblem: DNSProblem? = nil, pin: TLSFingerprint? = nil,
            pinFromConfig: Bool = false, isLocalFallback: Bool = false
        ) {
            self.report = report
            self.beacon = beacon
            self.dnsProblem = dnsProblem
            self.pin = pin
            self.pinFromConfig = pinFromConfig
            self.isLocalFallback = isLocalFallback
        }

        static func unknown(_ text: String) -> Gateway {
            var gateway = Gateway(ProbeReport(target: Golden.target()))
            gateway.unknown = text
            return gateway
        }
    }

    let name: String
    var system = RecordedSystem()
    var discovery = Recorded.discovery()
    var gateways: [Gateway] = []
    /// mDNS checked (no --no-local).
    var multicast = true
    /// Targets were named on the command line: findings they do not depend on are warnings.
    var explicitTargets = false
    /// --check IDs.
    var only: Set<CheckID>?

    init(_ name: String, _ configure: (inout GoldenScene) -> Void = { _ in }) {
        self.name = name
        configure(&self)
    }
}

/// Fixed values the scenes share.
enum Golden {
    /// 2026-05-28 20:26:40Z: the certificates' validity is judged against this instant.
    static let now = Date(timeIntervalSince1970: 1_780_000_000)
    static let budget = Duration.seconds(5)
    static let day: TimeInterval = 86_400

    static func target(
        _ label: String = "wss://studio.local:18789", host: String = "studio.local", addresses: [String] = ["192.168.1.30"],
        port: Int = 18789, tls: Bool = true, advertised: TLSFingerprint? = nil
    ) -> ProbeTarget {
        ProbeTarget(
            label: label, host: host, addresses: addresses.map { IPAddress($0)! }, port: port, tls: tls, advertisedFingerprint: advertised)
    }

    static func tlsFacts(
        version: TLSProtocolVersion = .tls13, sha: TLSFingerprint = Recorded.certificateSHA, notBefore: TimeInterval = -30 * day,
        notAfter: TimeInterval = 300 * day, selfSigned: Bool = true, readable: Bool = true
    ) -> TLSFacts {
        TLSFacts(
            version: version, cipher: version == .tls13 ? "TLS_AES_256_GCM_SHA384" : "ECDHE-RSA-AES128-GCM-SHA256", fingerprint: sha,
            certificate: readable
                ? CertificateFacts(
                    subject: "CN=openclaw-gateway", issuer: selfSigned ? "CN=openclaw-gateway" : "CN=Example CA",
                    subjectAlternativeNames: ["studio.local", "192.168.1.30"], notBefore: now.addingTimeInterval(notBefore),
                    notAfter: now.addingTimeInterval(notAfter), selfSigned: selfSigned, publicKey: "RSA 2048") : nil,
            certificateProblem: readable ? nil : "the certificate is not valid DER")
    }

    /// A healthy Gateway's report with fixed certificate dates, changed by `change`.
    static func report(_ target: ProbeTarget = target(), _ change: (inout ProbeReport) -> Void = { _ in }) -> ProbeReport {
        var report = Recorded.healthyReport(target, tls: .established(tlsFacts()))
        change(&report)
        return report
    }

    static func tcp(_ target: ProbeTarget, _ outcomes: [TCPAttempt.Outcome]) -> ProbeReport {
        var report = ProbeReport(target: target)
        report.tcp = zip(target.addresses, outcomes).map { TCPAttempt(address: $0, outcome: $1, elapsed: .milliseconds(1500)) }
        return report
    }

    static let token = GatewayToken("hunter2-golden", source: "gateway.remote.token")!

    static var gatewayHost: RecordedSystem {
        var system = RecordedSystem()
        system.openclaw.exists = true
        system.openclaw.bind = .lan
        return system
    }

    static var onTailnet: RecordedSystem {
        var system = RecordedSystem()
        system.networkInterfaces.append(
            NetworkInterface(
                name: "tailscale0", addresses: [IPAddress("100.101.102.5")!], isUp: true, isLoopback: false, supportsMulticast: false,
                networks: [IPNetwork("100.101.102.5/32")!]))
        return system
    }
}
