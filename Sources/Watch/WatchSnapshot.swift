import DNSSD
import Doctor
import FoundationEssentials

/// What the metrics and the service-discovery list show at one moment: every watched Gateway
/// and the counters of the run.
public struct WatchSnapshot: Sendable, Equatable {
    public struct Gateway: Sendable, Equatable {
        public let watched: WatchedGateway
        /// The address (or host) and port Prometheus would scrape or blackbox_exporter probe:
        /// the one the last probe connected to, else the first discovery gave.
        public var target: String
        public let tls: Bool
        public var sources: Set<BeaconSource>
        public var health = GatewayWatch.Health.unknown
        public var verdict: ProbeVerdict?
        /// When health last changed, on the wall clock.
        public var lastChange: Date?

        public init(watched: WatchedGateway, target: String, tls: Bool, sources: Set<BeaconSource>) {
            self.watched = watched
            self.target = target
            self.tls = tls
            self.sources = sources
        }
    }

    /// By id, in id order when read through `sorted`.
    public var gateways: [String: Gateway] = [:]
    /// Diagnoses doctor gave, by id, over the whole run.
    public var diagnoses: [DiagnosisID: Int] = [:]
    public var probes = 0

    public init() {}

    public var sorted: [Gateway] { gateways.values.sorted { $0.watched.id < $1.watched.id } }

    /// Instances each discovery path lists now.
    public var sourceInstances: [BeaconSource: Int] {
        var counts = Dictionary(uniqueKeysWithValues: BeaconSource.allCases.map { ($0, 0) })
        for gateway in gateways.values {
            for source in gateway.sources { counts[source, default: 0] += 1 }
        }
        return counts
    }
}
