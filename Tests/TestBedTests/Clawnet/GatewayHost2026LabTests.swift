import Foundation
import TestSupport
import Testing

/// The Gateway host as OpenClaw 2026.9 reads its config, with the real clawnet binary on the
/// lab's Gateway host and a config file of the test's own (systemd and tailscaled, which the
/// other 2026.9 host cases need, cannot run here: DoctorTests' GatewayHostOpenClaw2Tests reads
/// their recorded answers).
@Suite("the Gateway host under OpenClaw 2026.9 (lab)", .testBed, .serialized)
struct GatewayHost2026LabTests {
    @Test("legacy-config-migrations.runtime.gateway.ts: gateway.bind \"0.0.0.0\" on the Gateway host: gateway-bind-alias, write \"lan\"")
    func bindHostAlias() async throws {
        let bed = try TestBed.current()
        let directory = "\(bed.directory)/bind-alias-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = "\(directory)/openclaw.json"
        try #"{ gateway: { bind: "0.0.0.0", port: 18789 } }"#.write(toFile: config, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config)
        let result = try await bed.clawnet(
            ["doctor", "--json", "--timeout", "3s", "--config", config, "--check", "openclaw.config"], on: .lgw,
            environment: ["HOME": directory], timeout: .seconds(40))
        let document = try jsonObject(result.stdout)
        let output = result.stdout + result.stderr
        let check = try #require((document["checks"] as? [[String: Any]])?.first { $0["id"] as? String == "openclaw.config" }, "\(output)")
        #expect(check["status"] as? String == "fail" && (check["message"] as? String)?.contains("\"0.0.0.0\"") == true, "\(check)")
        let cause = try #require(
            (document["diagnosis"] as? [[String: Any]])?.first { $0["id"] as? String == "gateway-bind-alias" }, "\(output)")
        #expect(
            (cause["fix"] as? String)?.contains("openclaw doctor --fix") == true && (cause["fix"] as? String)?.contains("\"lan\"") == true)
        #expect(result.status == 1, "a config 2026.9 refuses fails doctor: \(result.status)")
    }
}
