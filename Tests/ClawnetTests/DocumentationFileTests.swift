import Foundation
import TestSupport
import Testing

extension Readme {
    /// Lines (`path:line: text`) under `paths` (files or folders, relative to the package root)
    /// that point at the developers' notes beside the repository (`outsideMarkers`): users do not
    /// have them, so nothing in the repository may point there (`.build` folders are skipped).
    /// The markers are assembled, so that this file does not name them itself.
    static let outsideMarkers = ["..", "/", "shared"].joined() + "|" + ["DESIGN", ".md"].joined()
    static func pointersOutside(in paths: [String]) throws -> [String] {
        func isFolder(_ path: String) -> Bool {
            var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: "\(packageRoot)/\(path)", isDirectory: &folder) && folder.boolValue
        }
        var files: [String] = []
        for path in paths where FileManager.default.fileExists(atPath: "\(packageRoot)/\(path)") {
            guard isFolder(path) else {
                files.append(path)
                continue
            }
            let inside = try #require(FileManager.default.enumerator(atPath: "\(packageRoot)/\(path)"))
            while let file = inside.nextObject() as? String {
                let skipped = file.split(separator: "/").contains { $0.hasPrefix(".build") || $0 == "__pycache__" }
                if !skipped && !isFolder("\(path)/\(file)") { files.append("\(path)/\(file)") }
            }
        }
        return files.flatMap { file -> [String] in
            guard let text = try? String(contentsOfFile: "\(packageRoot)/\(file)", encoding: .utf8) else { return [] }
            return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .filter { line in outsideMarkers.split(separator: "|").contains { line.element.contains($0) } }
                .map { "\(file):\($0.offset + 1): \($0.element)" }
        }
    }
}

@Suite("The README, the version and the build info (no test bed needed)")
struct DocumentationFileTests {
    @Test("README links point at files in the repository, and nothing outside it")
    func readmeLinks() throws {
        let text = try Readme.text
        #expect(try Readme.pointersOutside(in: ["README.md"]) == [], "the README points outside the repository")
        let targets = text.matches(of: /\]\(([^)#\s]+)[^)]*\)/).map { String($0.1) }.filter { !$0.contains("://") }
        #expect(targets.contains("docs/schemas/"), "the README links the schemas: \(targets)")
        for target in targets {
            #expect(FileManager.default.fileExists(atPath: "\(packageRoot)/\(target)"), "README links \(target), which does not exist")
        }
    }

    @Test("the scripts, CI, docs and packaging point at nothing outside the repository (the developers' notes)")
    func scriptsPointNowhereOutside() throws {
        let found = try Readme.pointersOutside(in: ["scripts", ".ci", "docs", "packaging", "zones", "Fuzz", "Plugins", "Package.swift"])
        #expect(found == [], "\(found.joined(separator: "\n"))")
    }

    @Test("the sources point at nothing outside the repository (the developers' notes)")
    func sourcesPointNowhereOutside() throws {
        let found = try Readme.pointersOutside(in: ["Sources"])
        #expect(found == [], "\(found.joined(separator: "\n"))")
    }

    @Test("--version names the git commit the binary was built from")
    func versionNamesCommit() async throws {
        let version = try await runCommand(ClawnetBinary.path, ["--version"])
        #expect(version.status == 0)
        let head = try await runCommand("/usr/bin/env", ["git", "-C", packageRoot, "rev-parse", "HEAD"])
        if head.status == 0 {
            #expect(version.stdout.firstMatch(of: /^clawnet \d+\.\d+\.\d+ \(commit [0-9a-f]{40}/) != nil, "\(version.stdout)")
            #expect(version.stdout.contains("(commit \(head.stdout.trimmingCharacters(in: .whitespacesAndNewlines))"), "\(version.stdout)")
        } else {
            #expect(version.stdout.hasSuffix(" (unknown commit)"), "not a git checkout: \(version.stdout)")
        }
    }

    @Test("build info: the commit in a checkout; nil in a tarball, also one unpacked inside another repository")
    func buildInfoScript() async throws {
        let script = "\(packageRoot)/Plugins/BuildInfo/build-info.sh"
        let output = NSTemporaryDirectory() + "build-info-\(UInt32.random(in: 0...UInt32.max))"
        let tarball = "\(packageRoot)/.build/tarball-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: tarball, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(atPath: output)
            try? FileManager.default.removeItem(atPath: tarball)
        }
        func commitLine(_ package: String) async throws -> String {
            let result = try await runCommand("/bin/sh", [script, package, output])
            #expect(result.status == 0, "\(result.stderr)")
            let text = try String(contentsOfFile: "\(output)/BuildInfo.swift", encoding: .utf8)
            return try #require(text.split(separator: "\n").first { $0.contains("static let commit") }.map(String.init))
        }
        let head = try await runCommand("/usr/bin/env", ["git", "-C", packageRoot, "rev-parse", "HEAD"])
        if head.status == 0 {
            #expect(try await commitLine(packageRoot).hasSuffix("= \"\(head.stdout.trimmingCharacters(in: .whitespacesAndNewlines))\""))
        }
        // .build is inside this checkout, but the folder is not the checkout's top: no commit.
        #expect(try await commitLine(tarball).hasSuffix("= nil"))
    }
}
