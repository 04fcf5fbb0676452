import Foundation
import TestSupport
import Testing

/// The bash completion (what the package installs) completes a file name for every flag whose
/// value is a FILE and a folder for every DIR, as each command's `--help` names them, and the
/// check ids for `--check`.
@Suite("Completions: files where a file is expected, check ids for --check")
struct CompletionTests {
    /// Each command's function in the generated script, from its header to the next one.
    static func sections(_ script: String) -> [String: String] {
        var sections: [String: String] = [:]
        var name: String?
        for line in script.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("_clawnet"), line.hasSuffix("() {") { name = String(line.dropLast(4)) }
            if let name { sections[name, default: ""] += line + "\n" }
        }
        return sections
    }

    @Test("every --flag <FILE> completes files and every --flag <DIR> folders, in every command")
    func filesAndFolders() async throws {
        let script = try await runCommand(ClawnetBinary.path, ["--generate-completion-script", "bash"], timeout: .seconds(30))
        let sections = Self.sections(script.stdout)
        var missing: [String] = []
        var seen = 0
        for command in HelpGoldenTests.commands where !command.isEmpty {
            let help = try await HelpGoldenTests.help(command)
            let function = (["_clawnet"] + command).joined(separator: "_")
            let body = try #require(sections[function], "no \(function) in the completion script")
            for match in help.matches(of: /(--[a-z0-9-]+) <(FILE|DIR)>/) {
                seen += 1
                let flag = String(match.1)
                let wanted = match.2 == "FILE" ? "-f" : "-d"
                let completes = body.contains("'\(flag)')\n        __clawnet_add_completions \(wanted)\n")
                if !completes { missing.append("\(command.joined(separator: " ")) \(flag) <\(match.2)>") }
            }
        }
        #expect(seen >= 10, "the help names at least the known file flags: saw \(seen)")
        #expect(missing.isEmpty, "no file/folder completion for: \(missing)")
    }

    @Test("doctor --check completes the check ids")
    func checkIDs() async throws {
        let script = try await runCommand(ClawnetBinary.path, ["--generate-completion-script", "bash"], timeout: .seconds(30))
        let doctor = try #require(Self.sections(script.stdout)["_clawnet_doctor"])
        #expect(doctor.contains("gw.tls") && doctor.contains("mdns.dbus"), "\(doctor.prefix(2000))")
    }
}
