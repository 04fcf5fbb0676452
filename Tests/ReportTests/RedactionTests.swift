import FoundationEssentials
import Testing

@testable import Host
@testable import Report

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
        let result = String(decoding: scrubber.scrub(Array(text.utf8)), as: UTF8.self)
        #expect(!result.contains(secret) && !result.contains(hex) && !result.contains(hex.uppercased()), "\(result)")
        #expect(result.ranges(of: "[REDACTED]").count >= 4, "raw, base64, hex, HEX: \(result)")
        #expect(result.hasSuffix("e abc"), "secrets under the minimum length are not searched for")
    }

    @Test("a secret is found percent-encoded (either hex case, + for space) and JSON-escaped (plain, \\/, \\u, twice)")
    func scrubberFindsURLAndJSONForms() {
        let secret = "p@ss w/rd\"ü&<x>\\"
        let forms = [
            "p%40ss%20w%2Frd%22%C3%BC%26%3Cx%3E%5C", "p%40ss%20w%2frd%22%c3%bc%26%3cx%3e%5c", "p%40ss+w%2Frd%22%C3%BC%26%3Cx%3E%5C",
            #"p@ss w/rd\"ü&<x>\\"#, #"p@ss w\/rd\"ü&<x>\\"#, #"p@ss w/rd\"\u00fc&<x>\\"#, #"p@ss w/rd\"ü\u0026\u003cx\u003e\\"#,
            #"p@ss w/rd\\\"ü&<x>\\\\"#,
        ]
        let scrubber = SecretScrubber(secrets: [secret])
        for form in forms {
            let result = String(decoding: scrubber.scrub(Array("log: \(form) end".utf8)), as: UTF8.self)
            #expect(result == "log: [REDACTED] end", "\(form) -> \(result)")
        }
    }

    @Test("a value of several lines is found whole, line by line, and as its base64 body (a PEM key's)")
    func scrubberFindsLinesOfAValue() {
        let key = "-----BEGIN RSA KEY-----\nMIIEpQIBAAKCAQEA1\nZZ9xPlantedLine2\n-----END RSA KEY-----"
        let scrubber = SecretScrubber(secrets: [key])
        let logged = "line MIIEpQIBAAKCAQEA1 and ZZ9xPlantedLine2 and MIIEpQIBAAKCAQEA1ZZ9xPlantedLine2"
        let result = String(decoding: scrubber.scrub(Array(logged.utf8)), as: UTF8.self)
        #expect(result == "line [REDACTED] and [REDACTED] and [REDACTED]", "\(result)")
    }

    @Test func scrubberRemovesPrivateKeyBlocksButNotCertificates() {
        let text =
            "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl\n-----END OPENSSH PRIVATE KEY-----\nafter"
        let result = String(decoding: SecretScrubber(secrets: []).scrub(Array(text.utf8)), as: UTF8.self)
        #expect(result.ranges(of: "[REDACTED]").count == 1, "one block: \(result)")
        #expect(result.contains("MIIC") && !result.contains("b3Bl") && result.hasSuffix("after"), "\(result)")
    }

    @Test("every value of every env map is a secret whatever its name; plain settings are shown; other keys judged as before")
    func envMapsAreSecretsByPlace() throws {
        let config = """
            { env: { SMTP_PASS: "smtp-Zq1", vars: { MYSQL_PWD: "mysql-Zq2", IMAP_PASS: "imap-Zq3", OPENCLAW_LOG_LEVEL: "debug",
                                                     GW: "${GATEWAY_TOKEN}" },
                     shellEnv: { enabled: true, timeoutMs: 15000 } },
              skills: { entries: { linear: { env: { LINEAR_API: "lin-Zq4", OPENCLAW_DISABLE_BONJOUR: "1" } } } },
              agents: { defaults: { sandbox: { docker: { env: { SENTRY_DSN: "https://k3y@o1.ingest.sentry.io/2" } } } } },
              secrets: { providers: { vault: { source: "exec", command: "/bin/v", env: { VAULT_ROLE: "role-Zq5" } } } },
              models: { providers: { a: { baseUrl: "https://a.example", headers: { "X-Org": "org-Zq6" } } } },
              gateway: { port: 18789, bind: "lan" } }
            """
        let redaction = try #require(ConfigRedaction(config: Array(config.utf8)))
        for secret in ["smtp-Zq1", "mysql-Zq2", "imap-Zq3", "lin-Zq4", "k3y@o1.ingest", "role-Zq5", "org-Zq6"] {
            #expect(!redaction.text.contains(secret), "\(secret) in \(redaction.text)")
        }
        #expect(
            Set(redaction.redactedPaths).isSuperset(of: [
                "env.SMTP_PASS", "env.vars.MYSQL_PWD", "env.vars.IMAP_PASS", "skills.entries.linear.env.LINEAR_API",
                "agents.defaults.sandbox.docker.env.SENTRY_DSN", "secrets.providers.vault.env.VAULT_ROLE",
                "models.providers.a.headers.X-Org",
            ]), "\(redaction.redactedPaths)")
        #expect(!redaction.redactedPaths.contains { $0.hasPrefix("gateway.") || $0.contains("shellEnv") }, "\(redaction.redactedPaths)")
        #expect(Set(redaction.shownPaths) == ["env.vars.OPENCLAW_LOG_LEVEL", "skills.entries.linear.env.OPENCLAW_DISABLE_BONJOUR"])
        for kept in [
            #""OPENCLAW_LOG_LEVEL" : "debug""#, #""OPENCLAW_DISABLE_BONJOUR" : "1""#, "${GATEWAY_TOKEN}", #""timeoutMs" : 15000"#,
            #""bind" : "lan""#, #""baseUrl" : "https://a.example""#,
        ] {
            #expect(redaction.text.contains(kept), "\(kept) in \(redaction.text)")
        }
        #expect(redaction.secrets.isSuperset(of: ["smtp-Zq1", "mysql-Zq2", "lin-Zq4", "https://k3y@o1.ingest.sentry.io/2"]))
    }

    @Test("the env file: each variable as dotenv reads it, every value redacted but plain settings, comments left out")
    func envFileValuesAreRedactedKeysKept() {
        let content =
            "# c OLD_TOKEN=sk-old\r\nexport A = one # note\r\nB=\"two words\"\r\n\r\nC='x'\r\nOPENCLAW_LOG_LEVEL=debug\r\n"
            + "PEM=\"-----BEGIN PRIVATE KEY-----\nMIIEbodyLine1\n-----END PRIVATE KEY-----\"\n"
        let env = ReportEnvFile(content)
        let lines = env.text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines == ["A=[REDACTED]", "B=[REDACTED]", "C=[REDACTED]", "OPENCLAW_LOG_LEVEL=debug", "PEM=[REDACTED]"], "\(env.text)")
        #expect(!env.text.contains("sk-old") && !env.text.contains("MIIEbodyLine1"), "\(env.text)")
        #expect(env.redacted == ["A", "B", "C", "PEM"])
        #expect(env.shown == ["OPENCLAW_LOG_LEVEL"])
        #expect(env.secrets == ["one", "two words", "x", "-----BEGIN PRIVATE KEY-----\nMIIEbodyLine1\n-----END PRIVATE KEY-----"])
    }

    @Test("JSON5's NaN, Infinity and -Infinity stay values in the redacted config, as JSON5 writes them; a string \"NaN\" stays one")
    func nonFiniteNumbersStay() throws {
        let config = #"{ gateway: { port: 18789 }, limits: { a: NaN, b: +Infinity, c: -Infinity, d: Infinity }, s: "NaN" }"#
        let redaction = try #require(ConfigRedaction(config: Array(config.utf8)))
        let text = redaction.text
        #expect(text.contains(#""a" : NaN"#) && text.contains(#""b" : Infinity"#), "\(text)")
        #expect(text.contains(#""c" : -Infinity"#) && text.contains(#""d" : Infinity"#), "\(text)")
        #expect(text.contains(#""s" : "NaN""#) && text.contains(#""port" : 18789"#), "\(text)")
        #expect(!text.contains("\u{F8FF}"), "no marker left: \(text)")
        let again = try JSONValue.parse(json5: Data(text.utf8))
        guard case .number(let nan) = again["limits", "a"], case .number(let minus) = again["limits", "c"] else {
            Issue.record("not read back as numbers: \(again)")
            return
        }
        #expect(nan.isNaN && minus == -.infinity, "the text reads back as the same values")
    }
}
