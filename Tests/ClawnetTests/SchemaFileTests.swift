import Foundation
import TestSupport
import Testing

/// The published schema named `file` in docs/schemas, parsed.
func publishedSchema(_ file: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: "\(packageRoot)/docs/schemas/\(file)"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(file) is not a JSON object")
}

/// The published schemas themselves, against the binary's own lists; no test bed needed.
@Suite("docs/schemas: well-formed and in step with the binary")
struct SchemaFileTests {
    @Test("the doctor schema's check ids are exactly the ids `clawnet doctor --help` lists")
    func checkIDs() async throws {
        let help = try await runCommand(ClawnetBinary.path, ["doctor", "--help"])
        let listed = try #require(
            help.stdout.replacingOccurrences(of: "\n", with: " ").firstMatch(of: /Check ids: ([a-z0-9., ]+)\./), "\(help.stdout)")
        let ids = listed.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let definitions = try #require(try publishedSchema("clawnet.doctor.v1.schema.json")["$defs"] as? [String: Any])
        func enumeration(_ name: String) -> [String] {
            (((definitions[name] as? [String: Any])?["properties"] as? [String: Any])?["id"] as? [String: Any])?["enum"] as? [String] ?? []
        }
        #expect(enumeration("machineCheck") + enumeration("gatewayCheck") == ids)
    }

    @Test(
        "every schema names its version in $id and title, and the document's `schema` field agrees",
        arguments: [
            ("clawnet.browse.v1", true), ("clawnet.browse-event.v1", false), ("clawnet.watch-event.v1", false),
            ("clawnet.watch-event.v2", false), ("clawnet.doctor.v1", true),
            ("clawnet.preflight.v1", true), ("clawnet.preflight.v2", true), ("clawnet.zonecheck.v1", true), ("clawnet.zonecheck.v2", true),
            ("clawnet.zonecheck.v3", true), ("clawnet.report-manifest.v1", true), ("clawnet.report-manifest.v2", true),
        ])
    func versions(name: String, hasSchemaField: Bool) throws {
        let schema = try publishedSchema("\(name).schema.json")
        #expect(schema["$id"] as? String == "\(name).schema.json")
        #expect(schema["title"] as? String == name)
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        let field = ((schema["properties"] as? [String: Any])?["schema"] as? [String: Any])?["const"] as? String
        #expect(field == (hasSchemaField ? name : nil))
    }
}
