import DNSSD
import Foundation
import Testing

@testable import Host
@testable import Report

/// Unquoted keys with `\u` escapes are read as JSON5.parse (and so OpenClaw) reads them, by doctor
/// and report both; an escape that gives no character of a name fails the text, as in json5.
@Suite("JSON5 unquoted keys with escapes")
struct JSON5KeysTests {
    @Test("pass\\u0077ord is password: the report redacts it and scrubs its value")
    func escapedSecretKey() throws {
        let config = #"{ gateway: { auth: { pass\u0077ord: "Y4escapedpassword" } } }"#
        let redaction = try #require(ConfigRedaction(config: Array(config.utf8)))
        #expect(!redaction.text.contains("Y4escapedpassword"), "\(redaction.text)")
        #expect(redaction.redactedPaths == ["gateway.auth.password"], "\(redaction.redactedPaths)")
        #expect(redaction.secrets.contains("Y4escapedpassword"))
    }

    @Test("\\u0024include is $include, and doctor reads an escaped key as the setting it names")
    func escapedIncludeAndSetting() throws {
        let parsed = try JSONValue.parse(json5: Data(#"{ \u0024include: "./inc.json5", b: 1 }"#.utf8))
        #expect(parsed["$include"] == .string("./inc.json5"), "\(parsed)")
        let config = OpenClawConfig.parse(Data(#"{ gateway: { p\u006frt: 18790, /* c */ b\u0069nd /* c */ : "lan" } }"#.utf8), path: "c")
        #expect(config.gatewayPort == 18790 && config.bind == GatewayBind(word: "lan"), "\(config)")
        #expect(config.unusable == nil, "\(config.warnings)")
    }

    @Test("quoted keys and strings keep their text; a bare escape in a value is refused")
    func quotedUntouched() throws {
        let parsed = try JSONValue.parse(json5: Data(#"{ "a\\u0077b": "x\\u0041: y", 'c\u0077': 'd' }"#.utf8))
        #expect(parsed["a\\u0077b"] == .string("x\\u0041: y"), "\(parsed)")
        #expect(parsed["cw"] == .string("d"), "\(parsed)")
        #expect(throws: (any Error).self) { try JSONValue.parse(json5: Data(#"{ a: b\u0063 }"#.utf8)) }
    }

    @Test(
        "an escape that makes no name character fails the config, as json5 fails it",
        arguments: [#"{ a\u0020b: 1 }"#, #"{ \u0031a: 1 }"#, #"{ a\x41: 1 }"#, #"{ \uD800x: 1 }"#, #"{ a\u00: 1 }"#])
    func invalidEscapes(text: String) {
        #expect(throws: (any Error).self, "\(text)") { try JSONValue.parse(json5: Data(text.utf8)) }
        let config = OpenClawConfig.parse(Data(text.utf8), path: "c")
        #expect(config.unusable?.kind == .notJSON5, "\(text): \(config.warnings)")
    }
}
