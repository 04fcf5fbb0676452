import Foundation
import Host
import Report
import TestSupport
import Testing

/// The fifth outside attack's reproducers on the binary: a config that does not parse, whose
/// Gateway logged its token and API key; a key written with escapes; a gateway.env; a URL's
/// password; a number under a secret's key. None of them may reach the archive, and the report
/// claims full redaction only when every secret was known.
@Suite("clawnet report: secrets of a config that does not parse, and of every other place", .testBed)
struct ReportUnparsedTests {
    /// A report of a home holding `config` (and `gatewayEnv`), whose Gateway's journal holds
    /// `logged`: the unpacked folder, what report said, and every byte of the archive's files.
    static func report(config: String, gatewayEnv: String? = nil, logged: [String]) async throws -> (String, String, Data) {
        let bed = try TestBed.current()
        let tag = uniqueTag()
        let home = "\(bed.directory)/report-home-\(tag)"
        try FileManager.default.createDirectory(atPath: "\(home)/.openclaw", withIntermediateDirectories: true)
        try config.write(toFile: "\(home)/.openclaw/openclaw.json", atomically: true, encoding: .utf8)
        if let gatewayEnv {
            try FileManager.default.createDirectory(atPath: "\(home)/.config/openclaw", withIntermediateDirectories: true)
            try gatewayEnv.write(toFile: "\(home)/.config/openclaw/gateway.env", atomically: true, encoding: .utf8)
        }
        let entries = logged.map { ["_SYSTEMD_UNIT": "openclaw-gateway.service", "_UID": "0", "MESSAGE": $0] }
        let journal = try await ReportCommandTests.journal(bed, entries)
        let archive = "\(bed.directory)/report-\(tag).tar.gz"
        let result = try await bed.clawnet(
            ["report", "--out", archive, "--timeout", "2s", "--no-local"], on: .node,
            environment: ["HOME": home, ReportSources.journalDirectoryVariable: journal], timeout: .seconds(90))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let root = try await ReportCommandTests.unpack(bed, archive)
        var everything = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: root) {
            everything += try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(name)"))
        }
        return (root, result.stderr, everything)
    }

    @Test("a missing comma: the token, an escaped password, a number, a URL's password and gateway.env's token leave the journal")
    func missingComma() async throws {
        let tag = uniqueTag()
        let secrets = [
            "token": "ZqW1Token\(tag)", "apiKey": "ZqW2ApiKey\(tag)", "escaped key": "ZqY4Password\(tag)",
            "number": "12300000000000000", "URL password": "ZqS9UrlPass\(tag)", "gateway.env": "ZqGwEnv\(tag)",
        ]
        let config = """
            { gateway: { auth: { token: "\(secrets["token"]!)", pass\\u0077ord: "\(secrets["escaped key"]!)" } }
              models: { p: { apiKey: "\(secrets["apiKey"]!)" } }, hooks: { token: 12300000000000000 },
              remote: { url: "wss://op:\(secrets["URL password"]!)@gw.example/" } }
            """
        let logged = secrets.sorted { $0.key < $1.key }.map { "\(tag) \($0.key) \($0.value.uppercased()) \($0.value)" }
        let (root, stderr, everything) = try await Self.report(
            config: config, gatewayEnv: "OPENCLAW_GATEWAY_TOKEN=\(secrets["gateway.env"]!)\n", logged: logged)
        for (place, secret) in secrets {
            #expect(everything.range(of: Data(secret.utf8)) == nil, "the \(place) is in the archive")
        }
        let journal = try String(contentsOfFile: "\(root)/gateway-journal.txt", encoding: .utf8)
        #expect(journal.contains("\(tag) token [REDACTED] [REDACTED]"), "both cases of a long token are scrubbed: \(journal)")
        #expect(!FileManager.default.fileExists(atPath: "\(root)/openclaw.json"), "the config that does not parse is never copied")
        let gatewayEnv = try String(contentsOfFile: "\(root)/gateway.env", encoding: .utf8)
        #expect(gatewayEnv.contains("OPENCLAW_GATEWAY_TOKEN=[REDACTED]"), "\(gatewayEnv)")
        #expect(stderr.contains("every secret of this machine redacted"), "\(stderr)")
    }

    @Test("a config whose last brace is missing: the journal is left out, the manifest and stderr say not every secret was found")
    func inDoubt() async throws {
        let tag = uniqueTag()
        let (token, apiKey) = ("ZqW1Token\(tag)", "ZqW2ApiKey\(tag)")
        let config = #"{ gateway: { auth: { token: "\#(token)" } }, models: { p: { apiKey: "\#(apiKey)" } }"#
        let (root, stderr, everything) = try await Self.report(config: config, logged: ["\(tag) token \(token) key \(apiKey)"])
        #expect(everything.range(of: Data(token.utf8)) == nil && everything.range(of: Data(apiKey.utf8)) == nil)
        #expect(!FileManager.default.fileExists(atPath: "\(root)/gateway-journal.txt"), "the journal could hold a secret not found")
        let manifest = try jsonObject(String(contentsOfFile: "\(root)/manifest.json", encoding: .utf8))
        #expect(manifest["complete"] as? Bool == false, "\(manifest)")
        #expect((manifest["incomplete"] as? [String])?.first?.contains("a bracket is never closed") == true, "\(manifest)")
        let omitted = manifest["omitted"] as? [[String: Any]] ?? []
        #expect(omitted.contains { $0["item"] as? String == "gateway journal" && $0["why"] as? String == ReportSources.unsureWhy })
        #expect(!stderr.contains("every secret of this machine redacted"), "\(stderr)")
        #expect(stderr.contains("not every secret could be found"), "\(stderr)")
    }
}
