import Foundation
import TestSupport
import Testing

@testable import Host
@testable import Report

/// Secrets where the earlier report missed them: a number under a secret's key, the credentials
/// inside a URL, a token written in another case, the first of a key given twice, and the env
/// files OpenClaw loads besides its state folder's .env.
@Suite("clawnet report: every place a secret sits")
struct ReportSecretPlacesTests {
    let scratchFolder = ScratchFolder("report-places")

    func scrub(_ secrets: some Sequence<String>, _ text: String) -> String {
        String(decoding: SecretScrubber(secrets: secrets).scrub(Array(text.utf8)), as: UTF8.self)
    }

    @Test("a number or a boolean under a secret's key is redacted, and the number is searched for as OpenClaw writes it")
    func scalarsUnderSecretKeys() throws {
        let config = #"{ hooks: { token: 12300000000000000, enabled: true }, gateway: { auth: { password: 98765432.5 }, port: 18789 } }"#
        let redaction = try #require(ConfigRedaction(config: Array(config.utf8)))
        #expect(!redaction.text.contains("123") && !redaction.text.contains("98765"), "\(redaction.text)")
        #expect(redaction.text.contains("18789") && redaction.text.contains("true"), "\(redaction.text)")
        #expect(Set(redaction.redactedPaths) == ["hooks.token", "gateway.auth.password"], "\(redaction.redactedPaths)")
        #expect(scrub(redaction.secrets, "token=12300000000000000 pw=98765432.5") == "token=[REDACTED] pw=[REDACTED]")
    }

    @Test(
        "numbers as JavaScript's String(n) writes them",
        arguments: [
            (12_300_000_000_000_000, "12300000000000000"), (1e21, "1e+21"), (1.5e-7, "1.5e-7"), (0.000001, "0.000001"),
            (-98765432.5, "-98765432.5"), (123, "123"), (1.234_567_890_123_456_7e19, "12345678901234567000"), (0.1, "0.1"),
        ])
    func javaScriptNumbers(number: Double, text: String) {
        #expect(JavaScriptNumber.text(number) == text)
    }

    @Test("the password and the token inside a URL are secrets on their own, percent-decoded too")
    func urlCredentials() {
        let secrets = [
            "https://user:S9urlpass%21word@host.example/x?v=1&token=S33tokenvalue#frag", "https://SENTRYKEY123@o1.ingest.example/2",
        ]
        let text = "pw S9urlpass%21word or S9urlpass!word, token S33tokenvalue, dsn SENTRYKEY123, v=1"
        #expect(scrub(secrets, text) == "pw [REDACTED] or [REDACTED], token [REDACTED], dsn [REDACTED], v=1")
    }

    @Test("a secret of 12 characters or more is found in any case; a shorter one only as it is")
    func caseBlind() {
        let secrets = ["AbCdEf123456XyZ", "Ab12cd"]
        #expect(scrub(secrets, "ABCDEF123456XYZ abcdef123456xyz ab12cd Ab12cd") == "[REDACTED] [REDACTED] ab12cd [REDACTED]")
    }

    @Test("the first of a key given twice is not in the archive, and its secret is scrubbed from the log too")
    func shadowedDuplicate() throws {
        let root = try scratchFolder.make()
        let config = #"{gateway:{auth:{token:"DUPFIRST1xyz"}, bind: "loopback"}, gateway:{auth:{token:"DUPSECOND1xyz"}}}"#
        try Data(config.utf8).write(to: URL(fileURLWithPath: "\(root)/openclaw.json"))
        var sources = ReportSources()
        sources.config("\(root)/openclaw.json")
        #expect(scrub(sources.secrets, "DUPFIRST1xyz DUPSECOND1xyz loopback") == "[REDACTED] [REDACTED] loopback")
    }

    @Test("~/.config/openclaw/gateway.env is archived redacted, and the working directory's .env is searched, never archived")
    func otherEnvFiles() throws {
        let home = try scratchFolder.make()
        for folder in [".config/openclaw", ".config/systemd/user", "work", ".openclaw"] {
            try FileManager.default.createDirectory(atPath: "\(home)/\(folder)", withIntermediateDirectories: true)
        }
        let files = [
            ".config/openclaw/gateway.env": "OPENCLAW_GATEWAY_TOKEN=GWENVtoken123\nOPENCLAW_LOG_LEVEL=debug\n",
            ".config/systemd/user/openclaw-gateway.service": "[Service]\nWorkingDirectory=-%h/work\nExecStart=/usr/bin/openclaw gateway\n",
            "work/.env": "PROJECT_KEY=WORKDIRsecret1\n", ".env": "OTHER=HOMEDIRsecret2\n",
        ]
        for (path, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: "\(home)/\(path)")) }
        let sources = ReportSources.gather(home: home, configPath: "\(home)/.openclaw/openclaw.json", environment: ["HOME": home])
        let gatewayEnv = try #require(sources.files.first { $0.name == "gateway.env" }, "\(sources.files.map(\.name))")
        let text = String(decoding: gatewayEnv.content, as: UTF8.self)
        #expect(text.contains("OPENCLAW_GATEWAY_TOKEN=[REDACTED]") && text.contains("OPENCLAW_LOG_LEVEL=debug"), "\(text)")
        #expect(scrub(sources.secrets, "GWENVtoken123 WORKDIRsecret1 HOMEDIRsecret2") == "[REDACTED] [REDACTED] [REDACTED]")
        #expect(!sources.files.contains { String(decoding: $0.content, as: UTF8.self).contains("WORKDIRsecret1") })
        #expect(sources.omitted.contains { $0.path == "\(home)/work/.env" && $0.why.contains("working directory") }, "\(sources.omitted)")
    }
}
