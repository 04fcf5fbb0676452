import DNSSD
import FoundationEssentials

/// The Gateways watch found, in Prometheus's http_sd format: a JSON array of target groups,
/// one per Gateway, with its names as `__meta_clawnet_*` labels. Prometheus's DNS-SD reads SRV
/// only and cannot browse PTR; this is how a fleet found by mDNS or DNS-SD reaches Prometheus
/// and blackbox_exporter. At most `MetricsText.defaultGatewayLimit` groups.
package enum ServiceDiscoveryList {
    struct Group: Encodable {
        let targets: [String]
        let labels: [String: String]
    }

    package static func json(_ snapshot: WatchSnapshot, gatewayLimit: Int = MetricsText.defaultGatewayLimit) -> [UInt8] {
        let groups = snapshot.sorted.prefix(gatewayLimit).map { gateway in
            Group(
                targets: [gateway.target],
                labels: [
                    "__meta_clawnet_gateway": MetricsText.bounded(gateway.watched.id),
                    "__meta_clawnet_instance": MetricsText.bounded(gateway.watched.instance),
                    "__meta_clawnet_url": MetricsText.bounded(gateway.watched.label),
                    "__meta_clawnet_tls": gateway.tls ? "true" : "false",
                    "__meta_clawnet_sources": gateway.sources.map(\.rawValue).sorted().joined(separator: ","),
                    "__meta_clawnet_up": gateway.health == .unknown ? "" : gateway.health == .up ? "true" : "false",
                ])
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(Array(groups))) ?? Data("[]".utf8))
    }
}
