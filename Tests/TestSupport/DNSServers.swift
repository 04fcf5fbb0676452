import Foundation

/// A real DNS server started by a test inside a test-bed namespace: BIND, NSD, Knot, PowerDNS,
/// dnsmasq (as a split-DNS forwarder) or ldns-testns (canned and hostile answers).
/// Stopped by its PID; its files live in the test bed's folder.
package final class TestDNSServer: Sendable {
    package enum Kind: String, Sendable { case bind, nsd, knot, dnsmasq, testns, pdns }

    package let kind: Kind
    package let address: String
    package let port: Int
    package let directory: String
    package let process: ChildProcess

    init(kind: Kind, address: String, port: Int, directory: String, process: ChildProcess) {
        self.kind = kind
        self.address = address
        self.port = port
        self.directory = directory
        self.process = process
    }

    /// `address:port`, as `clawnet --server` takes it.
    package var endpoint: String { address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)" }
    /// `address#port`, as clawnet reports the server that answered.
    package var label: String { "\(address)#\(port)" }

    package func stop() async {
        _ = try? await process.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// For `defer`, which cannot await.
    package func terminate() {
        process.terminate()
    }
}

extension TestBed {
    /// `keys`: key statements (tsig-keygen output); `zoneOptions`: statements for every zone
    /// (update-policy, allow-transfer, also-notify); `secondaries`: zones transferred from
    /// `address#port` of a primary, signed with the named key (ready once transferred).
    package func startBIND(
        zones: [String: String], host: Host = .node, address: String = "127.0.0.1", port: Int? = nil, options: String = "",
        keys: String = "", zoneOptions: String = "", secondaries: [String: (primary: String, port: Int, key: String?)] = [:]
    ) async throws -> TestDNSServer {
        let pending = LockedBox(Set(secondaries.keys))
        return try await launch(.bind, host: host, address: address, port: port) { directory, port in
            var config = """
                \(keys)
                options {
                    directory "\(directory)"; pid-file none;
                    listen-on port \(port) { \(address.contains(":") ? "none" : address); };
                    listen-on-v6 port \(port) { \(address.contains(":") ? address : "none"); };
                    recursion no; dnssec-validation no; \(options.contains("notify") ? "" : "notify no;") \(options)
                };
                controls { };

                """
            for (domain, text) in zones {
                let file = "\(directory)/\(domain).db"
                try text.write(toFile: file, atomically: true, encoding: .utf8)
                config += "zone \"\(domain)\" { type primary; file \"\(file)\"; \(zoneOptions) };\n"
            }
            for (domain, source) in secondaries {
                let key = source.key.map { " key \($0)" } ?? ""
                config +=
                    "zone \"\(domain)\" { type secondary; file \"\(directory)/\(domain).sec\"; primaries { \(source.primary) port \(source.port)\(key); }; \(zoneOptions) };\n"
            }
            try config.write(toFile: "\(directory)/named.conf", atomically: true, encoding: .utf8)
            return (
                ["named", "-g", "-c", "\(directory)/named.conf", "-n", "1"],
                { line in
                    // A secondary is ready once its first transfer is in.
                    pending.update { zones in
                        if let zone = zones.first(where: { line.contains("zone \($0)/IN: transferred serial") }) { zones.remove(zone) }
                        return zones.isEmpty && (secondaries.isEmpty ? line.contains("all zones loaded") : true)
                    }
                }
            )
        }
    }

    package func startNSD(zones: [String: String], host: Host = .node, address: String = "127.0.0.1", port: Int? = nil) async throws
        -> TestDNSServer
    {
        try await launch(.nsd, host: host, address: address, port: port) { directory, port in
            var config = """
                server:
                  ip-address: \(address)
                  port: \(port)
                  username: ""
                  chroot: ""
                  database: ""
                  zonesdir: "\(directory)"
                  zonelistfile: "\(directory)/zone.list"
                  xfrdfile: "\(directory)/xfrd.state"
                  pidfile: ""
                  verbosity: 2
                remote-control:
                  control-enable: no

                """
            for (domain, text) in zones {
                try text.write(toFile: "\(directory)/\(domain).db", atomically: true, encoding: .utf8)
                config += "zone:\n  name: \(domain)\n  zonefile: \(directory)/\(domain).db\n"
            }
            try config.write(toFile: "\(directory)/nsd.conf", atomically: true, encoding: .utf8)
            return (["nsd", "-d", "-c", "\(directory)/nsd.conf"], { $0.contains("nsd started") })
        }
    }

    /// `extra`: top-level sections (key:, acl:) before the zones; `zoneOptions`: lines for
    /// every zone entry (e.g. `acl: update`), indented by clawnet's caller.
    package func startKnot(
        zones: [String: String], host: Host = .node, address: String = "127.0.0.1", port: Int? = nil,
        extra: String = "", zoneOptions: [String] = []
    ) async throws -> TestDNSServer {
        let remaining = LockedBox(Set(zones.keys.map { "[\($0.hasSuffix(".") ? $0 : $0 + ".")]" }))
        return try await launch(.knot, host: host, address: address, port: port) { directory, port in
            var config = """
                server:
                  listen: \(address)@\(port)
                  rundir: \(directory)
                  user: root:root
                log:
                  - target: stderr
                    any: info
                database:
                  storage: \(directory)/db
                template:
                  - id: default
                    storage: \(directory)
                    zonefile-sync: -1
                    journal-content: none
                \(extra)
                zone:

                """
            for (domain, text) in zones {
                try text.write(toFile: "\(directory)/\(domain).db", atomically: true, encoding: .utf8)
                config += "  - domain: \(domain)\n    file: \(directory)/\(domain).db\n"
                config += zoneOptions.map { "    \($0)\n" }.joined()
            }
            try config.write(toFile: "\(directory)/knot.conf", atomically: true, encoding: .utf8)
            // Ready once every zone says it is loaded.
            return (
                ["knotd", "-c", "\(directory)/knot.conf"],
                { line in
                    remaining.update { zones in
                        if let zone = zones.first(where: { line.contains("\($0) loaded") }) { zones.remove(zone) }
                        return zones.isEmpty
                    }
                }
            )
        }
    }

    /// dnsmasq as a split-DNS forwarder: `forwards` maps a domain to `address#port`; every
    /// other name is REFUSED (no upstream, no /etc/hosts).
    package func startDnsmasq(forwards: [String: String], host: Host = .node, address: String = "127.0.0.1", port: Int? = nil) async throws
        -> TestDNSServer
    {
        try await launch(.dnsmasq, host: host, address: address, port: port) { _, port in
            let servers = forwards.map { "--server=/\($0.key)/\($0.value)" }
            return (
                [
                    "dnsmasq", "--conf-file=/dev/null", "--keep-in-foreground", "--log-facility=-", "--no-resolv", "--no-hosts",
                    "--bind-interfaces", "--listen-address=\(address)", "--port=\(port)", "--pid-file",
                ] + servers,
                { $0.contains("started, version") }
            )
        }
    }

    /// ldns-testns with canned entries (it binds every address of the namespace).
    package func startTestns(data: String, host: Host = .node, port: Int? = nil) async throws -> TestDNSServer {
        try await launch(.testns, host: host, address: "127.0.0.1", port: port) { directory, port in
            try data.write(toFile: "\(directory)/entries", atomically: true, encoding: .utf8)
            return (["ldns-testns", "-p", String(port), "\(directory)/entries"], { $0.contains("Listening on port") })
        }
    }

    /// Writes the configuration, starts the server, waits for its "ready" log line; on a port
    /// already in use, tries another one. Ports come from below Linux's ephemeral range
    /// (32768-60999), where the client sockets of tests running beside it never land; BIND
    /// reports a port it could not take and loads its zones anyway, so its log is read too.
    func launch(
        _ kind: TestDNSServer.Kind, host: Host, address: String, port fixedPort: Int?,
        prepare: (String, Int) throws -> ([String], @Sendable (String) -> Bool)
    ) async throws -> TestDNSServer {
        var lastError: (any Error)?
        for _ in 0..<(fixedPort == nil ? 5 : 1) {
            let port = fixedPort ?? testPort()
            let directory = "\(self.directory)/dns/\(kind.rawValue)-\(uniqueTag())"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let (command, ready) = try prepare(directory, port)
            let process = try spawn(on: host, command)
            do {
                try await process.waitForLine(timeout: .seconds(20), "\(kind.rawValue) to be ready") { ready($0.text) }
                if Self.portTaken(process.output) { throw PortTaken(port: port) }
                return TestDNSServer(kind: kind, address: address, port: port, directory: directory, process: process)
            } catch {
                lastError = error
                _ = try? await process.stop(signal: SIGKILL)
                try? FileManager.default.removeItem(atPath: directory)
                guard error is PortTaken || Self.portTaken(process.output) else { throw error }
            }
        }
        throw lastError!
    }
}

extension TestBed {
    /// A server's log saying it could not listen on its port: "address in use", or BIND's
    /// "creating IPv4 interface lo failed" (seen once when fifty servers started together).
    static func portTaken(_ output: String) -> Bool {
        let output = output.lowercased()
        return output.contains("in use") || output.contains("unable to listen on any configured interfaces")
    }
}

/// A test DNS server found its port taken.
struct PortTaken: Error, CustomStringConvertible {
    let port: Int
    var description: String { "port \(port) is in use" }
}

/// A value shared between threads behind a lock.
package final class LockedBox<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) {
        self.value = value
    }

    package func update<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&value) }
    }
}
