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

    public var description: String { rawValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// The gateway-side view the rules need: where a target came from, and its checks.
public struct GatewayResult: Sendable {
    public let target: ProbeTarget
    public let beacon: GatewayBeacon?
    public var checks: [Check]

    public init(target: ProbeTarget, beacon: GatewayBeacon?, checks: [Check]) {
        self.target = target
        self.beacon = beacon
        self.checks = checks
    }

    public func check(_ id: CheckID) -> Check? { checks.first { $0.id == id } }

    /// True when `id` failed for `reason` (any reason when nil).
    func failed(_ id: CheckID, _ reason: CheckReason? = nil) -> Bool {
        guard let check = check(id), check.status == .fail else { return false }
        return reason.map { check.reason == $0 } ?? true
    }
}
