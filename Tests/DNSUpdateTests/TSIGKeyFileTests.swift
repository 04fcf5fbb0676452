import DNSSD
import DNSWire
import Foundation
import Testing

@testable import DNSUpdate

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
                "holds 2 keys;"
            ),
            ("key \"a\" { algorithm hmac-sha999; secret \"\(secret)\"; };", "names an algorithm it does not know"),
            ("key \"a\" { algorithm gss-tsig; secret \"\(secret)\"; };", "names gss-tsig; clawnet signs with"),
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

    /// A secret no message may show: every error path is fed files that hold it where the
    /// parser may end up quoting a field (swapped fields, a bad algorithm, bad base64, several
    /// keys, a truncated file), in each format.
    static let planted = "UExBTlRFRC1zZWNyZXQtNDJfeHl6LWNsYXduZXQ+Pz8="
    static let plantedPlain = "PLANTEDsecret42xyzClawnetQ"

    static let plantedFiles: [String] = [
        // One line: every order of algorithm, name and secret.
        "hmac-sha256:\(planted):clawnet", "\(planted):hmac-sha256:clawnet", "clawnet:\(planted):hmac-sha256",
        "\(planted):clawnet:hmac-sha256", "clawnet:hmac-sha256:\(planted)x", "\(planted):clawnet", "\(plantedPlain):clawnet",
        "hmac-sha256:\(plantedPlain):clawnet", "\(plantedPlain):hmac-sha256:clawnet", "hmac-sha256:clawnet:\(plantedPlain)",
        // BIND: values swapped, a name that is the secret, a truncated file, two keys.
        "key \"clawnet\" { algorithm \"\(planted)\"; secret \"hmac-sha256\"; };",
        "key \"clawnet\" { algorithm \(plantedPlain); secret \"hmac-sha256\"; };",
        "key \"\(planted)\" { algorithm hmac-sha256; secret \"clawnet\"; };",
        "key \"\(plantedPlain)\" { algorithm hmac-sha256; secret \"not base64!\"; };",
        "key \"clawnet\" { algorithm hmac-sha256; secret \"\(plantedPlain)",
        "key \"\(planted)\" { algorithm hmac-sha256; secret \"\(planted)\"; };\nkey \"\(plantedPlain)\" { secret \"\(planted)\"; };",
        "key \"clawnet\" { algorithm hmac-sha999; secret \"\(planted)\"; };",
        // Knot: fields swapped, a truncated entry.
        "key:\n  - id: clawnet\n    algorithm: \(planted)\n    secret: hmac-sha256\n",
        "key:\n  - id: \(planted)\n    algorithm: hmac-sha256\n    secret: clawnet\n",
        "key:\n  - id: \(plantedPlain)\n    algorithm: hmac-sha256\n    secret: x\n",
        "key:\n  - id: clawnet\n    algorithm: \(plantedPlain)\n    secret: \(planted)\n",
        "key:\n  - id: clawnet\n    secret: \(plantedPlain)",
    ]

    @Test("no error message repeats a planted secret, whatever field it was found in", arguments: plantedFiles)
    func plantedSecret(text: String) {
        do {
            let key = try TSIGKeyFile.parse(text, file: "/etc/k.conf")
            Issue.record("accepted as \(key): \(text)")
        } catch {
            for secret in [Self.planted, Self.plantedPlain] {
                #expect(!error.description.contains(secret.prefix(12)), "\(error.description)")
            }
            #expect(error.description.contains("/etc/k.conf"), "\(error.description)")
        }
    }

    @Test("a key name that is a base64 secret is refused; real names with digits and dashes are not")
    func namesThatLookLikeSecrets() throws {
        for name in ["clawnet", "clawnet-update-2026", "Gateway.Keys.example", "tsig-key-01", "AKey2"] {
            #expect(!TSIGKeyFile.looksLikeSecret(name), "\(name)")
            _ = try TSIGKeyFile.parse("hmac-sha256:\(name):\(Self.secret)", file: "k")
        }
        for name in [Self.secret, Self.planted, "a2V5LWtleS1rZXkta2V5LWtleS1rZXkta2V5LWtleS1r"] {
            #expect(TSIGKeyFile.looksLikeSecret(name), "\(name)")
        }
    }
}
