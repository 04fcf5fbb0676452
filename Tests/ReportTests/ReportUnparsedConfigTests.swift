import Foundation
import TestSupport
import Testing

@testable import Host
@testable import Report

/// A config that does not parse still gives up the values under its secrets' keys, which are
/// scrubbed from the Gateway's log; when the pass cannot be sure it found them all, the log and
/// journal are left out and the report says it is not complete. The config is never copied.
@Suite("clawnet report: a config that does not parse")
struct ReportUnparsedConfigTests {
    let scratchFolder = ScratchFolder("report-unparsed")

    /// The sources of a config with `text`, and a Gateway log holding `log`.
    func sources(config text: String, log: String) throws -> ReportSources {
        let root = try scratchFolder.make()
        try Data(text.utf8).write(to: URL(fileURLWithPath: "\(root)/openclaw.json"))
        try FileManager.default.createDirectory(atPath: "\(root)/logs", withIntermediateDirectories: true)
        try Data(log.utf8).write(to: URL(fileURLWithPath: "\(root)/logs/openclaw-2026-11-29.log"))
        var sources = ReportSources()
        sources.config("\(root)/openclaw.json")
        sources.gatewayLog(folder: "\(root)/logs")
        return sources
    }

    func scrubbed(_ sources: ReportSources, _ file: String) -> String? {
        sources.files.first { $0.name == file }.map {
            String(decoding: SecretScrubber(secrets: sources.secrets).scrub($0.content), as: UTF8.self)
        }
    }

    @Test("a missing comma: token and apiKey are still found and scrubbed from the log, which is kept")
    func missingComma() throws {
        let config =
            #"{ gateway: { auth: { token: "W1tokenvalue1" } } models: { p: { apiKey: 'W2apikeyvalue2', url: "https://x.example" } } }"#
        let sources = try sources(config: config, log: "auth W1tokenvalue1 key \"W2apikeyvalue2\" url https://x.example\n")
        #expect(sources.unsure.isEmpty, "\(sources.unsure)")
        #expect(scrubbed(sources, "gateway-log.txt") == "auth [REDACTED] key \"[REDACTED]\" url https://x.example\n")
        #expect(!sources.files.contains { $0.name == "openclaw.json" }, "the config is never copied: \(sources.files.map(\.name))")
        #expect(sources.omitted.contains { $0.path.hasSuffix("openclaw.json") && $0.why.contains("left out whole") }, "\(sources.omitted)")
    }

    @Test("numbers, env maps, SecretRef ids and URLs with a password are found as in a config that parses")
    func everyPlace() throws {
        let config = """
            { hooks: { token: 12300000000000000 }, env: { vars: { SMTP_PASS: "W3smtppassword" }, OPENCLAW_LOG_LEVEL: "debug" },
              x: { apiKey: { source: "env", id: "W4SECRETREF_ID" } }, remote: { url: "wss://u:W5urlpassword@gw.example" },
              pass\\u0077ord: "W6escapedkey", bind: lan mode }
            """
        let lexical = ConfigLexicalSecrets(Array(config.utf8))
        let expected: Set = ["12300000000000000", "W3smtppassword", "W4SECRETREF_ID", "wss://u:W5urlpassword@gw.example", "W6escapedkey"]
        #expect(expected.isSubset(of: lexical.secrets), "\(lexical.secrets)")
        #expect(!lexical.secrets.contains("debug") && !lexical.secrets.contains("lan"), "\(lexical.secrets)")
        #expect(lexical.doubt != nil, "a key without its colon (`mode`) leaves the shape in doubt")
    }

    @Test(
        "a text whose shape is in doubt: every value is searched for, and the Gateway's log is left out",
        arguments: [
            #"{ gateway: { auth: { token: "W1tokenvalue1" } }, models: { apiKey: "W2apikeyvalue2" }"#,
            #"{ gateway: { auth: { token: "W1tokenvalue1 } }, other: "W2apikeyvalue2" }"#,
            #"{ a: 1 } ] { other: "W2apikeyvalue2", token: "W1tokenvalue1" }"#,
            #"{ "$include": "./more.json5", token: "W1tokenvalue1", x: "W2apikeyvalue2" /* never ends"#,
        ])
    func inDoubt(config: String) throws {
        let sources = try sources(config: config, log: "W1tokenvalue1 W2apikeyvalue2\n")
        #expect(!sources.unsure.isEmpty, "\(config)")
        #expect(!sources.secrets.contains("gateway"), "keys name settings; they are not searched for: \(sources.secrets)")
        #expect(!sources.files.contains { $0.name == "gateway-log.txt" }, "\(sources.files.map(\.name))")
        #expect(sources.omitted.contains { $0.path == "gateway log" && $0.why == ReportSources.unsureWhy }, "\(sources.omitted)")
        let scrubber = SecretScrubber(secrets: sources.secrets)
        #expect(String(decoding: scrubber.scrub(Array("W1tokenvalue1 W2apikeyvalue2".utf8)), as: UTF8.self) == "[REDACTED] [REDACTED]")
    }
}
