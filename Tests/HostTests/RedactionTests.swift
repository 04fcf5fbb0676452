import FoundationEssentials
import Testing

@testable import Host

@Suite struct RedactionTests {
    @Test func configKeepsKeysPlaceholdersAndCountersAndRedactsSecrets() throws {
        let config = """
            { gateway: { auth: { mode: "token", token: "tok-123456" }, remote: { url: "wss://h:1", token: "${GW_TOKEN}" } },
              models: { providers: { a: { apiKey: { source: "file", provider: "vault", id: "/secret/path-1" } } } },
              agents: { defaults: { maxTokens: 100, contextTokens: 5 } },
              note: "-----BEGIN RSA PRIVATE KEY-----\\nabc\\n-----END RSA PRIVATE KEY-----",
              proxy: "http://user:pa55word@proxy:3128", plain: "sk-abcdefghijklmnop" }
            """
        let redaction = try #require(ConfigRedaction(config: Array(config.utf8)))
        #expect(!redaction.text.contains("tok-123456"))
        #expect(redaction.text.contains("${GW_TOKEN}"), "an env placeholder names a variable: kept")
        #expect(redaction.text.contains(#""mode" : "token""#))
        #expect(redaction.text.contains(#""source" : "file""#) && redaction.text.contains(#""provider" : "vault""#))
        #expect(!redaction.text.contains("/secret/path-1"))
        #expect(redaction.text.contains(#""maxTokens" : 100"#))
        for secret in ["PRIVATE KEY", "pa55word", "sk-abcdefghijklmnop"] { #expect(!redaction.text.contains(secret), "\(secret)") }
        #expect(
            Set(redaction.redactedPaths) == [
                "gateway.auth.token", "models.providers.a.apiKey.id", "note", "proxy", "plain",
            ], "\(redaction.redactedPaths)")
        #expect(ConfigRedaction(config: Array("not json {".utf8)) == nil)
        #expect(ConfigRedaction(config: [0xFF, 0xFE]) == nil)
    }

    @Test(arguments: [0, 1, 2])
    func scrubberFindsEveryForm(shift: Int) {
        let secret = "Planted-Secret-42"
        let scrubber = SecretScrubber(secrets: [secret, "abc"])
        let prefix = String(repeating: "x", count: shift)
        let base64 = Data((prefix + secret + "tail").utf8).base64EncodedString()
        let hex = secret.utf8.map { String($0, radix: 16) }.joined()
        let text = "a \(secret) b \(base64) c \(hex) d \(hex.uppercased()) e abc"
        let (clean, count) = scrubber.scrub(Array(text.utf8))
        let result = String(decoding: clean, as: UTF8.self)
        #expect(!result.contains(secret) && !result.contains(hex) && !result.contains(hex.uppercased()), "\(result)")
        #expect(count >= 4, "raw, base64, hex, HEX: \(result)")
        #expect(result.hasSuffix("e abc"), "secrets under the minimum length are not searched for")
    }

    @Test func scrubberRemovesPrivateKeyBlocksButNotCertificates() {
        let text =
            "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl\n-----END OPENSSH PRIVATE KEY-----\nafter"
        let (clean, count) = SecretScrubber(secrets: []).scrub(Array(text.utf8))
        let result = String(decoding: clean, as: UTF8.self)
        #expect(count == 1)
        #expect(result.contains("MIIC") && !result.contains("b3Bl") && result.hasSuffix("after"), "\(result)")
    }

    @Test func envFileValuesAreRedactedKeysKept() {
        let (text, keys, values) = ReportSources.redactedEnv("# c\nA=1\nB=\"two words\"\n\nC='x'\n")
        #expect(text == "# c\nA=[REDACTED]\nB=[REDACTED]\n\nC=[REDACTED]\n")
        #expect(keys == ["A", "B", "C"])
        #expect(values == ["1", "two words", "x"])
    }
}
