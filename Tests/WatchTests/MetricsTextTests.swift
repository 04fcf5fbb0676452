import DNSSD
import Doctor
import FoundationEssentials
import Testing

@testable import Watch

@Suite struct MetricsTextTests {
    static func gateway(_ id: String, instance: String = "Studio", up: Bool = true) -> WatchSnapshot.Gateway {
        var gateway = WatchSnapshot.Gateway(
            watched: WatchedGateway(id: id, label: "wss://studio.local:18789", instance: instance), target: "192.0.2.1:18789", tls: true,
            sources: [.mdns])
        gateway.health = up ? .up : .down
        var verdict = ProbeVerdict()
        verdict.durations = [.gwTCP: .milliseconds(3), .gwTLS: .milliseconds(12)]
        verdict.notAfter = Date(timeIntervalSince1970: 1_900_000_000)
        verdict.protocolVersion = 4
        gateway.verdict = verdict
        gateway.lastChange = Date(timeIntervalSince1970: 1_800_000_000)
        return gateway
    }

    @Test func labelValuesAreEscaped() {
        #expect(MetricsText.escaped(#"a"b\c"# + "\nd") == #"a\"b\\c\nd"#)
        var snapshot = WatchSnapshot()
        snapshot.gateways["x"] = Self.gateway("x", instance: "Evil\"} 1\nclawnet_fake 2\\")
        let text = MetricsText.render(snapshot)
        #expect(!text.contains("\nclawnet_fake"), "a line break in a name must not start a sample:\n\(text)")
        #expect(text.contains(#"instance_name="Evil\"} 1\nclawnet_fake 2\\""#), "\(text)")
    }

    @Test func longValuesAreCutBetweenCharacters() {
        let long = String(repeating: "é", count: 400)
        let cut = MetricsText.bounded(long)
        #expect(cut.utf8.count <= MetricsText.labelLimit && cut.utf8.count >= MetricsText.labelLimit - 1)
        #expect(cut.allSatisfy { $0 == "é" })
    }

    @Test func exportIsBoundedAndDroppedAreCounted() {
        var snapshot = WatchSnapshot()
        for index in 0..<5 { snapshot.gateways["g\(index)"] = Self.gateway("g\(index)") }
        let text = MetricsText.render(snapshot, gatewayLimit: 3)
        let upLines = text.split(separator: "\n").filter { $0.hasPrefix("clawnet_gateway_up{") }
        #expect(upLines.count == 3, "\(text)")
        #expect(text.contains("\nclawnet_watch_gateways_dropped 2\n"), "\(text)")
    }

    @Test func everyFamilyHasHelpTypeAndSamples() {
        var snapshot = WatchSnapshot()
        snapshot.gateways["a"] = Self.gateway("a")
        snapshot.gateways["b"] = Self.gateway("b", up: false)
        snapshot.diagnoses[.gatewayNotListening] = 2
        snapshot.probes = 7
        let text = MetricsText.render(snapshot)
        for line in [
            #"clawnet_gateway_up{gateway="a",instance_name="Studio",url="wss://studio.local:18789"} 1"#,
            #"clawnet_gateway_up{gateway="b",instance_name="Studio",url="wss://studio.local:18789"} 0"#,
            #"clawnet_gateway_probe_duration_seconds{gateway="a",instance_name="Studio",url="wss://studio.local:18789",check="gw.tcp"} 0.003"#,
            #"clawnet_gateway_certificate_not_after_seconds{gateway="a",instance_name="Studio",url="wss://studio.local:18789"} 1900000000"#,
            #"clawnet_gateway_last_change_seconds{gateway="a",instance_name="Studio",url="wss://studio.local:18789"} 1800000000"#,
            #"clawnet_gateway_protocol{gateway="a",instance_name="Studio",url="wss://studio.local:18789"} 4"#,
            #"clawnet_source_instances{source="mdns"} 2"#, #"clawnet_source_instances{source="unicast"} 0"#,
            #"clawnet_diagnoses_total{diagnosis="gateway-not-listening"} 2"#, "clawnet_probes_total 7",
            "# TYPE clawnet_diagnoses_total counter",
        ] {
            #expect(text.split(separator: "\n").contains(Substring(line)), "missing \(line) in:\n\(text)")
        }
    }

    @Test func serviceDiscoveryListsEveryGatewayAsATargetGroup() throws {
        var snapshot = WatchSnapshot()
        snapshot.gateways["a"] = Self.gateway("a")
        struct Group: Decodable {
            let targets: [String]
            let labels: [String: String]
        }
        let groups = try JSONDecoder().decode([Group].self, from: Data(ServiceDiscoveryList.json(snapshot)))
        let group = try #require(groups.first)
        #expect(group.targets == ["192.0.2.1:18789"])
        let labels = group.labels
        #expect(labels["__meta_clawnet_instance"] == "Studio")
        #expect(labels["__meta_clawnet_tls"] == "true")
        #expect(labels["__meta_clawnet_up"] == "true")
    }
}
