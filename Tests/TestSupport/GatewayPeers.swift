import Foundation

/// Gateway stand-ins for probe and doctor tests (scripts/peers/gateway_peer.py): a TLS
/// WebSocket Gateway, or one of the misbehaving modes. Certificates are made with openssl.
package struct TestCertificate: Sendable {
    package let certificate: String
    package let key: String
    /// `openssl x509 -fingerprint -sha256`, normalised: the reference for clawnet's value.
    package let fingerprint: String
}

extension TestBed {
    /// A self-signed certificate like OpenClaw's Gateway makes (RSA 2048, CN=openclaw-gateway, no SANs).
    package func makeCertificate(rsa: Bool = true) async throws -> TestCertificate {
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
        let fingerprint = try await sha256Fingerprint(of: certificate)
        return TestCertificate(certificate: certificate, key: key, fingerprint: fingerprint)
    }

    /// `openssl x509 -fingerprint -sha256` of the PEM's first certificate, normalised.
    func sha256Fingerprint(of certificate: String) async throws -> String {
        let printed = try await runCommand("/usr/bin/env", ["openssl", "x509", "-in", certificate, "-noout", "-fingerprint", "-sha256"])
        let fingerprint =
            printed.stdout.split(separator: "=").last.map {
                $0.replacingOccurrences(of: ":", with: "").lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
            } ?? ""
        return fingerprint
    }

    /// A certificate a CA issued, as Caddy or Tailscale Serve present one: a test root CA, an
    /// intermediate, and a leaf for `subjectAltName` (`IP:10.98.0.1`, `DNS:gw.example`). The
    /// leaf's PEM holds the chain (leaf, then the intermediate); `authority` is the root's PEM,
    /// the bundle a client trusts (SSL_CERT_FILE), never installed into the system's store.
    package func makeCAIssuedCertificate(subjectAltName: String) async throws -> (authority: String, certificate: TestCertificate) {
        let directory = "\(self.directory)/ca-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        func openssl(_ arguments: [String]) async throws {
            let result = try await runCommand("/usr/bin/env", ["openssl"] + arguments)
            guard result.status == 0 else { throw Missing(description: "openssl \(arguments.first ?? ""): \(result.stderr)") }
        }
        let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let extensions = [
            "ca": "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n",
            "intermediate": "basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n",
            "leaf": "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
                + "subjectAltName=\(subjectAltName)\n",
        ]
        for (name, text) in extensions { try text.write(toFile: "\(directory)/\(name).ext", atomically: true, encoding: .utf8) }
        try await openssl(
            ["req", "-x509"] + newKey + [
                "-keyout", "\(directory)/ca.key", "-out", "\(directory)/ca.pem", "-days", "30", "-subj", "/CN=clawnet test root CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        for (name, issuer, subject) in [("intermediate", "ca", "/CN=clawnet test intermediate"), ("leaf", "intermediate", "/CN=gateway")] {
            try await openssl(
                ["req"] + newKey + ["-keyout", "\(directory)/\(name).key", "-out", "\(directory)/\(name).csr", "-subj", subject])
            try await openssl([
                "x509", "-req", "-in", "\(directory)/\(name).csr", "-CA", "\(directory)/\(issuer).pem", "-CAkey",
                "\(directory)/\(issuer).key",
                "-CAcreateserial", "-out", "\(directory)/\(name).pem", "-days", "20", "-extfile", "\(directory)/\(name).ext",
            ])
        }
        let chain =
            try String(contentsOfFile: "\(directory)/leaf.pem", encoding: .utf8)
            + String(contentsOfFile: "\(directory)/intermediate.pem", encoding: .utf8)
        try chain.write(toFile: "\(directory)/chain.pem", atomically: true, encoding: .utf8)
        let fingerprint = try await sha256Fingerprint(of: "\(directory)/leaf.pem")
        return (
            "\(directory)/ca.pem",
            TestCertificate(certificate: "\(directory)/chain.pem", key: "\(directory)/leaf.key", fingerprint: fingerprint)
        )
    }

    /// Starts scripts/peers/gateway_peer.py (or another peer `script` there, such as
    /// hostile_gateway.py) in `mode` on `host`; returns once it listens.
    package func startGatewayPeer(
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
