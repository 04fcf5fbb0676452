import Foundation
import TestSupport
import Testing

/// Serialized: with another service on gw being withdrawn while the node probes, gw's
/// avahi-daemon can miss answering the probe, and the node takes a name it should not
/// (gw's log: "Received conflicting record ... with local record to be. Withdrawing").
@Suite("clawnet advertise (CLI against real avahi-daemons)", .testBed, .serialized)
struct AdvertiseCommandTests {
    @Test("a beacon advertised on the Gateway host is browsed from the node, then withdrawn")
    func advertiseAndWithdraw() async throws {
        let bed = try TestBed.current()
        let name = "Advertised (OpenClaw) \(uniqueTag())"
        let advertiser = try bed.spawnClawnet(
            ["advertise", "--name", name, "--port", "18790", "--txt", "gatewayTls=1", "--txt", "sshPort=2222"], on: .gw)
        try await advertiser.waitForOutput("established: \(name)")

        let watcher = try bed.spawnClawnet(["browse", "--watch", "--format", "jsonl"])
        defer { watcher.terminate() }
        let added = try await watcher.waitForLine(timeout: .seconds(15), "added \(name)") {
            $0.text.contains("\"added\"") && $0.text.contains(name)
        }
        let beacon = try #require(try jsonObject(added.text)["beacon"] as? [String: Any])
        #expect(beacon["port"] as? Int == 18790)
        let txt = try #require(beacon["txt"] as? [String: String])
        #expect(txt["role"] == "gateway")
        #expect(txt["gatewayPort"] == "18790")
        #expect(txt["displayName"] == name, "no ' (OpenClaw)' suffix to strip here")
        #expect(txt["transport"] == "gateway")
        #expect(txt["gatewayTls"] == "1")
        #expect(txt["sshPort"] == "2222")

        let status = try await advertiser.stop(signal: SIGTERM)
        #expect(status == 0)
        #expect(advertiser.stderr.contains("withdrawn: \(name)"))
        try await watcher.waitForLine(timeout: .seconds(10), "removed \(name)") {
            $0.text.contains("\"removed\"") && $0.text.contains(name)
        }
    }

    @Test("a name taken by another host is renamed the Avahi way and reported")
    func collision() async throws {
        let bed = try TestBed.current()
        let name = "Taken \(uniqueTag())"
        let holder = try await bed.avahiPublish(name: name, txt: ["role=gateway"], on: .gw)
        defer { holder.terminate() }
        let advertiser = try bed.spawnClawnet(["advertise", "--name", name], on: .node)
        defer { advertiser.terminate() }
        try await advertiser.waitForOutput("renamed: \"\(name)\" is taken on the network; now \"\(name) #2\"", timeout: .seconds(15))
        try await advertiser.waitForOutput("established: \(name) #2", timeout: .seconds(15))
    }

    @Test("advertise without avahi-daemon exits 3 before it serves or prints \"advertising\", with a fix it can follow")
    func advertiseWithoutDaemon() async throws {
        let bed = try TestBed.current()
        for extra in [[], ["--serve", "--port", String(testPort())]] {
            let result = try await bed.clawnet(
                ["advertise", "--name", "Nobody"] + extra, on: .bare,
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/bus.sock"], timeout: .seconds(20))
            #expect(result.status == 3)
            #expect(result.stderr.contains("D-Bus"))
            #expect(!result.stdout.contains("advertising") && !result.stdout.contains("serving"), "\(result.stdout)")
            #expect(
                !result.stderr.contains("--domain") && !result.stderr.contains("--manual"), "advertise has no such flags: \(result.stderr)")
            #expect(result.stderr.contains("--serve-only"))
        }
    }

    @Test("--serve --tls-dir: the certificate is made once, kept (key 0600), and its fingerprint equals openssl's")
    func serveKeepsCertificate() async throws {
        let bed = try TestBed.current()
        let directory = "\(bed.directory)/serve-tls-\(uniqueTag())"
        func serveOnce() async throws -> String {
            let port = testPort()
            let server = try bed.spawnClawnet(
                ["advertise", "--serve-only", "--tls-dir", directory, "--port", String(port), "--bind", "127.0.0.1"], on: .node)
            let line = try await server.waitForOutput("like a Gateway (TLS 1.3, sha256 ", timeout: .seconds(20))
            let status = try await server.stop(signal: SIGTERM)
            #expect(status == 0)
            #expect(server.stderr.contains("stopped serving"))
            return String(try #require(line.text.split(separator: " ").last?.dropLast()))
        }
        let first = try await serveOnce()
        let second = try await serveOnce()
        #expect(first == second, "the kept certificate is reused")
        let printed = try await runCommand(
            "/usr/bin/env", ["openssl", "x509", "-in", "\(directory)/gateway-cert.pem", "-noout", "-fingerprint", "-sha256"])
        #expect(printed.stdout.replacingOccurrences(of: ":", with: "").lowercased().contains(first))
        let attributes = try FileManager.default.attributesOfItem(atPath: "\(directory)/gateway-key.pem")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}
