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

    /// The fenced block of docs/watch.md that opens with "```\(language)", at `index`.
    static func block(_ language: String, _ index: Int = 0) throws -> String {
        let text = try String(contentsOfFile: "\(packageRoot)/docs/watch.md", encoding: .utf8)
        let blocks = text.components(separatedBy: "```\(language)\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        return try #require(blocks.dropFirst(index).first, "no ```\(language) block in docs/watch.md")
    }

    @Test(
        "docs/watch.md's blackbox example: promtool accepts the config, and its join of clawnet's series with blackbox's finds a Gateway by id"
    )
    func blackboxJoin() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clawnet-blackbox-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = try Self.block("yaml")
        #expect(config.contains("target_label: instance") && config.contains("[__param_target]"), "instance from __param_target")
        #expect(config.contains("[__meta_clawnet_gateway]") && config.contains("target_label: gateway"), "gateway as clawnet's")
        try config.write(toFile: "\(directory)/prometheus.yml", atomically: true, encoding: .utf8)
        let checked = try await runCommand("/usr/bin/promtool", ["check", "config", "--syntax-only", "\(directory)/prometheus.yml"])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")

        let join = try Self.block("promql").trimmingCharacters(in: .whitespacesAndNewlines)
        let rules = "groups:\n  - name: join\n    rules:\n      - alert: Joined\n        expr: '\(join)'\n"
        try rules.write(toFile: "\(directory)/rules.yml", atomically: true, encoding: .utf8)
        // What the example's relabelling makes of /sd's group of one Gateway, beside clawnet's own series.
        let id = "_openclaw-gw._tcp|local.|studio (openclaw)"
        let tests = """
            rule_files: ['\(directory)/rules.yml']
            evaluation_interval: 1m
            tests:
              - interval: 1m
                input_series:
                  - series: 'clawnet_gateway_up{instance="127.0.0.1:9464",job="clawnet",gateway="\(id)"}'
                    values: '0x3'
                  - series: 'probe_success{instance="10.0.0.5:18789",job="openclaw-gateways",gateway="\(id)"}'
                    values: '1x3'
                alert_rule_test:
                  - eval_time: 2m
                    alertname: Joined
                    exp_alerts:
                      - exp_labels: { instance: '127.0.0.1:9464', job: clawnet, gateway: '\(id)' }

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
