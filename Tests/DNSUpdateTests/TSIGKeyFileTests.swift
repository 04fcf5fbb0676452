import DNSSD
import DNSUpdate
import DNSWire
import Foundation
import Testing

@Suite("TSIG key files")
struct TSIGKeyFileTests {
    static let secret = "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0IQ=="

    @Test(
        "BIND's tsig-keygen format, Knot's keymgr -t format and the one-line form give the same key",
        arguments: [
            "key \"clawnet\" {\n\talgorithm hmac-sha256;\n\tsecret \"\(secret)\";\n};\n",
            "# a comment\nkey clawnet { /* inline */ algorithm hmac-sha256; secret \"\(secret)\"; }; // trailing\n",
            "# hmac-sha256:clawnet:\(secret)\nkey:\n  - id: clawnet\n    algorithm: hmac-sha256\n    secret: \(secret)\n",
            "hmac-sha256:clawnet:\(secret)\n",
        ])
    func formats(text: String) throws {
        let key = try TSIGKeyFile.parse(text, file: "k")
        #expect(key.name == (try DNSName(presentation: "clawnet.")))
        #expect(key.algorithm == .hmacSHA256)
        #expect("\(key)" == "key clawnet. (hmac-sha256)")
        #expect(!String(reflecting: key).contains(Self.secret) && !"\(key)".contains("c2Vj"))
    }

    @Test(
        "every algorithm name tsig-keygen and keymgr write is known",
        arguments: ["hmac-md5", "hmac-sha1", "hmac-sha224", "hmac-sha256", "hmac-sha384", "hmac-sha512", "HMAC-MD5.SIG-ALG.REG.INT."])
    func algorithms(name: String) {
        #expect(TSIGAlgorithm(name: name) != nil)
    }

    @Test(
        "bad key files: a clear message that names the file and never the secret",
        arguments: [
            (
                "key \"a\" { algorithm hmac-sha256; secret \"\(secret)\"; };\nkey \"b\" { algorithm hmac-sha256; secret \"\(secret)\"; };",
                "holds 2 keys (a, b)"
            ),
            ("key \"a\" { algorithm hmac-sha999; secret \"\(secret)\"; };", "uses hmac-sha999"),
            ("key \"a\" { algorithm hmac-sha256; secret \"not base64!\"; };", "not base64"),
            ("nothing here", "holds no TSIG key"),
        ])
    func badFiles(text: String, expected: String) {
        do {
            _ = try TSIGKeyFile.parse(text, file: "/etc/k.conf")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
            #expect(error.description.contains("/etc/k.conf"))
            #expect(!error.description.contains(Self.secret))
        }
    }

    @Test("bytes that are not UTF-8 are refused by name")
    func notText() {
        #expect(throws: TSIGKeyFileError.self) { try TSIGKeyFile.parse(bytes: [0x6B, 0xFF, 0x3A], file: "k") }
    }
}
