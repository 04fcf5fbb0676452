import DNSSD
import Doctor
import FoundationEssentials

/// One change watch reports about one Gateway.
package struct WatchEvent: Sendable, Equatable {
    package let gateway: WatchedGateway
    package let change: Change
    /// When it was seen (wall clock, for the output).
    package let date: Date

    package init(_ gateway: WatchedGateway, _ change: Change, date: Date) {
        self.gateway = gateway
        self.change = change
        self.date = date
    }

    package enum Change: Sendable, Equatable {
        /// A discovery path began to list the Gateway.
        case appeared(BeaconSource)
        /// A discovery path stopped listing it; `forgetAt` when it was the last: the Gateway is
        /// still probed until then (`WatchPolicy.forgetAfter`), or until a path lists it again.
        case disappeared(BeaconSource, forgetAt: Date? = nil)
        /// No path listed it for `after` (`WatchPolicy.forgetAfter`): no longer watched.
        case forgotten(after: Duration)
        case up
        /// The first check that failed and the diagnosis doctor gives for it (with its finding).
        case down(check: CheckID, diagnosis: DiagnosisID, finding: Diagnosis? = nil)
        /// `changes` up/down changes within `window`.
        case flapping(changes: Int, window: Duration)
        /// No up/down change for a whole flap window after flapping.
        case steady
        /// The certificate's fingerprint changed; `pinned` when this node pins the Gateway
        /// (the pin now fails: a certificate renewed under a pin); `beaconAgrees` when the
        /// Gateway's beacons advertise a fingerprint: whether one advertises the new certificate
        /// (a renewal the Gateway republished, as 2026.9 does) or none does.
        case certificateChanged(from: TLSFingerprint, to: TLSFingerprint, pinned: Bool, beaconAgrees: Bool? = nil)
        /// The pin this node keeps for the Gateway changed (the config was reread).
        case pinChanged(from: TLSFingerprint?, to: TLSFingerprint?)
        case certificateExpiring(notAfter: Date)
        case protocolChanged(from: Int, to: Int)
        case serverVersionChanged(from: String, to: String)
        /// A probe could not run for want of something on this machine (a descriptor, socket
        /// memory): the Gateway keeps the health it had and is probed again soon.
        case probeNotRun(reason: String)

        /// The name the JSON Lines output and the schema use.
        package var name: String {
            switch self {
            case .appeared: "appeared"
            case .disappeared: "disappeared"
            case .forgotten: "forgotten"
            case .up: "up"
            case .down: "down"
            case .flapping: "flapping"
            case .steady: "steady"
            case .certificateChanged: "certificateChanged"
            case .pinChanged: "pinChanged"
            case .certificateExpiring: "certificateExpiring"
            case .protocolChanged: "protocolChanged"
            case .serverVersionChanged: "serverVersionChanged"
            case .probeNotRun: "error"
            }
        }
    }
}

/// A Gateway as watch names it: its id (stable across paths, restarts and renewals: the merged
/// beacon's `gatewayID`) and where it is reached, as first announced (metric labels stay put).
package struct WatchedGateway: Sendable, Hashable {
    package let id: String
    /// What doctor calls it (its `target`): the URL a node opens, else the instance name.
    package let label: String
    /// The instance name for people and metrics (a control character escaped).
    package let instance: String
    /// The URL a node opens, as browse gives it; nil when no safe URL can be formed.
    package let url: String?
    /// The instance name as browse's JSON carries it: exact text, and the presentation form of
    /// a name that is not UTF-8.
    package let exactInstance: String
    package let instancePresentation: String?

    package init(id: String, label: String, instance: String, url: String? = nil, exact: InstanceName? = nil) {
        self.id = id
        self.label = label
        self.instance = instance
        self.url = url
        self.exactInstance = exact?.jsonText ?? instance
        self.instancePresentation = exact?.exactPresentation
    }

    package init(_ beacon: GatewayBeacon) {
        let instance = beacon.instance.displayName
        self.init(id: beacon.gatewayID, label: beacon.url ?? instance, instance: instance, url: beacon.url, exact: beacon.instance)
    }
}
