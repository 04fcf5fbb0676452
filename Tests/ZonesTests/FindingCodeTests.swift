import DNSSD
import Foundation
import Testing

@testable import Zones

/// The finding codes are a published interface: every one is in the v3 schema's list and in
/// docs/zones.md, and the schema lists no other.
@Suite("zone check: finding codes published")
struct FindingCodeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the v3 schema's code list is exactly FindingCode's cases")
    func schemaLists() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("docs/schemas/clawnet.zonecheck.v3.schema.json"))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let findings = (schema["properties"] as? [String: Any])?["findings"] as? [String: Any]
        let properties = (findings?["items"] as? [String: Any])?["properties"] as? [String: Any]
        let listed = try #require((properties?["code"] as? [String: Any])?["enum"] as? [String], "no code enum in the schema")
        let codes = FindingCode.allCases.map(\.rawValue)
        #expect(
            Set(listed) == Set(codes),
            "only in the schema: \(Set(listed).subtracting(codes)); only in the code: \(Set(codes).subtracting(listed))")
        #expect(listed.count == Set(listed).count, "a code listed twice")
    }

    @Test("docs/zones.md explains every code")
    func documented() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/zones.md"), encoding: .utf8)
        let missing = FindingCode.allCases.filter { !text.contains("`\($0.rawValue)`") }
        #expect(missing.isEmpty, "not in docs/zones.md: \(missing)")
    }

    @Test("every TXT issue has its own code")
    func txtCodes() {
        let kinds: [TXTIssue.Kind] = [
            .stringWithoutKey, .keyNotPrintable, .duplicateKey("k"), .valueNotUTF8("k"), .roleMissing, .roleNotGateway,
            .notAPort(key: "k"), .notAFlag(key: "k"), .fingerprintNotCanonical, .fingerprintMalformed, .fingerprintWithoutTLS,
        ]
        let codes = Set(kinds.map { FindingCode($0) })
        #expect(codes.count == kinds.count, "\(codes)")
    }
}
