import DNSSD
import Foundation
import Glibc
import Testing

@testable import Host

/// doctor, preflight and watch read the config as OpenClaw does, `$include`s merged
/// (`ConfigIncludes`, the reader report uses): a node whose gateway.remote.* sits in an included
/// file is diagnosed by what OpenClaw would connect to. Real files in a scratch folder.
@Suite("The config's $include, as doctor, preflight and watch read it")
struct ConfigIncludeTests {
    static let pin = "SHA256:" + String(repeating: "AB:", count: 31) + "AB"

    func scratch() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("config-include-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: "\(root)/.openclaw/parts", withIntermediateDirectories: true)
        return root
    }

    func write(_ text: String, _ path: String, mode: mode_t = 0o600) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
    }

    @Test("gateway.remote.url, tlsFingerprint and token from an included file are the ones the node uses")
    func remoteFromInclude() throws {
        let root = try scratch()
        let config = "\(root)/.openclaw/openclaw.json"
        try write(#"{ gateway: { mode: "remote", "$include": "./parts/remote.json5" } }"#, config)
        try write(
            #"{ remote: { url: "wss://gw.openclaw.internal:18789", tlsFingerprint: "PIN", token: "inc-Tok3n" } }"#
                .replacing("PIN", with: Self.pin), "\(root)/.openclaw/parts/remote.json5")
        let read = OpenClawConfig.load(explicitPath: config, environment: ["HOME": root])
        #expect(read.warnings.isEmpty, "\(read.warnings)")
        #expect(read.node.isRemote && read.node.remoteURL?.host == "gw.openclaw.internal", "\(String(describing: read.node.remoteURL))")
        #expect(read.node.remoteTLSFingerprint?.hex == String(repeating: "ab", count: 32))
        #expect(read.node.token?.forConnectRequest == "inc-Tok3n")
        #expect(read.includedFiles == ["\(root)/.openclaw/parts/remote.json5"])
    }

    @Test("the default path OpenClaw reads (OPENCLAW_CONFIG_PATH, the state folder) is followed into its includes too")
    func defaultPathIncludes() throws {
        let root = try scratch()
        try FileManager.default.createDirectory(atPath: "\(root)/state", withIntermediateDirectories: true)
        try write(#"{ "$include": "net.json5", gateway: { mode: "remote" } }"#, "\(root)/state/openclaw.json")
        try write(#"{ gateway: { remote: { url: "wss://state.example:18789" } } }"#, "\(root)/state/net.json5")
        let read = OpenClawConfig.load(environment: ["HOME": root, "OPENCLAW_STATE_DIR": "\(root)/state"])
        #expect(read.path == "\(root)/state/openclaw.json" && read.warnings.isEmpty, "\(read.path) \(read.warnings)")
        #expect(read.node.remoteURL?.host == "state.example")
    }

    @Test("the including object's own keys win over the included file's, a key given twice its last value")
    func precedence() throws {
        let root = try scratch()
        let config = "\(root)/.openclaw/openclaw.json"
        try write(#"{ gateway: { "$include": "parts/port.json5", port: 18000, port: 18790, bind: "lan" } }"#, config)
        try write(#"{ port: 19999, tls: { enabled: true }, bind: "tailnet" }"#, "\(root)/.openclaw/parts/port.json5")
        let read = OpenClawConfig.load(explicitPath: config, environment: ["HOME": root])
        #expect(read.warnings.isEmpty, "\(read.warnings)")
        #expect(read.gatewayPort == 18790 && read.tlsEnabled == true && read.bind == .lan, "\(read)")
    }

    @Test("a missing include, one outside the config's folder, a circle and one that is not JSON5 are each named")
    func problems() throws {
        let root = try scratch()
        let config = "\(root)/.openclaw/openclaw.json"
        try write(
            #"{ a: { "$include": "gone.json5" }, b: { "$include": "../outside.json5" }, c: { "$include": "parts/loop.json5" }, "#
                + #"d: { "$include": "parts/bad.json5" }, gateway: { port: 18001 } }"#, config)
        try write(#"{ gateway: { port: 1 } }"#, "\(root)/outside.json5")
        try write(#"{ again: { "$include": "../openclaw.json" } }"#, "\(root)/.openclaw/parts/loop.json5")
        try write("{ not json5", "\(root)/.openclaw/parts/bad.json5")
        let read = OpenClawConfig.load(explicitPath: config, environment: ["HOME": root])
        let words = read.warnings.joined(separator: "\n")
        #expect(words.contains("gone.json5") && words.contains("missing"), "\(words)")
        #expect(words.contains("outside the config's folder") && words.contains("circle"), "\(words)")
        #expect(words.contains("bad.json5, included by") && words.contains("not valid JSON5"), "\(words)")
        #expect(read.gatewayPort == 18001, "what could be read is still used")
    }

    @Test("an included file others can write steers the token as the config would: the token is withheld")
    func foreignInclude() throws {
        let root = try scratch()
        let config = "\(root)/.openclaw/openclaw.json"
        try write(#"{ gateway: { mode: "remote", remote: { token: "keep-Me1" }, "$include": "parts/url.json5" } }"#, config)
        try write(#"{ remote: { url: "wss://elsewhere.example:18789" } }"#, "\(root)/.openclaw/parts/url.json5", mode: 0o666)
        let read = OpenClawConfig.load(explicitPath: config, environment: ["HOME": root])
        #expect(read.node.token == nil, "the token goes nowhere an included file others can write names")
        #expect(read.node.untrustedConfig?.contains("parts/url.json5") == true, "\(String(describing: read.node.untrustedConfig))")
        #expect(read.warnings.contains { $0.contains("chmod go-w") && $0.contains("parts/url.json5") }, "\(read.warnings)")
    }
}
