import Foundation
import Glibc
import TestSupport
import Testing

@testable import Host
@testable import Report

/// The report reads the env file OpenClaw loads: `.env` in OpenClaw's state folder
/// (OPENCLAW_STATE_DIR, else ~/.openclaw), wherever the config itself is; only the Gateway's
/// user's (or root's, when that user may read it), never through another user's link.
@Suite("clawnet report: the env file OpenClaw loads")
struct ReportEnvFileTests {
    let scratchFolder = ScratchFolder("report-env")

    func scratch() throws -> String {
        let root = try scratchFolder.make()
        try FileManager.default.createDirectory(atPath: "\(root)/state", withIntermediateDirectories: true)
        return root
    }

    @Test("OPENCLAW_STATE_DIR's .env is read and redacted, its value scrubbed, with the config named elsewhere")
    func stateDirectoryEnvFile() throws {
        let root = try scratch()
        let state = "\(root)/state"
        let secret = "ZqEnvFile\(UUID().uuidString.prefix(8))Sx7"
        try Data("OPENAI_API_KEY=\(secret)\n".utf8).write(to: URL(fileURLWithPath: "\(state)/.env"))
        try Data("{ gateway: { port: 18789 } }".utf8).write(to: URL(fileURLWithPath: "\(root)/elsewhere.json"))
        let sources = ReportSources.gather(
            home: "\(root)/home", configPath: "\(root)/elsewhere.json", environment: ["OPENCLAW_STATE_DIR": state])
        let env = try #require(sources.files.first { $0.name == "openclaw.env" }, "no env file in \(sources.files.map(\.name))")
        let text = String(decoding: env.content, as: UTF8.self)
        #expect(text.split(separator: "\n").filter { !$0.hasPrefix("#") } == ["OPENAI_API_KEY=[REDACTED]"], "\(text)")
        #expect(!text.contains(secret))
        #expect(sources.secrets.contains(secret), "the value is scrubbed from every other file too")
        #expect(sources.files.contains { $0.name == "openclaw.json" }, "the config named elsewhere is read")
    }

    @Test(
        "a Gateway user's .env that is a link to a file only root may read, or a hard link of it, is left out unread",
        .enabled(if: getuid() == 0, "giving files away needs root"), arguments: [true, false])
    func rootOnlyFile(symbolic: Bool) throws {
        let root = try scratch()
        let state = "\(root)/state"
        let secret = "ZqRootOnly\(UUID().uuidString.prefix(8))Sx7"
        let rootOnly = "\(root)/root-only"
        try Data("ROOT_SECRET=\(secret)\n".utf8).write(to: URL(fileURLWithPath: rootOnly))
        #expect(chmod(rootOnly, 0o600) == 0)
        #expect(symbolic ? symlink(rootOnly, "\(state)/.env") == 0 : link(rootOnly, "\(state)/.env") == 0)
        // The state folder (and a link in it) is nobody's: nobody is the Gateway's user here.
        #expect(chown(state, 65_534, 65_534) == 0)
        if symbolic { #expect(lchown("\(state)/.env", 65_534, 65_534) == 0) }
        let sources = ReportSources.gather(
            home: "\(root)/home", configPath: "\(root)/none.json", environment: ["OPENCLAW_STATE_DIR": state])
        #expect(sources.gatewayUser.uid == 65_534)
        #expect(!sources.files.contains { $0.name == "openclaw.env" }, "root's file must not be copied")
        #expect(!sources.secrets.contains(secret), "nor read for anything")
        let why = sources.omitted.first { $0.path == "\(state)/.env" }?.why ?? ""
        let expected = symbolic ? "is a symbolic link of uid 65534" : "is root's and uid 65534"
        #expect(why.contains(expected), "\(sources.omitted)")
    }

    @Test(
        "a .env that is a third user's link is not followed, even to a file the Gateway's user may read",
        .enabled(if: getuid() == 0, "giving files away needs root"))
    func thirdUsersLink() throws {
        let root = try scratch()
        let state = "\(root)/state"
        let target = "\(root)/target"
        try Data("PLANTED=ZqPlanted\(UUID().uuidString.prefix(8))\n".utf8).write(to: URL(fileURLWithPath: target))
        #expect(symlink(target, "\(state)/.env") == 0)
        #expect(lchown("\(state)/.env", 65_534, 65_534) == 0, "the folder stays root's: root is the Gateway's user")
        let sources = ReportSources.gather(
            home: "\(root)/home", configPath: "\(root)/none.json", environment: ["OPENCLAW_STATE_DIR": state])
        #expect(!sources.files.contains { $0.name == "openclaw.env" })
        let why = sources.omitted.first { $0.path == "\(state)/.env" }?.why ?? ""
        #expect(why.contains("is a symbolic link of uid 65534"), "\(sources.omitted)")
    }

    @Test(
        "a config of a third user (not the Gateway's, not root's) is left out of the archive, unread",
        .enabled(if: getuid() == 0, "giving a file away needs root"))
    func thirdUsersConfig() throws {
        let root = try scratch()
        let secret = "ZqThirdConfig\(UUID().uuidString.prefix(8))Sx7"
        let config = #"{ gateway: { auth: { token: "\#(secret)" } }, note: "planted" }"#
        try Data(config.utf8).write(to: URL(fileURLWithPath: "\(root)/other.json"))
        #expect(chown("\(root)/other.json", 65_534, 65_534) == 0)
        let sources = ReportSources.gather(
            home: "\(root)/home", configPath: "\(root)/other.json", environment: ["OPENCLAW_STATE_DIR": "\(root)/state"])
        #expect(!sources.files.contains { $0.name == "openclaw.json" }, "\(sources.files.map(\.name))")
        #expect(!sources.secrets.contains(secret))
        let why = sources.omitted.first { $0.path == "\(root)/other.json" }?.why ?? ""
        #expect(why.contains("belongs to uid 65534") && why.contains("not to the Gateway's user"), "\(sources.omitted)")
    }
}
