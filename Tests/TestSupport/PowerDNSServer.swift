import Foundation

extension TestBed {
    /// PowerDNS Authoritative (Debian's pdns-server, the gsqlite3 backend) with its own
    /// configuration, database and control socket in the test bed's folder, never the system
    /// service. Zones are loaded with pdnsutil; `key` may update them (TSIG-ALLOW-DNSUPDATE)
    /// and, with `transfer`, read them by AXFR (TSIG-ALLOW-AXFR). `eightBitDNS`: PowerDNS's
    /// `8bit-dns`, off by default, without which it answers SERVFAIL to names with `(`.
    package func startPowerDNS(
        zones: [String: String], key: TestTSIGKey?, transfer: Bool = true, eightBitDNS: Bool = false, host: Host = .node,
        address: String = "127.0.0.1"
    ) async throws -> TestDNSServer {
        try await launch(.pdns, host: host, address: address, port: nil) { directory, port in
            let database = "\(directory)/pdns.sqlite3"
            let config = """
                launch=gsqlite3
                gsqlite3-database=\(database)
                local-address=\(address)
                local-port=\(port)
                socket-dir=\(directory)
                daemon=no
                guardian=no
                disable-syslog=yes
                loglevel=6
                dnsupdate=yes
                allow-dnsupdate-from=127.0.0.0/8,::1
                8bit-dns=\(eightBitDNS ? "yes" : "no")

                """
            try config.write(toFile: "\(directory)/pdns.conf", atomically: true, encoding: .utf8)
            try Self.runSync("/usr/bin/sqlite3", [database, ".read /usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql"])
            let pdnsutil = ["/usr/bin/pdnsutil", "--config-dir=\(directory)"]
            if let key {
                try Self.runSync(pdnsutil[0], Array(pdnsutil[1...]) + ["import-tsig-key", key.name, key.algorithm, key.secret])
            }
            for (domain, text) in zones {
                try text.write(toFile: "\(directory)/\(domain).db", atomically: true, encoding: .utf8)
                try Self.runSync(pdnsutil[0], Array(pdnsutil[1...]) + ["load-zone", domain, "\(directory)/\(domain).db"])
                guard let key else { continue }
                let kinds = ["TSIG-ALLOW-DNSUPDATE"] + (transfer ? ["TSIG-ALLOW-AXFR"] : [])
                for kind in kinds { try Self.runSync(pdnsutil[0], Array(pdnsutil[1...]) + ["set-meta", domain, kind, key.name]) }
            }
            return (
                ["pdns_server", "--config-dir=\(directory)"],
                { $0.contains("ready to distribute questions") }
            )
        }
    }

    /// A setup tool run to its end (sqlite3, pdnsutil: a few milliseconds each); its output is
    /// in the error when it fails.
    static func runSync(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Missing(description: "\(executable) \(arguments.prefix(3).joined(separator: " ")) failed: \(text)")
        }
    }
}
