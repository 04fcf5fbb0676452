import CommandTestSupport
import DNSSD
import Discovery
import Foundation
import Glibc
import Host
import Testing

@testable import Commands

/// Issue 30: `browse --no-local` with a 7-byte config that is not UTF-8 said only "nothing to
/// browse with --no-local: give --domain ..." (exit 2): the domain the config would have given
/// was the reason, and the user was not told the config could not be read. Each config that
/// cannot be used, read from a real file at ~/.openclaw/openclaw.json, against every command
/// that reads it, on its normal path and on its usage error: the output names the file.
@Suite("an OpenClaw config that cannot be used is named by every command that reads it")
struct UnusableConfigTests {
    /// How the file at ~/.openclaw/openclaw.json is broken.
    enum Broken: String, CaseIterable {
        case notUTF8 = "7 bytes, not UTF-8"
        case notJSON5 = "not valid JSON5"
        case notObject = "an array, not an object"
        case folder = "a folder"
        case tooLarge = "larger than clawnet reads"
        case unreadable = "mode 000 (only when not root)"

        /// Makes it under `home`; false when it cannot be made here (root reads mode 000).
        func make(home: String) throws -> Bool {
            let folder = home + "/.openclaw"
            let path = folder + "/openclaw.json"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            switch self {
            case .notUTF8: try Data([0xFF, 0xFE, 0x7B, 0x7D, 0x0A, 0xC3, 0x28]).write(to: URL(fileURLWithPath: path))
            case .notJSON5:
                try "{ discovery: { wideArea: { domain: 'openclaw.internal' } ".write(toFile: path, atomically: true, encoding: .utf8)
            case .notObject: try "[1, 2]".write(toFile: path, atomically: true, encoding: .utf8)
            case .folder: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            case .tooLarge: try Data(repeating: 0x20, count: FileLimit.config + 1).write(to: URL(fileURLWithPath: path))
            case .unreadable:
                guard geteuid() != 0 else { return false }
                try "{}".write(toFile: path, atomically: true, encoding: .utf8)
                try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
            }
            return true
        }
    }

    /// Each command that reads the config, with arguments that reach its normal path or its
    /// usage error (exit 2); `{home}` is the temporary home.
    static let commands: [(arguments: [String], usage: Bool)] = [
        (["browse", "--no-local"], true),
        (["browse", "--timeout", "1s"], false),
        (["doctor", "--no-local", "--server", "127.0.0.1"], true),
        (["doctor", "127.0.0.1:1", "--no-local", "--timeout", "3s"], false),
        (["preflight", "--no-local", "--server", "127.0.0.1"], true),
        (["preflight", "--require", "mdns"], false),
        (["watch", "--no-local"], true),
        (["watch", "--no-local", "127.0.0.1:1", "--timeout", "1s"], false),
        (["zone", "generate", "--domain", "openclaw.internal", "--gateway", "host=a,ip=100.64.0.1", "--ns-address", "100.64.0.53"], false),
        (
            [
                "zone", "push", "--domain", "openclaw.internal", "--server", "127.0.0.1:1", "--gateway", "host=a,ip=100.64.0.1",
                "--dry-run", "--timeout", "1s",
            ], false
        ),
        (["report", "--out", "{home}/report.tar.gz", "--timeout", "1s"], false),
    ]

    @Test(
        "each broken config x each command: the file is named; a usage error says the config could not be used", arguments: Broken.allCases)
    func named(broken: Broken) async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("unusable-config-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        guard try broken.make(home: home) else { return }
        let path = home + "/.openclaw/openclaw.json"
        var machine = RecordedMachine()
        machine.openclaw = OpenClawConfig.load(environment: ["HOME": home])
        #expect(machine.openclaw.unusable != nil, "\(broken): \(machine.openclaw.warnings)")
        for (arguments, usage) in Self.commands {
            let arguments = arguments.map { $0.replacingOccurrences(of: "{home}", with: home) }
            // report's doctor probes the default Gateway, 127.0.0.1:18789: nothing listens there.
            let run = try await InProcessRun.run(
                arguments, machine: machine, discovery: RecordedDiscovery(events: [.allForNow]),
                network: .recorded(DoctorInProcessTests.refusing(["127.0.0.1:18789", "127.0.0.1:1"])), environment: ["HOME": home])
            let said = run.out + run.err
            #expect(
                said.contains(path), "\(broken), \(arguments.joined(separator: " ")): exit \(run.status), nothing names \(path): \(said)")
            if usage {
                #expect(run.status == 2, "\(broken), \(arguments): \(run.err)")
                #expect(run.err.contains("note: the OpenClaw config could not be used"), "\(broken), \(arguments): \(run.err)")
            }
        }
    }
}
