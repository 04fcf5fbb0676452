import Foundation
import Glibc
import Testing

@testable import Host

/// The report reads the config OpenClaw reads: the same file (OPENCLAW_CONFIG_PATH, the state
/// folder, a profile's), its `$include`s, its keys as JSON5.parse reads them, and the credential
/// stores beside it; every secret there is scrubbed from the Gateway's log.
@Suite("clawnet report: the config as OpenClaw reads it")
struct ReportConfigSourcesTests {
    @Test("a key given twice: the last value is the one redacted and scrubbed")
    func duplicateKeysLastWins() throws {
        let config = #"{gateway:{auth:{token:"DUPFIRST1xyz"}}, gateway:{auth:{token:"DUPSECOND1xyz"}}}"#
        let redaction = try #require(ConfigRedaction(config: Array(config.utf8)))
        #expect(redaction.secrets.contains("DUPSECOND1xyz"), "\(redaction.secrets)")
        #expect(!redaction.text.contains("DUPSECOND1xyz") && !redaction.text.contains("DUPFIRST1xyz"), "\(redaction.text)")
        #expect(ReportSources.words(of: Array(config.utf8)).contains("DUPSECOND1xyz"))
    }
}
