import Foundation
import TestSupport
import Testing

/// doctor without targets on a Gateway host probes 127.0.0.1 on the configured port as ws://
/// when no config says TLS. The project's TLS stand-in Gateway on loopback says otherwise; and
/// a Gateway doctor also discovers on this machine's own address is the same listener.
@Suite("doctor's implicit 127.0.0.1 target: TLS found, and never the same Gateway twice", .testBed)
struct DoctorLocalTLSTests {
    /// A Gateway host's config naming `port` (and no TLS), in a folder only this user can read.
    func config(port: Int) throws -> (directory: String, path: String) {
        let directory = NSTemporaryDirectory() + "clawnet-local-tls-\(uniqueTag())"
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory + "/openclaw.json"
        try #"{"gateway":{"port":\#(port)}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        return (directory, path)
    }

    func gateways(_ output: String) throws -> [[String: Any]] { try jsonObject(output)["gateways"] as? [[String: Any]] ?? [] }

    @Test(
        "a TLS stand-in on 127.0.0.1, a config without gateway.tls: probed again as wss://, gw.tls warns with the wss:// fix, the rest pass"
    )
    func tlsOnLoopback() async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let (directory, path) = try config(port: port)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try bed.spawnClawnet(
            ["advertise", "--serve-only", "--tls-dir", directory, "--port", String(port), "--bind", "127.0.0.1"], on: .node)
        defer { server.terminate() }
        try await server.waitForOutput("like a Gateway", timeout: .seconds(20))
        let result = try await bed.clawnet(["doctor", "--json", "--no-local", "--timeout", "5s", "--config", path], on: .node)
        let found = try gateways(result.stdout)
        #expect(found.count == 1 && found.first?["target"] as? String == "wss://127.0.0.1:\(port)", "\(result.stdout)")
        let checks = found.first?["checks"] as? [[String: Any]] ?? []
        let tls = checks.first { $0["id"] as? String == "gw.tls" }
        #expect(tls?["status"] as? String == "warn", "\(checks)")
        #expect((tls?["fix"] as? String)?.contains("`wss://127.0.0.1:\(port)`") == true, "\(String(describing: tls))")
        #expect((tls?["fix"] as? String)?.contains("gateway.tls.enabled: true") == true, "\(String(describing: tls))")
        let failing = checks.filter { $0["status"] as? String == "fail" }
        #expect(failing.isEmpty && result.status == 0, "checked as wss://, nothing fails: \(failing)")
    }

    @Test("a Gateway advertised from this machine and bound to every address: discovered, and not reported again as 127.0.0.1")
    func sameListenerOnce() async throws {
        let bed = try TestBed.current()
        let port = testPort()
        let (directory, path) = try config(port: port)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let name = "Here \(uniqueTag())"
        let gateway = try bed.spawnClawnet(["advertise", "--serve", "--name", name, "--port", String(port)], on: .gw)
        defer { gateway.terminate() }
        try await gateway.waitForOutput("established: \(name)", timeout: .seconds(20))
        try await bed.waitUntilHeard(name: name, from: .gw)
        let result = try await bed.clawnet(["doctor", "--json", "--timeout", "6s", "--config", path], on: .gw)
        let targets = try gateways(result.stdout).compactMap { $0["target"] as? String }
        let ours = targets.filter { $0.hasSuffix(":\(port)") }
        #expect(ours.count == 1 && !ours.contains("127.0.0.1:\(port)"), "one Gateway, once: \(targets)\n\(result.stderr)")
    }
}
