import Foundation

/// Gateway stand-ins for probe and doctor tests (scripts/peers/gateway_peer.py): a TLS
/// WebSocket Gateway, or one of the misbehaving modes. Certificates are made with openssl.
public struct TestCertificate: Sendable {
    public let certificate: String
    public let key: String
    /// `openssl x509 -fingerprint -sha256`, normalised: the reference for clawnet's value.
    public let fingerprint: String
}

extension TestBed {
    /// A self-signed certificate like OpenClaw's Gateway makes (RSA 2048, CN=openclaw-gateway, no SANs).
    public func makeCertificate(rsa: Bool = true) async throws -> TestCertificate {
        let directory = "\(self.directory)/certs-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let key = "\(directory)/key.pem"
        let certificate = "\(directory)/cert.pem"
        let algorithm = rsa ? ["-newkey", "rsa:2048"] : ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
        let made = try await runCommand(
            "/usr/bin/env",
            ["openssl", "req", "-x509"] + algorithm + [
                "-nodes", "-keyout", key, "-out", certificate,
                "-days", "30", "-subj", "/CN=openclaw-gateway",
            ])
        guard made.status == 0 else { throw Missing(description: "openssl req failed: \(made.stderr)") }
        let printed = try await runCommand("/usr/bin/env", ["openssl", "x509", "-in", certificate, "-noout", "-fingerprint", "-sha256"])
        let fingerprint =
            printed.stdout.split(separator: "=").last.map {
                $0.replacingOccurrences(of: ":", with: "").lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
            } ?? ""
        return TestCertificate(certificate: certificate, key: key, fingerprint: fingerprint)
    }

    /// Starts scripts/peers/gateway_peer.py (or another peer `script` there, such as
    /// hostile_gateway.py) in `mode` on `host`; returns once it listens.
    public func startGatewayPeer(
        _ mode: String, script: String = "gateway_peer.py", host: Host = .node, address: String = "127.0.0.1", port: Int? = nil,
        certificate: TestCertificate? = nil, extraArguments: [String] = []
    ) async throws -> (process: ChildProcess, port: Int) {
        var lastError: (any Error)?
        for _ in 0..<5 {
            let chosen = port ?? testPort()
            var arguments = [python, scripts + "/peers/" + script, mode, "--address", address, "--port", String(chosen)] + extraArguments
            if let certificate { arguments += ["--cert", certificate.certificate, "--key", certificate.key] }
            let process = try spawn(on: host, arguments)
            do {
                try await process.waitForOutput("ready", timeout: .seconds(20))
                return (process, chosen)
            } catch {
                lastError = error
                process.terminate(signal: SIGKILL)
                guard port == nil, process.output.contains("in use") else { throw error }
            }
        }
        throw lastError!
    }
}
