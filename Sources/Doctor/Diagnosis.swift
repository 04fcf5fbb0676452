import DNSSD
import Probes

/// A cause a user needs, made from several checks: what is broken and how to fix it.
public struct Diagnosis: Sendable, Hashable, Encodable {
    public let id: DiagnosisID
    public let cause: String
    public let fix: String
    /// The checks that show it, each with the gateway's target when one is concerned.
    public let evidence: [Evidence]

    public init(_ id: DiagnosisID, cause: String, fix: String, evidence: [Evidence]) {
        self.id = id
        self.cause = cause
        self.fix = fix
        self.evidence = evidence
    }

    /// A check that shows the cause; printed `gw.tcp wss://host:port` for a Gateway's check.
    public struct Evidence: Sendable, Hashable, Encodable, CustomStringConvertible {
        public let check: CheckID
        public let target: String?

        public init(_ check: CheckID, target: String? = nil) {
            self.check = check
            self.target = target
        }

        public var description: String { target.map { "\(check) \($0)" } ?? check.rawValue }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }
    }
}

/// A cause doctor can name: stable, lower-case, dashed.
public struct DiagnosisID: RawRepresentable, Hashable, Sendable, Encodable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let noMDNS = DiagnosisID(rawValue: "no-mdns")
    public static let gatewayNotAdvertising = DiagnosisID(rawValue: "gateway-not-advertising")
    public static let multicastBlocked = DiagnosisID(rawValue: "multicast-blocked")
    public static let twoMDNSStacks = DiagnosisID(rawValue: "two-mdns-stacks")
    public static let splitDNS = DiagnosisID(rawValue: "split-dns")
    public static let gatewayNotListening = DiagnosisID(rawValue: "gateway-not-listening")
    public static let firewall = DiagnosisID(rawValue: "firewall")
    public static let pinChanged = DiagnosisID(rawValue: "pin-changed")
    public static let tlsExpected = DiagnosisID(rawValue: "tls-expected")
    public static let tlsNotAdvertised = DiagnosisID(rawValue: "tls-not-advertised")
    public static let certificate = DiagnosisID(rawValue: "gw-cert")
    public static let webSocket = DiagnosisID(rawValue: "gw-websocket")
    public static let gatewayProtocol = DiagnosisID(rawValue: "gw-protocol")
    public static let noMulticastInterface = DiagnosisID(rawValue: "no-multicast-interface")
    public static let wideAreaDomain = DiagnosisID(rawValue: "wide-area-domain")
    public static let nameNotFound = DiagnosisID(rawValue: "name-not-found")
    public static let nssMdnsMissing = DiagnosisID(rawValue: "nss-mdns-missing")
    public static let magicDNSNotApplied = DiagnosisID(rawValue: "magicdns-not-applied")
    public static let nameUnresolved = DiagnosisID(rawValue: "name-unresolved")
    public static let unknownTarget = DiagnosisID(rawValue: "unknown-target")
    public static let nothingListens = DiagnosisID(rawValue: "nothing-listens")
    public static let tailnetUnreachable = DiagnosisID(rawValue: "tailnet-unreachable")
    public static let unroutableAddress = DiagnosisID(rawValue: "unroutable-address")
    public static let hostUnreachable = DiagnosisID(rawValue: "host-unreachable")
    public static let tlsVersion = DiagnosisID(rawValue: "tls-version")
    public static let tlsAlert = DiagnosisID(rawValue: "tls-alert")
    public static let tlsHandshake = DiagnosisID(rawValue: "gw-tls")
    public static let anotherProgram = DiagnosisID(rawValue: "another-program")
    public static let health = DiagnosisID(rawValue: "gw-http")
    public static let pairingRequired = DiagnosisID(rawValue: "pairing-required")
    public static let gatewayAuth = DiagnosisID(rawValue: "gateway-auth")
    public static let protocolMismatch = DiagnosisID(rawValue: "protocol-mismatch")
    public static let connect = DiagnosisID(rawValue: "gw-connect")
    /// A failing check that no rule explains: named after the check, never silent.
    public static let checkFailed = DiagnosisID(rawValue: "check-failed")

    public var description: String { rawValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// The gateway-side view the rules need: where a target came from, its checks, and what its
/// probe verified (for zone snippets).
public struct GatewayResult: Sendable {
    public let target: ProbeTarget
    public let beacon: GatewayBeacon?
    public var checks: [Check]
    /// Each TCP attempt and its typed outcome, one per address tried.
    public var tcp: [TCPAttempt]
    /// The fingerprint of the certificate actually served.
    public var served: TLSFingerprint?

    public init(target: ProbeTarget, beacon: GatewayBeacon?, checks: [Check], tcp: [TCPAttempt] = [], served: TLSFingerprint? = nil) {
        self.target = target
        self.beacon = beacon
        self.checks = checks
        self.tcp = tcp
        self.served = served
    }

    /// The addresses that accepted a TCP connection.
    public var answered: [IPAddress] { tcp.filter { $0.outcome == .connected }.map(\.address) }

    public func check(_ id: CheckID) -> Check? { checks.first { $0.id == id } }

    /// True when `id` failed for `reason` (any reason when nil).
    func failed(_ id: CheckID, _ reason: CheckReason? = nil) -> Bool {
        guard let check = check(id), check.status == .fail else { return false }
        return reason.map { check.reason == $0 } ?? true
    }
}
