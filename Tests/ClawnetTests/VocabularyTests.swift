import ArgumentParser
import DNSSD
import Discovery
import Doctor
import Foundation
import TestSupport
import Testing

@testable import Commands

/// One word for one idea across commands: every command's `--format` values, and every field
/// name of the newest version of each JSON schema, listed and held to the words the schemas'
/// README names (no test bed needed).
@Suite("one vocabulary: formats and JSON fields across commands")
struct VocabularyTests {
    /// Each command's `--format` values, as `--experimental-dump-help` lists them.
    static func formats() async throws -> [String: [String]] {
        let dump = try await runCommand(ClawnetBinary.path, ["--experimental-dump-help"])
        let root = try #require(
            (try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])?["command"] as? [String: Any])
        var formats: [String: [String]] = [:]
        func walk(_ command: [String: Any], _ path: [String]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                if names.contains("format") { formats[path.joined(separator: " ")] = argument["allValues"] as? [String] ?? [] }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub, path + [sub["commandName"] as? String ?? ""]) }
        }
        walk(root, [])
        return formats
    }

    @Test("every command's --format: `table` for people, `json` for a document, `jsonl` for events, nothing else")
    func formatWords() async throws {
        let formats = try await Self.formats()
        let listing = formats.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.joined(separator: ", "))" }.joined(separator: "\n")
        #expect(Set(formats.keys) == ["browse", "doctor", "preflight", "watch", "zone check"], "\(listing)")
        for (command, values) in formats {
            #expect(values.first == "table", "\(command) names its format for people otherwise:\n\(listing)")
            #expect(Set(values).isSubset(of: ["table", "json", "jsonl"]), "\(command) has another word:\n\(listing)")
        }
    }

    @Test("watch --format text, its old name, still means table, unlisted")
    func watchTextAlias() throws {
        #expect(try WatchCommand.parse(["--format", "text"]).format.chosen == .table)
        #expect(try WatchCommand.parse(["--format", "jsonl"]).format.chosen == .jsonl)
        #expect(WatchFormat.allValueStrings == ["table", "jsonl"])
        #expect(throws: (any Error).self) { try WatchCommand.parse(["--format", "yaml"]) }
    }

    @Test("watch takes TARGETs as doctor does: a URL or HOST[:PORT] is watched as --manual is; a bad one is refused the same way")
    func watchTargets() throws {
        let watch = try WatchCommand.parse(["wss://10.0.0.1:18789", "studio.example", "My Studio", "--manual", "10.0.0.2"])
        #expect(watch.targetArguments.targets.map(\.text) == ["wss://10.0.0.1:18789", "studio.example", "My Studio"])
        #expect(watch.options.manual.map(\.text) == ["wss://10.0.0.1:18789", "studio.example", "10.0.0.2"], "\(watch.options.manual)")
        for bad in ["studio:", "10.0.0.1:99999", " "] {
            #expect(throws: (any Error).self, "\(bad)") { try WatchCommand.parse([bad]) }
            #expect(throws: (any Error).self, "doctor refuses \(bad) too") { try DoctorCommand.parse([bad]) }
        }
    }

    /// Field names of each schema's newest version (`clawnet.zonecheck.v3`, not v1 or v2).
    static func newestSchemaFields() throws -> [String: Set<String>] {
        let folder = "\(packageRoot)/docs/schemas"
        var newest: [String: (version: Int, file: String)] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) {
            guard let match = file.firstMatch(of: /^(clawnet\.[a-z-]+)\.v([0-9]+)\.schema\.json$/), let version = Int(match.2) else {
                continue
            }
            if version > newest[String(match.1)]?.version ?? 0 { newest[String(match.1)] = (version, file) }
        }
        func keys(_ node: Any) -> Set<String> {
            if let list = node as? [Any] { return list.reduce(into: []) { $0.formUnion(keys($1)) } }
            guard let object = node as? [String: Any] else { return [] }
            var found = Set((object["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
            found.formUnion((object["required"] as? [String]) ?? [])
            for value in object.values { found.formUnion(keys(value)) }
            return found
        }
        return try newest.values.reduce(into: [:]) { result, entry in result[entry.file] = keys(try publishedSchema(entry.file)) }
    }

    @Test("the newest schemas say source, status, check, diagnosis: never path, ok, severity or layer")
    func schemaWords() throws {
        let fields = try Self.newestSchemaFields()
        #expect(fields.keys.contains("clawnet.watch-event.v2.schema.json"), "\(fields.keys.sorted())")
        let retired: Set = ["path", "ok", "severity", "layer"]
        for (file, names) in fields.sorted(by: { $0.key < $1.key }) {
            // OpenClaw's own finding fields (checkId, severity, fixHint), beside clawnet's words for
            // the same facts, so that a tool reading `openclaw doctor --lint --json` reads doctor's too.
            let openClaw: Set<String> = names.contains("checkId") ? ["severity"] : []
            let said = names.intersection(retired).subtracting(openClaw)
            #expect(said.isEmpty, "\(file) says \(said.sorted()): \(names.sorted())")
        }
        #expect(fields["clawnet.watch-event.v2.schema.json"]?.isSuperset(of: ["source", "check", "diagnosis", "cause", "fix"]) == true)
        #expect(fields["clawnet.browse.v1.schema.json"]?.isSuperset(of: ["source", "sources"]) == true)
        #expect(fields["clawnet.doctor.v1.schema.json"]?.isSuperset(of: ["status", "cause", "fix"]) == true)
    }

    @Test("values keep their list's case: doctor's ids lower-case with dots or hyphens, kinds and events camelCase (split-dns is splitDNS)")
    func valueCase() throws {
        func enumeration(_ file: String, _ path: [String]) throws -> [String] {
            var node: Any = try publishedSchema(file)
            for key in path { node = (node as? [String: Any])?[key] as Any }
            return try #require(node as? [String], "\(file) \(path)")
        }
        let diagnoses = try enumeration("clawnet.doctor.v1.schema.json", ["$defs", "diagnosis", "properties", "id", "enum"])
        let kinds = try enumeration("clawnet.browse.v1.schema.json", ["$defs", "issue", "properties", "kind", "enum"])
        let events = try ["clawnet.browse-event.v1.schema.json", "clawnet.watch-event.v2.schema.json"].flatMap { file in
            try #require(try publishedSchema(file)["oneOf"] as? [[String: Any]]).flatMap { branch -> [String] in
                let event = (branch["properties"] as? [String: Any])?["event"] as? [String: Any]
                return (event?["enum"] as? [String]) ?? [event?["const"] as? String].compactMap { $0 }
            }
        }
        let hyphenated = diagnoses.filter { $0.wholeMatch(of: /[a-z0-9]+(-[a-z0-9]+)*/) == nil }
        #expect(hyphenated.isEmpty, "diagnosis ids not lower-case with hyphens: \(hyphenated)")
        let camel = (kinds + events).filter { $0.wholeMatch(of: /[a-z][a-zA-Z0-9]*/) == nil }
        #expect(camel.isEmpty, "kinds and events not camelCase: \(camel)")
        #expect(events.count > 10, "\(events)")
        // The same words in each list's spelling: letters alike once case and hyphens are gone.
        func letters(_ word: String) -> String { word.lowercased().filter { $0 != "-" } }
        let shared = Set(diagnoses.map(letters)).intersection(kinds.map(letters))
        #expect(shared == ["splitdns"], "ideas named in both lists: \(shared.sorted())")
    }

    @Test("every diagnosis a rule can give is an id the doctor schema lists (watch's events and doctor's JSON validate against it)")
    func everyDiagnosisInSchema() throws {
        let schema = try publishedSchema("clawnet.doctor.v1.schema.json")
        let ids = try #require(
            ((((schema["$defs"] as? [String: Any])?["diagnosis"] as? [String: Any])?["properties"] as? [String: Any])?["id"]
                as? [String: Any])?["enum"] as? [String])
        let given = Set(DiagnosisRules.all.map(\.id.rawValue) + [DiagnosisID.checkFailed.rawValue])
        let unlisted = given.subtracting(ids).sorted()
        #expect(unlisted.isEmpty, "diagnosis ids the schema does not list: \(unlisted)")
    }
}
