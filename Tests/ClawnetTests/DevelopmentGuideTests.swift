import Foundation
import TestSupport
import Testing

/// The guidance for developers follows the house: docs/development.md draws the layers
/// Package.swift declares, every script's help is its header comment, and the README and
/// scripts/test give the same figures.
@Suite("docs/development.md, the scripts' help and the README's figures agree with the code (no test bed needed)")
struct DevelopmentGuideTests {
    static let development = "\(packageRoot)/docs/development.md"
    static let recording = ProcessInfo.processInfo.environment["CLAWNET_RECORD_GOLDEN"] == "1"

    /// The lines between docs/development.md's two layer markers, without the code fence.
    static func documentedLayers() throws -> [Substring] {
        let lines = try String(contentsOfFile: development, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let begin = try #require(lines.firstIndex { $0.hasPrefix("<!-- layers: made by scripts/layers") }, "no begin marker")
        let end = try #require(lines[begin...].firstIndex(of: "<!-- layers: end -->"), "no end marker after the begin marker")
        return lines[(begin + 1)..<end].filter { $0 != "```" }
    }

    /// A script's header comment as its usage() prints it: from line 2 to the first line that
    /// is not a comment, each without its "# " (joined as `runCommand` joins the lines it read).
    static func header(of script: String) throws -> String {
        let lines = try String(contentsOfFile: script, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let comment = lines.dropFirst().prefix { $0.hasPrefix("#") }
        return comment.map { line in line.hasPrefix("# ") ? String(line.dropFirst(2)) : String(line.dropFirst()) }
            .joined(separator: "\n")
    }

    @Test("the layer picture in docs/development.md is what scripts/layers draws from Package.swift")
    func layerPicture() async throws {
        let script = "\(packageRoot)/scripts/layers"
        if Self.recording {
            let written = try await runCommand(script, ["--write"], timeout: .seconds(300))
            #expect(written.status == 0, "scripts/layers --write: \(written.stderr)")
        }
        let drawn = try await runCommand(script, [], timeout: .seconds(300))
        try #require(drawn.status == 0, "scripts/layers: \(drawn.stderr)")
        let made = drawn.stdout.split(separator: "\n")
        let documented = try Self.documentedLayers()
        let changes = made.difference(from: documented).map { change in
            switch change {
            case .remove(let offset, let line, _): "docs line \(offset + 1): - \(line)"
            case .insert(let offset, let line, _): "made line \(offset + 1): + \(line)"
            }
        }
        #expect(made.count > 10, "scripts/layers drew \(made.count) lines: \(drawn.stdout)")
        #expect(
            changes.isEmpty, "docs/development.md's layers differ (scripts/layers --write renews them):\n\(changes.joined(separator: "\n"))"
        )
    }

    @Test("docs/development.md says what each target in its picture holds")
    func everyTargetDescribed() throws {
        let names = try Self.documentedLayers().dropFirst().compactMap { line in
            line.wholeMatch(of: /\s*\d+\s+(\S+)\s.*/).map { String($0.1) }
        }
        #expect(names.contains("Watch") && names.contains("Archive") && names.contains("clawnet"), "targets in the picture: \(names)")
        let items = try String(contentsOfFile: Self.development, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("- `") }.compactMap { $0.split(separator: ":").first }
        let undescribed = names.filter { name in !items.contains { $0.contains("`\(name)`") } }
        #expect(undescribed.isEmpty, "no `- \\`Target\\`: ...` line in docs/development.md for \(undescribed)")
    }

    @Test("every shell script prints its header comment for --help and exits 0")
    func scriptsHelp() async throws {
        let folder = "\(packageRoot)/scripts"
        let scripts = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter { name in
            let text = try? String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8)
            return text?.hasPrefix("#!/usr/bin/env bash\n") == true
        }
        #expect(scripts.count >= 11, "shell scripts found: \(scripts)")
        for name in scripts {
            let expected = try Self.header(of: "\(folder)/\(name)")
            let help = try await runCommand("\(folder)/\(name)", ["--help"], timeout: .seconds(30))
            #expect(help.status == 0, "scripts/\(name) --help exited \(help.status): \(help.stderr)")
            #expect(expected.split(separator: "\n").count >= 2, "scripts/\(name) has no header comment")
            #expect(help.stdout == expected, "scripts/\(name) --help printed:\n\(help.stdout)\nits header says:\n\(expected)")
        }
    }

    @Test("the README gives the test count and the minutes scripts/test's header gives")
    func readmeAgreesWithScriptsTest() throws {
        func words(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let header = words(try Self.header(of: "\(packageRoot)/scripts/test"))
        let readme = words(try Readme.text)
        let fresh = try #require(header.firstMatch(of: /(\d+-\d+) minutes from a fresh clone/)?.1, "\(header)")
        let count = try #require(header.firstMatch(of: /about ([\d,]+) tests/)?.1, "\(header)")
        let warm = try #require(header.firstMatch(of: /about (\d+) minutes when .build is warm/)?.1, "\(header)")
        // Every figure of the kind the README gives, not only one of them.
        let readmeFresh = readme.matches(of: /(\d+-\d+) min(?:utes)? from a fresh clone/).map { String($0.1) }
        let readmeCounts = readme.matches(of: /(\d[\d,]*) tests/).map { String($0.1) }
        #expect(!readmeFresh.isEmpty && readmeFresh.allSatisfy { $0 == fresh }, "scripts/test: \(fresh); README: \(readmeFresh)")
        #expect(!readmeCounts.isEmpty && readmeCounts.allSatisfy { $0 == count }, "scripts/test: \(count); README: \(readmeCounts)")
        #expect(readme.contains("takes about \(warm) minutes"), "scripts/test: about \(warm) minutes when .build is warm")
    }
}
