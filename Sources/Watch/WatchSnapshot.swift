import DNSSD
import Doctor
import FoundationEssentials

/// What the metrics and the service-discovery list show at one moment: every watched Gateway
/// and the counters of the run.
package struct WatchSnapshot: Sendable, Equatable {
    package struct Gateway: Sendable, Equatable {
        package let watched: WatchedGateway
        /// The address (or host) and port Prometheus would scrape or blackbox_exporter probe:
        /// the one the last probe connected to, else the first discovery gave.
        package var target: String
        package let tls: Bool
        package var sources: Set<BeaconSource>
        package var health = GatewayWatch.Health.unknown
        package var verdict: ProbeVerdict?
        /// When health last changed, on the wall clock.
        package var lastChange: Date?

        package init(watched: WatchedGateway, target: String, tls: Bool, sources: Set<BeaconSource>) {
            self.watched = watched
            self.target = target
            self.tls = tls
            self.sources = sources
        }
    }

    /// By id, in id order when read through `sorted`.
    package var gateways: [String: Gateway] = [:]
    /// Diagnoses doctor gave, by id, over the whole run.
    package var diagnoses: [DiagnosisID: Int] = [:]
    package var probes = 0

    package init() {}

    package var sorted: [Gateway] { gateways.values.sorted { $0.watched.id < $1.watched.id } }

    /// Instances each discovery path lists now.
    package var sourceInstances: [BeaconSource: Int] {
        var counts = Dictionary(uniqueKeysWithValues: BeaconSource.allCases.map { ($0, 0) })
        for gateway in gateways.values {
            for source in gateway.sources { counts[source, default: 0] += 1 }
        }
        return counts
    }
}
