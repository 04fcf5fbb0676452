import Foundation

/// TSIG keys made by the servers' own tools, and the independent update and transfer clients
/// (nsupdate, kdig) that check what clawnet did.
package struct TestTSIGKey: Sendable {
    package let name: String
    package let algorithm: String
    /// The key file clawnet reads (tsig-keygen's or keymgr -t's output).
    package let path: String
    /// The same key as BIND's named.conf statement (for BIND and nsupdate -k).
    package let bindStatement: String
    /// The same key as Knot's `key:` section.
    package let knotSection: String
    /// The base64 secret, to check it never appears in output.
    package let secret: String
}

extension TestBed {
    /// A key made by `tsig-keygen -a ALGORITHM NAME` (format .bind) or `keymgr -t NAME ALGORITHM` (.knot).
    package func makeTSIGKey(name: String = "clawnet", algorithm: String = "hmac-sha256", knotFormat: Bool = false) async throws
        -> TestTSIGKey
    {
        let directory = "\(self.directory)/keys-\(uniqueTag())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let made =
            knotFormat
            ? try await runCommand("/usr/bin/env", ["keymgr", "-t", name, algorithm])
            : try await runCommand("/usr/bin/env", ["tsig-keygen", "-a", algorithm, name])
        guard made.status == 0 else { throw Missing(description: "making a TSIG key failed: \(made.stderr)") }
        let text = made.stdout
        let path = "\(directory)/\(name).key"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        // The word after `secret` (BIND: `secret "..."`; Knot: `secret: ...`).
        let words = text.split(whereSeparator: { $0 == "\"" || $0 == " " || $0 == "\n" || $0 == "\t" || $0 == ";" })
        let secret = words.firstIndex { $0 == "secret" || $0 == "secret:" }.map { String(words[$0 + 1]) } ?? ""
        let bind = "key \"\(name)\" { algorithm \(algorithm); secret \"\(secret)\"; };"
        let knot = "key:\n  - id: \(name)\n    algorithm: \(algorithm)\n    secret: \(secret)\n"
        return TestTSIGKey(name: name, algorithm: algorithm, path: path, bindStatement: bind, knotSection: knot, secret: secret)
    }

    /// `nsupdate -k KEY` reading `script` on its standard input.
    package func nsupdate(_ script: String, key: TestTSIGKey, on host: Host = .node) async throws -> CommandResult {
        let file = "\(directory)/nsupdate-\(uniqueTag()).txt"
        let keyFile = "\(directory)/nsupdate-\(uniqueTag()).key"
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        try key.bindStatement.write(toFile: keyFile, atomically: true, encoding: .utf8)
        return try await run(on: host, ["nsupdate", "-k", keyFile, file])
    }

    /// The zone as `kdig` transfers it, one record per line, SOA and TSIG lines left out
    /// (their serials and MACs differ between servers), sorted.
    package func kdigTransfer(_ server: TestDNSServer, zone: String, key: TestTSIGKey) async throws -> [String] {
        let result = try await run(
            on: .node,
            [
                "kdig", "-p", String(server.port), "@\(server.address)", "-y", "\(key.algorithm):\(key.name):\(key.secret)",
                "AXFR", zone, "+nocomments", "+nostats", "+noheader",
            ])
        guard result.status == 0, !result.stdout.contains("failed") else {
            throw Missing(description: "kdig AXFR failed: \(result.stdout) \(result.stderr)")
        }
        return result.stdout.split(separator: "\n").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .filter { !$0.isEmpty && !$0.hasPrefix(";") && !$0.contains(" SOA ") && !$0.contains(" TSIG ") }.sorted()
    }
}
