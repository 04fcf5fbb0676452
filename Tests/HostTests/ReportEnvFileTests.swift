import Foundation
import Testing

@testable import Host

/// The report reads the env file OpenClaw loads: `.env` in OpenClaw's state folder
/// (OPENCLAW_STATE_DIR, else ~/.openclaw), wherever the config itself is.
@Suite("clawnet report: the env file OpenClaw loads")
struct ReportEnvFileTests {
    @Test("OPENCLAW_STATE_DIR's .env is read and redacted, its value scrubbed, with the config named elsewhere")
    func stateDirectoryEnvFile() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("report-env-\(UUID().uuidString)").path
        let state = "\(root)/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let secret = "ZqEnvFile\(UUID().uuidString.prefix(8))Sx7"
        try Data("OPENAI_API_KEY=\(secret)\n".utf8).write(to: URL(fileURLWithPath: "\(state)/.env"))
        try Data("{ gateway: { port: 18789 } }".utf8).write(to: URL(fileURLWithPath: "\(root)/elsewhere.json"))
        let sources = ReportSources.gather(
            home: "\(root)/home", configPath: "\(root)/elsewhere.json", environment: ["OPENCLAW_STATE_DIR": state])
        let env = try #require(sources.files.first { $0.name == "openclaw.env" }, "no env file in \(sources.files.map(\.name))")
        #expect(String(decoding: env.content, as: UTF8.self) == "OPENAI_API_KEY=[REDACTED]\n")
        #expect(sources.secrets.contains(secret), "the value is scrubbed from every other file too")
        #expect(sources.files.contains { $0.name == "openclaw.json" }, "the config named elsewhere is read")
    }
}
