import Testing

@testable import DNSSD

@Suite("TXT records (RFC 6763 §6)")
struct TXTRecordTests {
    @Test("wire format decodes and encodes (golden vector)")
    func wireGolden() throws {
        let wire: [UInt8] = [12] + Array("role=gateway".utf8) + [0] + [3] + Array("k=v".utf8)
        let record = try TXTRecord(wire: wire)
        #expect(record.strings == [Array("role=gateway".utf8), [], Array("k=v".utf8)])
        #expect(record.wire == wire)
        #expect(record.attributes.ordered.map(\.key) == ["role", "k"])
    }

    @Test("an empty TXT is one zero-length string and has no attributes")
    func emptyRecord() throws {
        let record = try TXTRecord(wire: [0])
        #expect(record.strings == [[]])
        #expect(record.isEmpty)
        #expect(record.attributes.ordered.isEmpty)
        #expect(TXTRecord.empty.wire == [0])
        #expect(try TXTRecord(wire: []).strings.isEmpty)
    }

    @Test("a length byte that overruns the data is an error")
    func overrun() throws {
        #expect(try #require(throws: DNSSDError.self) { try TXTRecord(wire: [5, 65, 66]) }.code == .txtString)
    }

    @Test("255-byte strings fit; 256 do not")
    func stringLimit() throws {
        let value = String(repeating: "v", count: 253)
        let record = try TXTRecord(pairs: [(key: "k", value: value)])
        #expect(record.strings[0].count == 255)
        #expect(record.wire.count == 256)
        #expect(try TXTRecord(wire: record.wire).attributes.text("k") == value)
        #expect(try #require(throws: DNSSDError.self) { try TXTRecord(pairs: [(key: "k", value: value + "v")]) }.code == .txtString)
        #expect(try #require(throws: DNSSDError.self) { try TXTRecord(strings: [[UInt8](repeating: 1, count: 256)]) }.code == .txtString)
    }

    @Test("keys are case-insensitive and the first occurrence wins")
    func firstKeyWins() throws {
        let record = try TXTRecord(strings: ["Role=gateway", "role=other", "ROLE=third"].map { Array($0.utf8) })
        let attributes = record.attributes
        #expect(attributes.ordered.count == 1)
        #expect(attributes.text("role") == "gateway")
        #expect(attributes["rOlE"]?.key == "Role")
        #expect(attributes.issues.map(\.kind) == [.duplicateKey("role"), .duplicateKey("ROLE")])
    }

    @Test("boolean attributes, empty values and missing keys")
    func attributeKinds() throws {
        let record = try TXTRecord(strings: ["flag", "empty=", "=nokey", "", "eq=a=b"].map { Array($0.utf8) })
        let attributes = record.attributes
        #expect(attributes["flag"]?.value == nil)
        #expect(attributes["flag"] != nil)
        #expect(attributes["empty"]?.value == [])
        #expect(attributes.text("eq") == "a=b")
        #expect(attributes["nokey"] == nil)
        #expect(attributes.issues.map(\.kind) == [.stringWithoutKey])
        #expect(attributes.issues.map(\.message) == ["TXT string '=nokey' has no key; ignored"])
    }

    @Test("non-UTF-8 values are shown safely and flagged")
    func nonUTF8Values() throws {
        let record = try TXTRecord(strings: [Array("name=".utf8) + [0xFF, 0x41, 0x0A]])
        #expect(record.attributes.text("name") == #"\255A\010"#)
        #expect(record.attributes["name"]?.string == nil)
        #expect(record.attributes.issues.map(\.kind) == [.valueNotUTF8("name")])
        #expect(record.attributes.issues.first?.message.contains("not UTF-8") == true)
    }

    @Test(
        "keys with control or non-ASCII bytes are ignored",
        arguments: [
            [0x6B, 0x0A, 0x3D, 0x76], [0xC3, 0xA9, 0x3D, 0x76],
        ] as [[UInt8]])
    func badKeys(string: [UInt8]) throws {
        let attributes = try TXTRecord(strings: [string]).attributes
        #expect(attributes.ordered.isEmpty)
        #expect(attributes.issues.count == 1)
    }

    @Test("building refuses bad keys")
    func buildValidation() throws {
        #expect(try #require(throws: DNSSDError.self) { try TXTRecord(pairs: [(key: "", value: "x")]) }.code == .txtKey)
        #expect(try #require(throws: DNSSDError.self) { try TXTRecord(pairs: [(key: "a=b", value: "x")]) }.code == .txtKey)
        #expect(throws: DNSSDError.self) { try TXTRecord(pairs: [(key: "tab\t", value: "x")]) }
    }
}
