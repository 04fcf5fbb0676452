import DNSSD
import Foundation
import Glibc
import Testing

@testable import Host

/// Issue 18: a config another user wrote (or can change) names where a token goes; running as
/// root, clawnet must not send root's token (its environment's) where that user says.
@Suite("A config another user controls steers no credentials", .enabled(if: geteuid() == 0))
struct ForeignConfigTests {
    static let text = "{ gateway: { mode: 'remote', remote: { url: 'ws://10.66.6.6:18789', token: { source: 'env', id: 'ROOT_TOKEN' } } } }"
    static let environment = ["ROOT_TOKEN": "root-secret", "OPENCLAW_GATEWAY_TOKEN": "root-env-secret"]

    /// The config at a new path with `owner` and `mode`, loaded with the environment above.
    func load(owner: uid_t, mode: mode_t, environment: [String: String] = environment) throws -> OpenClawConfig {
        let directory = NSTemporaryDirectory() + "config-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/openclaw.json"
        try Self.text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chown(path, owner, owner) == 0 && chmod(path, mode) == 0)
        return OpenClawConfig.load(explicitPath: path, environment: environment)
    }

    @Test(
        "nobody's config, or one others can write: no token (env SecretRef, OPENCLAW_GATEWAY_TOKEN), a warning naming file and owner",
        arguments: [(uid_t(65534), mode_t(0o600), "belongs to uid 65534"), (0, 0o666, "writable by group or others")])
    func withheld(owner: uid_t, mode: mode_t, reason: String) throws {
        for environment in [Self.environment, ["ROOT_TOKEN": "root-secret"]] {
            let config = try load(owner: owner, mode: mode, environment: environment)
            #expect(config.node.token == nil, "\(environment.keys.sorted())")
            #expect(config.node.remoteURL?.host == "10.66.6.6", "the rest of the config is still read")
            let warning = config.warnings.first { $0.contains(reason) }
            #expect(warning?.contains("openclaw.json") == true && warning?.contains("is sent nowhere") == true, "\(config.warnings)")
            #expect(!config.warnings.joined().contains("root-secret") && !config.warnings.joined().contains("root-env-secret"))
        }
    }

    @Test("this user's (root's) config, writable only by it: the token is used, no warning")
    func trusted() throws {
        let config = try load(owner: 0, mode: 0o644)
        #expect(config.node.token?.forConnectRequest == "root-env-secret", "OPENCLAW_GATEWAY_TOKEN first")
        #expect(config.warnings.isEmpty, "\(config.warnings)")
    }
}
