import Foundation
import Glibc
import TestSupport
import Testing

@testable import Host
@testable import Report

/// The report reads the config OpenClaw reads: the same file (OPENCLAW_CONFIG_PATH, the state
/// folder, a profile's), its `$include`s, its keys as JSON5.parse reads them, and the credential
/// stores beside it; every secret there is scrubbed from the Gateway's log.
@Suite("clawnet report: the config as OpenClaw reads it")
struct ReportConfigSourcesTests {
    let scratchFolder = ScratchFolder("report-config")

    @Test("a key given twice: the last value is the one redacted and scrubbed")
    func duplicateKeysLastWins() throws {
        let config = #"{gateway:{auth:{token:"DUPFIRST1xyz"}}, gateway:{auth:{token:"DUPSECOND1xyz"}}}"#
        let redaction = try #require(ConfigRedaction(config: Array(config.utf8)))
        #expect(redaction.secrets.contains("DUPSECOND1xyz"), "\(redaction.secrets)")
        #expect(!redaction.text.contains("DUPSECOND1xyz") && !redaction.text.contains("DUPFIRST1xyz"), "\(redaction.text)")
        #expect(ReportSources.words(of: Array(config.utf8)).contains("DUPSECOND1xyz"))
    }
}

extension ReportConfigSourcesTests {
    func scratch() throws -> String {
        let root = try scratchFolder.make()
        try FileManager.default.createDirectory(atPath: "\(root)/home/.openclaw", withIntermediateDirectories: true)
        return root
    }

    func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func scrubbed(_ line: String, _ sources: ReportSources) -> String {
        String(decoding: SecretScrubber(secrets: sources.secrets).scrub(Array(line.utf8)), as: UTF8.self)
    }

    @Test("$include is followed as OpenClaw follows it: the included token and env value are redacted and scrubbed from the log")
    func includedSecrets() throws {
        let root = try scratch()
        let folder = "\(root)/home/.openclaw"
        try write(#"{ "$include": "./secrets.json5", gateway: { port: 18789 } }"#, "\(folder)/openclaw.json")
        try write(
            #"{ gateway:{auth:{token:"INCLUDEDTOKEN123"}}, env:{vars:{PLAIN:"INCLUDEDENVVAR"}} }"#, "\(folder)/secrets.json5")
        let environment = ["HOME": "\(root)/home"]
        let sources = ReportSources.gather(
            home: "\(root)/home", configPath: OpenClawConfig.defaultPath(environment: environment), environment: environment)
        let config = try #require(sources.files.first { $0.name == "openclaw.json" }, "\(sources.files.map(\.name))")
        let text = String(decoding: config.content, as: UTF8.self)
        #expect(!text.contains("INCLUDEDTOKEN123") && !text.contains("INCLUDEDENVVAR") && text.contains("18789"), "\(text)")
        let redacted = sources.redactions.first { $0.file == "openclaw.json" }?.what ?? []
        #expect(Set(redacted).isSuperset(of: ["gateway.auth.token", "env.vars.PLAIN"]), "\(redacted)")
        #expect(scrubbed("tok INCLUDEDTOKEN123 env INCLUDEDENVVAR", sources) == "tok [REDACTED] env [REDACTED]")
        #expect(sources.omitted.contains { $0.path == "\(folder)/secrets.json5" && $0.why.contains("merged") }, "\(sources.omitted)")
    }

    @Test("includes merge as OpenClaw's deepMerge does, nest, and never leave the config's folder or go round in a circle")
    func includeRules() throws {
        let root = try scratch()
        let folder = "\(root)/home/.openclaw"
        try write(
            #"{ a: { "$include": ["one.json5", "sub/two.json5"], keep: 1 }, b: { "$include": "../../outside.json5" } }"#, "\(folder)/c.json"
        )
        try write(#"{ list: [1], name: "ONE", deep: { x: 1 } }"#, "\(folder)/one.json5")
        try write(#"{ list: [2], name: "TWO", deep: { y: 2 }, "$include": "./three.json5" }"#, "\(folder)/sub/two.json5")
        try write(#"{ circle: { "$include": "../c.json" } }"#, "\(folder)/sub/three.json5")
        try write(#"{ secret: "OUTSIDE" }"#, "\(root)/outside.json5")
        var read: [String] = []
        var includes = ConfigIncludes(config: "\(folder)/c.json") { path in
            read.append(path)
            return (try? Data(contentsOf: URL(fileURLWithPath: path))).map { .success(Array($0)) } ?? .failure(.init(why: "missing"))
        }
        let parsed = try JSONValue.parse(json5: Data(contentsOf: URL(fileURLWithPath: "\(folder)/c.json")))
        let merged = includes.resolve(parsed, from: "\(folder)/c.json")
        #expect(merged["a", "list"] == .array([.number(1), .number(2)]), "\(merged)")
        #expect(merged["a", "name"] == .string("TWO") && merged["a", "keep"] == .number(1))
        #expect(merged["a", "deep"] == .object(["x": .number(1), "y": .number(2)]))
        #expect(merged["b"] == .object([:]), "the file outside the folder is not read")
        #expect(!read.contains("\(root)/outside.json5") && !read.contains("\(folder)/c.json"), "\(read)")
        let problems = includes.problems.map(\.why).joined(separator: "; ")
        #expect(problems.contains("outside the config's folder") && problems.contains("circle"), "\(problems)")
    }

    @Test("the config OpenClaw reads: OPENCLAW_CONFIG_PATH, then OPENCLAW_STATE_DIR's, then a profile's, then ~/.openclaw's")
    func configPathPrecedence() throws {
        let home = ["HOME": "/home/a"]
        #expect(OpenClawConfig.defaultPath(environment: home) == "/home/a/.openclaw/openclaw.json")
        #expect(
            OpenClawConfig.defaultPath(environment: home.merging(["OPENCLAW_PROFILE": "work"]) { $1 })
                == "/home/a/.openclaw-work/openclaw.json")
        let state = home.merging(["OPENCLAW_PROFILE": "work", "OPENCLAW_STATE_DIR": "/srv/oc"]) { $1 }
        #expect(OpenClawConfig.defaultPath(environment: state) == "/srv/oc/openclaw.json")
        let named = state.merging(["OPENCLAW_CONFIG_PATH": "~/cfg/main.json5"]) { $1 }
        #expect(OpenClawConfig.defaultPath(environment: named) == "/home/a/cfg/main.json5")
        #expect(OpenClawConfig.defaultPath(environment: [:]) == "/root/.openclaw/openclaw.json")
    }

    @Test(
        "the state folder's config is the one read and scrubbed, not ~/.openclaw's",
        arguments: ["OPENCLAW_STATE_DIR", "OPENCLAW_CONFIG_PATH"])
    func stateFolderConfigIsRead(variable: String) throws {
        let root = try scratch()
        try write(#"{ gateway: { auth: { token: "HOMETOKEN1234" } } }"#, "\(root)/home/.openclaw/openclaw.json")
        try write(#"{ gateway: { auth: { token: "STATETOKEN1234" } } }"#, "\(root)/state/openclaw.json")
        let value = variable == "OPENCLAW_STATE_DIR" ? "\(root)/state" : "\(root)/state/openclaw.json"
        let environment = ["HOME": "\(root)/home", variable: value]
        let config = OpenClawConfig.load(environment: environment)
        #expect(config.path == "\(root)/state/openclaw.json" && config.exists, "\(config.path)")
        let sources = ReportSources.gather(home: "\(root)/home", configPath: config.path, environment: environment)
        #expect(scrubbed("tok STATETOKEN1234", sources) == "tok [REDACTED]", "\(sources.secrets)")
    }

    @Test("API keys of OpenClaw's credential stores are scrubbed, the files never archived")
    func credentialStores() throws {
        let root = try scratch()
        let folder = "\(root)/home/.openclaw"
        let profiles = #"{ "version": 1, "profiles": { "anthropic:default": { "type": "api_key", "key": "sk-ant-PROFILEKEY99" } } }"#
        try write(profiles, "\(folder)/agents/main/agent/auth-profiles.json")
        try write(#"{ "creds": { "noiseKey": { "private": "WHATSAPPNOISE77" } } }"#, "\(folder)/credentials/whatsapp/acc1/creds.json")
        let sources = ReportSources.gather(
            home: "\(root)/home", configPath: "\(folder)/openclaw.json", environment: ["HOME": "\(root)/home"])
        #expect(scrubbed("key sk-ant-PROFILEKEY99 noise WHATSAPPNOISE77", sources) == "key [REDACTED] noise [REDACTED]")
        #expect(!sources.files.contains { $0.name.contains("creds") || $0.name.contains("auth-profiles") })
        for path in ["\(folder)/agents/main/agent/auth-profiles.json", "\(folder)/credentials/whatsapp/acc1/creds.json"] {
            #expect(sources.omitted.contains { $0.path == path && $0.why.contains("never included") }, "\(path): \(sources.omitted)")
        }
    }
}

extension ReportConfigSourcesTests {
    @Test("a short secret that is no word and no number (what a dotenv # leaves) is searched for; short words and numbers are not")
    func shortSecrets() {
        let env = ReportEnvFile("HASH=S9abc#def\nMODE=true\n")
        #expect(env.secrets.contains("S9abc"), "\(env.secrets)")
        let scrubber = SecretScrubber(secrets: env.secrets.union(["info", "1234", "v1", "PIN5"]))
        let line = "h S9abc true info 1234 v1 PIN5 S9abcd"
        #expect(
            String(decoding: scrubber.scrub(Array(line.utf8)), as: UTF8.self) == "h [REDACTED] true info 1234 v1 [REDACTED] [REDACTED]d")
        #expect(!SecretScrubber.searches("true") && !SecretScrubber.searches("12345") && SecretScrubber.searches("ab-1"))
    }

    @Test("a number in an env map is redacted and searched for as OpenClaw sets it; counters elsewhere stay")
    func numericEnvValues() throws {
        let config = "{ env: { PORTPIN: 98765432, vars: { RATIO: 1.5, OPENCLAW_GATEWAY_PORT: 18789 } }, agents: { maxTokens: 4096 } }"
        let redaction = try #require(ConfigRedaction(config: Array(config.utf8)))
        #expect(!redaction.text.contains("98765432") && !redaction.text.contains("1.5"), "\(redaction.text)")
        #expect(redaction.text.contains("18789") && redaction.text.contains("4096"), "\(redaction.text)")
        #expect(redaction.secrets.isSuperset(of: ["98765432", "1.5"]), "\(redaction.secrets)")
        #expect(Set(redaction.redactedPaths) == ["env.PORTPIN", "env.vars.RATIO"], "\(redaction.redactedPaths)")
    }
}
