import Foundation
import TestSupport
import Testing

/// The files beside the command: the example alerting rules and the systemd unit.
@Suite("watch's alerting rules and systemd unit")
struct WatchFilesTests {
    @Test("docs/clawnet-alerts.yml is accepted by promtool check rules and uses only metrics watch exports")
    func alertingRules() async throws {
        let result = try await runCommand("/usr/bin/promtool", ["check", "rules", "\(packageRoot)/docs/clawnet-alerts.yml"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let rules = try String(contentsOfFile: "\(packageRoot)/docs/clawnet-alerts.yml", encoding: .utf8)
        for metric in ["clawnet_gateway_up", "clawnet_gateway_certificate_not_after_seconds", "clawnet_source_instances"] {
            #expect(rules.contains(metric))
        }
    }

    @Test("every alert keeps the labels its annotations name: promtool test rules on recorded series")
    func alertsKeepTheirLabels() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clawnet-alerts-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Nothing discovered for 15 minutes on one watch: the alert names that watch.
        let tests = """
            rule_files: ['\(packageRoot)/docs/clawnet-alerts.yml']
            evaluation_interval: 1m
            tests:
              - interval: 1m
                input_series:
                  - series: 'clawnet_source_instances{instance="node:9464",job="clawnet",source="mdns"}'
                    values: '0x20'
                  - series: 'clawnet_source_instances{instance="node:9464",job="clawnet",source="unicast"}'
                    values: '0x20'
                alert_rule_test:
                  - eval_time: 15m
                    alertname: OpenClawGatewaysVanished
                    exp_alerts:
                      - exp_labels: { severity: warning, instance: 'node:9464' }
                        exp_annotations:
                          summary: 'clawnet watch on node:9464 discovers no Gateway on any path'

            """
        try tests.write(toFile: "\(directory)/tests.yml", atomically: true, encoding: .utf8)
        let result = try await runCommand("/usr/bin/promtool", ["test", "rules", "\(directory)/tests.yml"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test("the unit is hardened, has a state directory, and is not enabled by anything in the package")
    func systemdUnit() throws {
        let unit = try String(contentsOfFile: "\(packageRoot)/packaging/systemd/clawnet-watch.service", encoding: .utf8)
        let lines = Set(unit.split(separator: "\n").map(String.init))
        for directive in [
            "NoNewPrivileges=yes", "ProtectSystem=strict", "StateDirectory=clawnet", "PrivateTmp=yes", "ProtectHome=read-only",
            "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK", "ExecReload=/bin/kill -HUP $MAINPID",
        ] {
            #expect(lines.contains(directive), "missing \(directive)")
        }
        let package = try String(contentsOfFile: "\(packageRoot)/scripts/package", encoding: .utf8)
        #expect(package.contains("packaging/systemd/clawnet-watch.service"))
        #expect(!package.contains("systemctl enable"), "the package installs the unit disabled")
    }
}
