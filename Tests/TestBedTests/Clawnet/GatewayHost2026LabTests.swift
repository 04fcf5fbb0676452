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

    /// doctor's openclaw.config check on lgw with a config of the test's own, as JSON.
    func configCheck(_ config: String, home: String) async throws -> [String: Any] {
        let bed = try TestBed.current()
        let result = try await bed.clawnet(
            ["doctor", "--json", "--timeout", "3s", "--config", config, "--check", "openclaw.config"], on: .lgw,
            environment: ["HOME": home], timeout: .seconds(40))
        let document = try jsonObject(result.stdout)
        return try #require(
            (document["checks"] as? [[String: Any]])?.first { $0["id"] as? String == "openclaw.config" }, "\(result.stdout + result.stderr)"
        )
    }

    @Test(
        "issue 32 case 7: a tailnet or custom bind whose Gateway listens on its own address only: loopback-listener-missing; on both: passes"
    )
    func loopbackListener() async throws {
        let bed = try TestBed.current()
        let directory = "\(bed.directory)/loopback-listener-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let port = testPort()
        let config = "\(directory)/openclaw.json"
        func serve(on address: String) async throws -> ChildProcess {
            let process = try bed.spawnClawnet(
                ["advertise", "--serve-only", "--port", String(port), "--tls-dir", "\(directory)/tls", "--bind", address], on: .lgw)
            _ = try await process.waitForOutput("like a Gateway (TLS 1.3, sha256 ", timeout: .seconds(20))
            return process
        }
        let outside = try await serve(on: bed.ip(.lgw))
        var loopback: ChildProcess?
        var failure: (any Error)?
        do {
            for mode in ["tailnet", "custom"] {
                try #"{ gateway: { bind: "MODE", customBindHost: "ADDRESS", port: PORT } }"#
                    .replacing("MODE", with: mode).replacing("ADDRESS", with: bed.ip(.lgw)).replacing("PORT", with: String(port))
                    .write(toFile: config, atomically: true, encoding: .utf8)
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config)
                let check = try await configCheck(config, home: directory)
                #expect(check["status"] as? String == "warn", "\(mode): \(check)")
                #expect((check["message"] as? String)?.contains("nothing accepts connections on 127.0.0.1:\(port)") == true, "\(check)")
                #expect((check["fix"] as? String)?.contains("openclaw gateway restart") == true, "\(check)")
            }
            loopback = try await serve(on: "127.0.0.1")
            let check = try await configCheck(config, home: directory)
            #expect(check["status"] as? String == "pass", "a listener on 127.0.0.1 too: \(check)")
            #expect((check["message"] as? String)?.contains("nothing accepts") == false, "\(check)")
        } catch {
            failure = error
        }
        _ = try? await outside.stop()
        if let loopback { _ = try? await loopback.stop() }
        if let failure { throw failure }
    }
}
