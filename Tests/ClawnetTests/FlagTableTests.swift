import Foundation
import TestSupport
import Testing

/// The README's flag table, clawnet(1)'s FLAGS section and the code's options say the same: a
/// flag the table gives a command that does not take it fails, and so does a command that takes
/// a listed flag the table does not give it.
@Suite("the flag table: README, man page and code agree")
struct FlagTableTests {
    struct Row: CustomStringConvertible {
        let flag: String
        let commands: Set<String>
        var description: String { flag }
    }

    static let leafCommands: Set<String> = [
        "browse", "doctor", "preflight", "watch", "report", "advertise", "zone generate", "zone push", "zone check",
    ]

    /// The rows of the README's table: each flag (`--domain`, `TARGET`) and its commands.
    static func readmeRows() throws -> [Row] {
        let readme = try String(contentsOfFile: "\(packageRoot)/README.md", encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex { $0.hasPrefix("| flag | meaning | commands |") }, "no flag table in README.md")
        return try lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let flag = try #require(cells.first?.replacingOccurrences(of: "`", with: "").split(separator: " ").first, "\(line)")
            let listed =
                cells[2] == "every command"
                ? leafCommands : Set(cells[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(listed.isSubset(of: leafCommands), "not a command in '\(line)': \(listed.subtracting(leafCommands))")
            return Row(flag: String(flag), commands: listed)
        }
    }

    /// Each command's visible flags as the binary declares them (`--experimental-dump-help`); a
    /// positional TARGET as `TARGET`.
    static func codeFlags() async throws -> [String: Set<String>] {
        let dump = try await runCommand(ClawnetBinary.path, ["--experimental-dump-help"])
        let root = try #require(
            (try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])?["command"] as? [String: Any])
        var flags: [String: Set<String>] = [:]
        func walk(_ command: [String: Any], _ path: [String]) {
            let name = path.joined(separator: " ")
            if leafCommands.contains(name) {
                for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool != false {
                    if argument["kind"] as? String == "positional" {
                        flags[name, default: []].insert(argument["valueName"] as? String ?? "?")
                    }
                    for spelling in argument["names"] as? [[String: Any]] ?? [] where spelling["kind"] as? String == "long" {
                        flags[name, default: []].insert("--" + (spelling["name"] as? String ?? ""))
                    }
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub, path + [sub["commandName"] as? String ?? ""]) }
        }
        walk(root, [])
        return flags
    }

    @Test("every flag in the README's table is taken by exactly the commands it names")
    func readmeMatchesCode() async throws {
        let rows = try Self.readmeRows()
        #expect(rows.count > 10, "\(rows)")
        let code = try await Self.codeFlags()
        #expect(Set(code.keys) == Self.leafCommands, "\(code.keys.sorted())")
        for row in rows {
            let taking = Set(code.filter { $0.value.contains(row.flag) }.keys)
            let onlyTable = row.commands.subtracting(taking).sorted()
            let onlyCode = taking.subtracting(row.commands).sorted()
            #expect(taking == row.commands, "\(row.flag): only in the table: \(onlyTable); only in the code: \(onlyCode)")
        }
    }

    @Test("every flag that more than one command takes is in the README's table")
    func sharedFlagsListed() async throws {
        let listed = Set(try Self.readmeRows().map(\.flag))
        let code = try await Self.codeFlags()
        let takers = Dictionary(grouping: code.flatMap { command, flags in flags.map { ($0, command) } }, by: \.0)
        let shared = takers.filter { $0.value.count > 1 && !["--help", "--version"].contains($0.key) }.keys
        let missing = shared.filter { !listed.contains($0) }.sorted()
        #expect(missing.isEmpty, "shared flags not in the README's table: \(missing.map { "\($0) (\(takers[$0]!.map(\.1).sorted()))" })")
    }

    @Test("clawnet(1)'s FLAGS section is the README's table, row for row, and groff reads it without a warning")
    func manPageMatchesReadme() async throws {
        let section = try await runCommand("/usr/bin/awk", ["-f", "\(packageRoot)/scripts/lib/flag-table.awk", "\(packageRoot)/README.md"])
        #expect(section.status == 0, "\(section.stderr)")
        let items = section.stdout.split(separator: "\n").filter { $0.hasPrefix(".It Sy ") }.map {
            $0.dropFirst(7).split(separator: " ").first.map(String.init) ?? ""
        }
        let commands = section.stdout.split(separator: "\n").filter { $0.hasPrefix("Commands: ") }
        let rows = try Self.readmeRows()
        #expect(items == rows.map(\.flag), "man page: \(items)")
        for (line, row) in zip(commands, rows) {
            let listed = line.dropFirst(10).dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(
                Set(listed) == row.commands || (listed == ["every command"] && row.commands == Self.leafCommands), "\(row.flag): \(line)")
        }
        let page = ".Dd 2026-11-26\n.Dt CLAWNET 1\n.Os\n.Sh NAME\n.Nm clawnet\n.Nd test\n" + section.stdout
        let file = NSTemporaryDirectory() + "clawnet-flags-\(uniqueTag()).1"
        try page.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let groff = try await runCommand("/usr/bin/groff", ["-mdoc", "-Tutf8", "-ww", "-z", file])
        #expect(groff.status == 0 && groff.stderr.isEmpty, "\(groff.stderr)")
    }
}
