import Foundation
import Synchronization

/// Independent mDNS publishers on the test bed's Gateway host: avahi-publish (through the gw
/// avahi-daemon) and python-zeroconf (its own mDNS stack). Stop them to send goodbyes.
extension TestBed {
    /// `avahi-publish -s` on `host`; returns once Avahi reports the name established and the
    /// LAN has heard it (`waitUntilHeard`).
    package func avahiPublish(
        name: String, type: String = "_openclaw-gw._tcp", port: Int = 18789, txt: [String], on host: Host = .gw
    ) async throws -> ChildProcess {
        let child = try spawn(on: host, ["avahi-publish", "-s", name, type, String(port)] + txt)
        try await child.waitForLine(timeout: .seconds(10), "Avahi's 'Established' line") { $0.text.contains("Established under name") }
        try await waitUntilHeard(name: name, type: type, from: host)
        return child
    }

    /// python-zeroconf in `host`'s namespace, bound to its address; SRV target `<hostLabel>.local.`.
    /// `extraAddresses` are published for the host beside its own (not bound). A `silent` one
    /// never announces, it only answers queries: no avahi-daemon has it in its cache until one asks.
    package func zeroconfPublish(
        name: String, type: String = "_openclaw-gw._tcp", port: Int = 18789, hostLabel: String, txt: [String], on host: Host = .gw,
        extraAddresses: [String] = [], silent: Bool = false
    ) async throws -> ChildProcess {
        let arguments =
            [
                python, scripts + "/peers/zeroconf_publish.py", "--address", ip(host), "--name", name,
                "--type", type, "--port", String(port), "--host", hostLabel,
            ] + txt.flatMap { ["--txt", $0] } + extraAddresses.flatMap { ["--extra-address", $0] } + (silent ? ["--silent"] : [])
        let child = try spawn(on: host, arguments)
        try await child.waitForOutput("registered", timeout: .seconds(15))
        if !silent { try await waitUntilHeard(name: name, type: type, from: host) }
        return child
    }

    /// A static Avahi service file on `host`, loaded with SIGHUP; returns its path (delete it and
    /// reload to withdraw).
    package func staticService(name: String, type: String = "_openclaw-gw._tcp", port: Int = 18789, txt: [String], on host: Host = .gw)
        async throws -> String
    {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
                of: ">", with: "&gt;")
        }
        let records = txt.map { "    <txt-record>\(escape($0))</txt-record>" }.joined(separator: "\n")
        let xml = """
            <?xml version="1.0" standalone='no'?>
            <!DOCTYPE service-group SYSTEM "avahi-service.dtd">
            <service-group>
              <name>\(escape(name))</name>
              <service>
                <type>\(type)</type>
                <port>\(port)</port>
            \(records)
              </service>
            </service-group>
            """
        let path = "\(directory)/\(host.rawValue)/services/\(uniqueTag()).service"
        try xml.write(toFile: path, atomically: true, encoding: .utf8)
        try await control("avahi", "reload", host.rawValue)
        try await waitUntilHeard(name: name, type: type, from: host)
        return path
    }

    /// Waits until the avahi-daemon of a neighbour of `host` on its LAN has `name` in its cache.
    /// A publisher is up once the network has heard it: Avahi reports a name established 20 to
    /// 120 ms before its first announcement leaves (avahi-core/announce.c, response-sched.c),
    /// and a one-shot browse with a warm cache lists what the cache holds, as `avahi-browse -c`
    /// does. A browse on the neighbour sees a cached name at once, or asks the network for it.
    package func waitUntilHeard(name: String, type: String = "_openclaw-gw._tcp", from host: Host, timeout: Duration = .seconds(15))
        async throws
    {
        guard let neighbour = Self.neighbour[host] else { return }
        let browser = try spawn(on: neighbour, ["avahi-browse", "--parsable", "--no-db-lookup", type])
        defer { browser.terminate() }
        try await browser.waitForLine(timeout: timeout, "'\(name)' on \(neighbour.rawValue)'s avahi-daemon") { line in
            let fields = line.text.split(separator: ";", omittingEmptySubsequences: false)
            return fields.count > 3 && fields[0] == "+" && Self.avahiUnescaped(fields[3]) == name
        }
    }

    /// A host with an avahi-daemon on the same LAN as the key.
    private static let neighbour: [Host: Host] = [.gw: .node, .watch: .node, .node: .gw, .lgw: .lnode, .lnode: .lgw]

    /// A label as avahi-browse --parsable prints it (avahi_escape_label): `\.` and `\\` for a
    /// dot and a backslash, `\DDD` (decimal) for every byte but letters, digits, `_` and `-`.
    static func avahiUnescaped(_ label: Substring) -> String {
        var bytes: [UInt8] = []
        var rest = Array(label.utf8)[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = rest.first else {
                bytes.append(byte)
                continue
            }
            let digits = rest.prefix(3)
            if digits.count == 3, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let value = UInt8(String(decoding: digits, as: UTF8.self))
            {
                bytes.append(value)
                rest = rest.dropFirst(3)
            } else {
                bytes.append(next)
                rest = rest.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The clawnet executable built by `swift build`.
package enum ClawnetBinary {
    package static var path: String {
        if let path = ProcessInfo.processInfo.environment["CLAWNET_BIN"], !path.isEmpty { return path }
        return packageRoot + "/.build/debug/clawnet"
    }
}

extension TestBed {
    /// Runs clawnet inside `host`'s namespace with its D-Bus, to completion.
    package func clawnet(
        _ arguments: [String], on host: Host = .node, environment: [String: String] = [:], timeout: Duration = .seconds(60)
    )
        async throws -> CommandResult
    {
        try await run(on: host, [ClawnetBinary.path] + arguments, environment: environment, timeout: timeout)
    }

    /// Starts a long-running clawnet (advertise, browse --watch) inside `host`'s namespace.
    package func spawnClawnet(_ arguments: [String], on host: Host = .node, environment: [String: String] = [:]) throws -> ChildProcess {
        try spawn(on: host, [ClawnetBinary.path] + arguments, environment: environment)
    }
}

extension TestBed {
    /// The clawnet binary as another user (nobody) can run it: a copy in this test bed's folder
    /// (root's, 0755). The clone itself may sit under a home folder other users cannot enter
    /// (0700, or 0750 as Ubuntu makes them), where `env: clawnet: Permission denied` would be
    /// all such a test saw. Copied once per test process.
    package func clawnetForOtherUsers() throws -> String {
        try ClawnetBinary.copies.withLock { copies in
            if let copy = copies[directory] { return copy }
            let folder = "\(directory)/bin-\(getpid())"
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            let copy = folder + "/clawnet"
            let staged = copy + ".part"
            // Copied by install(1), not here: a descriptor this process held open for writing
            // would be inherited by a child another test forks meanwhile, and exec'ing the copy
            // would then fail with "Text file busy".
            let install = Process()
            install.executableURL = URL(fileURLWithPath: "/usr/bin/install")
            install.arguments = ["-m", "0755", ClawnetBinary.path, staged]
            try install.run()
            install.waitUntilExit()
            guard install.terminationStatus == 0 else { throw CopyFailed(description: "install \(ClawnetBinary.path): failed") }
            guard rename(staged, copy) == 0 else { throw CopyFailed(description: "rename \(staged): errno \(errno)") }
            copies[directory] = copy
            return copy
        }
    }

    struct CopyFailed: Error, CustomStringConvertible {
        let description: String
    }
}

extension ClawnetBinary {
    /// Per test bed folder, the copy other users run.
    static let copies = Mutex<[String: String]>([:])
}
