import Foundation

/// The namespaces, D-Bus buses and tools that `scripts/testbed up` made, read from its env file.
///
/// The tests that need it live in the TestBedTests target and fail (never pass or skip
/// silently) when it is missing; `swift test --skip TestBedTests` runs the others.
package struct TestBed: Sendable {
    package enum Host: String, Sendable, CaseIterable {
        case gw, node, watch, bare, ts, lgw, lnode
    }

    package struct Missing: Error, CustomStringConvertible {
        package let description: String
    }

    package let directory: String
    private let values: [String: String]

    package static func current() throws -> TestBed {
        let environment = ProcessInfo.processInfo.environment
        let directory = environment["CLAWNET_TESTBED_DIR"] ?? "/tmp/clawnet-testbed"
        guard let text = try? String(contentsOfFile: directory + "/env", encoding: .utf8) else {
            throw Missing(
                description: """
                    the test bed is not running (no \(directory)/env). Run the suite with scripts/test, \
                    or start it with `sudo scripts/testbed up`; `swift test --skip TestBedTests` runs the tests that need none.
                    """)
        }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        return TestBed(directory: directory, values: values)
    }

    package func value(_ key: String) -> String { values[key] ?? "" }

    package func namespace(_ host: Host) -> String { value("TB_\(host.rawValue.uppercased())_NS") }
    package func bus(_ host: Host) -> String { value("TB_\(host.rawValue.uppercased())_BUS") }
    package func ip(_ host: Host) -> String { value("TB_\(host.rawValue.uppercased())_IP") }
    package var python: String { value("TB_VENV") + "/bin/python" }
    package var scripts: String { value("TB_SCRIPTS") }

    /// Runs `command` inside `host`'s namespace with `host`'s D-Bus, and with this test process's
    /// own state folder (`testStateHome`) unless `environment` names one. A host without one (bare,
    /// ts) gets an address where no bus is: the tests run on node, and node's bus socket, a
    /// file, would otherwise be reachable from every namespace.
    package func spawn(on host: Host, _ command: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        var environment = environment
        if environment["XDG_STATE_HOME"] == nil { environment["XDG_STATE_HOME"] = testStateHome }
        if environment["DBUS_SYSTEM_BUS_ADDRESS"] == nil {
            environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus(host).isEmpty ? "unix:path=/nonexistent/\(host.rawValue)-has-no-bus" : bus(host)
        }
        return try ChildProcess("/usr/bin/env", ["ip", "netns", "exec", namespace(host)] + command, environment: environment)
    }

    package func run(on host: Host, _ command: [String], environment: [String: String] = [:], timeout: Duration = .seconds(60)) async throws
        -> CommandResult
    {
        let child = try spawn(on: host, command, environment: environment)
        let status = try await child.waitForExit(timeout: timeout)
        await child.waitForOutputEnd()
        return CommandResult(status: status, stdout: child.stdout, stderr: child.stderr)
    }

    /// `scripts/testbed ARGS...`, e.g. `avahi stop watch`, on this test bed (its folder and
    /// namespace prefix: several test beds can run side by side).
    package func control(_ arguments: String...) async throws {
        let environment = ["CLAWNET_TESTBED_DIR": directory, "CLAWNET_TESTBED_PREFIX": value("TB_PREFIX")]
        let result = try await runCommand(scripts + "/testbed", arguments, environment: environment)
        guard result.status == 0 else {
            throw Missing(description: "scripts/testbed \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
    }
}

/// A short random tag that keeps names of parallel tests and repeated runs apart.
package func uniqueTag() -> String {
    String(UInt32.random(in: 0...UInt32.max), radix: 36)
}

/// Where the clawnet a test runs keeps its state (zone push's ledgers, advertise's), unless the
/// test gives one: a folder of this test process in the test bed's directory, never root's
/// /var/lib/clawnet. Test servers' ports are handed out once per process (`testPort`), so a
/// ledger here never meets another test's server at the same address.
package let testStateHome =
    (ProcessInfo.processInfo.environment["CLAWNET_TESTBED_DIR"] ?? "/tmp/clawnet-testbed")
    + "/state-\(ProcessInfo.processInfo.processIdentifier)"
