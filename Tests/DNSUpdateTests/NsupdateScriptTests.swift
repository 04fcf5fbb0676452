import DNSSD
import DNSWire
import Testing

@testable import DNSUpdate

/// `zone push --dry-run` names the key file the operator gave, as one shell word.
@Suite("nsupdate script")
struct NsupdateScriptTests {
    let name = try! DNSName(presentation: "clawnet.")

    func key(file: String?) -> TSIGKey { TSIGKey(name: name, algorithm: .hmacSHA256, secret: Array(repeating: 7, count: 32), file: file) }

    @Test(
        "the key's file as given, single-quoted when a shell would split or expand it",
        arguments: [
            ("/etc/clawnet/clawnet.key", "/etc/clawnet/clawnet.key"),
            ("/tmp/my keys/clawnet.key", "'/tmp/my keys/clawnet.key'"),
            ("/tmp/it's.key", #"'/tmp/it'\''s.key'"#),
            ("$HOME/k", "'$HOME/k'"),
        ])
    func keyFileWord(file: String, word: String) {
        #expect(UpdatePlan.keyFileWord(key(file: file)) == word)
    }

    @Test("a key made in code has no file: a placeholder that names the key")
    func placeholder() {
        #expect(UpdatePlan.keyFileWord(key(file: nil)) == "<the key file of clawnet.>")
    }
}
