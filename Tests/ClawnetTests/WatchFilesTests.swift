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
        for metric in ["clawnet_gateway_up", "clawnet_gateway_certificate_not_after_seconds", "clawnet_path_instances"] {
            #expect(rules.contains(metric))
        }
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
