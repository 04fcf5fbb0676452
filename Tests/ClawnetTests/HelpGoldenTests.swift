import Foundation
import TestSupport
import Testing

/// Every command's `--help` at 80 columns, held to the committed files in Golden/: a change of
/// words shows up in review. After a change meant to alter them, run with
/// CLAWNET_RECORD_GOLDEN=1 to write the new files, and read their diff.
@Suite("--help of every command: golden, and examples never wrapped inside a command")
struct HelpGoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let recording = ProcessInfo.processInfo.environment["CLAWNET_RECORD_GOLDEN"] == "1"
    static let commands: [[String]] = [
        [], ["doctor"], ["preflight"], ["browse"], ["advertise"], ["zone"], ["zone", "generate"], ["zone", "push"], ["zone", "check"],
        ["watch"], ["report"],
    ]

    static func help(_ command: [String]) async throws -> String {
        let result = try await runCommand(ClawnetBinary.path, command + ["--help"], environment: ["COLUMNS": "80"], timeout: .seconds(30))
        #expect(result.status == 0, "\(command): \(result.stderr)")
        return result.stdout
    }

    @Test("--help is the golden text", arguments: commands)
    func golden(command: [String]) async throws {
        let produced = try await Self.help(command)
        let url = Self.directory.appendingPathComponent("help-" + (["clawnet"] + command).joined(separator: "-") + ".txt")
        if Self.recording {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try Data(produced.utf8).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        let new = produced.split(separator: "\n", omittingEmptySubsequences: false)
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(new.count, old.count)).first { new[$0] != old[$0] } ?? min(new.count, old.count)
        #expect(
            produced == expected,
            """
            \(url.lastPathComponent) differs at line \(line + 1) (CLAWNET_RECORD_GOLDEN=1 re-records):
              golden: \(line < old.count ? String(old[line]) : "<end>")
              now:    \(line < new.count ? String(new[line]) : "<end>")
            """)
    }

    @Test("every example line is whole at 80 columns: a command is never wrapped in the middle", arguments: commands)
    func examplesWhole(command: [String]) async throws {
        let lines = try await Self.help(command).split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "Examples:") else { return }
        let end = lines[start...].firstIndex { $0.hasPrefix("Exit status:") || $0.hasPrefix("USAGE:") } ?? lines.endIndex
        let broken = lines[(start + 1)..<end].filter { !$0.isEmpty && !$0.hasPrefix("    ") }
        #expect(broken.isEmpty, "\(command): wrapped example lines: \(broken)")
    }

    @Test("every Exit status line is a code or goes on under the meaning above it, within 80 columns", arguments: commands)
    func exitStatusHangs(command: [String]) async throws {
        let lines = try await Self.help(command).split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "Exit status:"), "\(command): no Exit status paragraph")
        let paragraph = lines[(start + 1)...].prefix { !$0.isEmpty }
        let stray = paragraph.filter {
            $0.count > 80 || ($0.wholeMatch(of: #/  [0-9]  \S.*/#) == nil && $0.wholeMatch(of: #/     \S.*/#) == nil)
        }
        #expect(!paragraph.isEmpty && stray.isEmpty, "\(command): lines neither a code nor under its meaning: \(stray)")
    }

    @Test("every line, USAGE included, fits 80 columns, and every value placeholder is in capitals", arguments: commands)
    func usageAndPlaceholders(command: [String]) async throws {
        let help = try await Self.help(command)
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("USAGE:") }, "\(command): no USAGE line in \(help)")
        let usage = lines[start...].prefix { !$0.isEmpty }
        #expect(usage.allSatisfy { $0.count <= 80 }, "\(command): USAGE wider than 80 columns: \(usage.filter { $0.count > 80 })")
        // Every other line too: a run of text without a space (a KEY=VALUE list) cannot wrap.
        let wide = lines.filter { $0.count > 80 }
        #expect(wide.isEmpty, "\(command): lines wider than 80 columns: \(wide)")
        // ArgumentParser's own group words stay as it writes them; a value the user types is in capitals.
        let groups: Set<Substring> = ["<options>", "<subcommand>", "<serve options>"]
        let lowerCase = help.matches(of: /<[a-z][^<>]*>/).map(\.output).filter { !groups.contains($0) }
        #expect(lowerCase.isEmpty, "\(command): placeholders not in capitals: \(lowerCase)")
    }

    @Test("a command group alone is a usage error: exit 2, its help on standard error", arguments: [[], ["zone"]])
    func groupAlone(command: [String]) async throws {
        let result = try await runCommand(ClawnetBinary.path, command, environment: ["COLUMNS": "80"], timeout: .seconds(30))
        #expect(result.status == 2 && result.stdout.isEmpty, "\(command): exit \(result.status), stdout \(result.stdout)")
        #expect(result.stderr.contains("USAGE: clawnet") && result.stderr.contains("SUBCOMMANDS:"), "\(command): \(result.stderr)")
    }
}
