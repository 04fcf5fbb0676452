import DNSSD
import DNSWire
import FoundationEssentials

/// A TSIG key: its name, algorithm and secret. The secret never appears in any text clawnet
/// prints: `description` names the key, and the secret bytes have no text form at all.
package struct TSIGKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    package let name: DNSName
    package let algorithm: TSIGAlgorithm
    let secret: Secret
    /// The file it was read from (to warn when others can read it), nil when made in code.
    package let file: String?

    /// Bytes that print as `<secret>`, in every interpolation, dump and log line.
    struct Secret: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        let bytes: [UInt8]
        var description: String { "<secret>" }
        var debugDescription: String { "<secret>" }
        var customMirror: Mirror { Mirror(self, children: []) }
    }

    package init(name: DNSName, algorithm: TSIGAlgorithm, secret: [UInt8], file: String? = nil) {
        self.name = name
        self.algorithm = algorithm
        self.secret = Secret(bytes: secret)
        self.file = file
    }

    package var description: String {
        "key \(name) (\(algorithm.shortName))"
    }

    package var debugDescription: String { description }
}

/// Why a key file could not be used. The message names the file and never holds the secret.
package struct TSIGKeyFileError: Error, Sendable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Key files as BIND and Knot write them:
///
///     key "clawnet" {                      # tsig-keygen -a hmac-sha256 clawnet
///         algorithm hmac-sha256;
///         secret "base64...";
///     };
///
///     key:                                 # keymgr -t clawnet hmac-sha256
///       - id: clawnet
///         algorithm: hmac-sha256
///         secret: base64...
///
/// and the one-line `[algorithm:]name:secret` that `nsupdate -y` and `kdig -y` take.
package enum TSIGKeyFile {
    /// The key in a key file's bytes (read by the caller, within `FileLimit.tsigKey`: see
    /// RegularFile); `file` names it in messages.
    package static func parse(bytes: [UInt8], file: String) throws(TSIGKeyFileError) -> TSIGKey {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TSIGKeyFileError("the TSIG key file \(file) is not text")
        }
        return try parse(text, file: file)
    }

    /// Every message names the file and the field, never a value read from it: in a file
    /// whose fields are swapped (`hmac-sha256:SECRET:name`), the "name" or the "algorithm" is
    /// the secret. Only an algorithm name that is a known TSIG algorithm is repeated.
    package static func parse(_ text: String, file: String) throws(TSIGKeyFileError) -> TSIGKey {
        let found: [(name: String, algorithm: String?, secret: String?)]
        if text.split(separator: "\n").contains(where: { String($0).trimmingSpaces() == "key:" }) {
            found = knotKeys(text)
        } else if text.contains("{") {
            found = bindKeys(text)
        } else {
            found = oneLineKeys(text)
        }
        guard let entry = found.first else {
            throw TSIGKeyFileError(
                "\(file) holds no TSIG key: expected BIND's `key \"NAME\" { algorithm ...; secret \"...\"; };` (tsig-keygen), Knot's "
                    + "`key:` list (keymgr -t) or `algorithm:name:secret`"
            )
        }
        guard found.count == 1 else {
            throw TSIGKeyFileError("\(file) holds \(found.count) keys; keep the one clawnet should use in a file of its own")
        }
        let name: DNSName
        do { name = try DNSName(presentation: entry.name.hasSuffix(".") ? entry.name : entry.name + ".") } catch {
            throw TSIGKeyFileError("the key name in \(file) is not a domain name (\(swapHint))")
        }
        guard !looksLikeSecret(entry.name) else {
            throw TSIGKeyFileError("the key name in \(file) looks like a base64 secret, not a name (\(swapHint))")
        }
        let algorithmName = entry.algorithm ?? TSIGAlgorithm.hmacSHA256.rawValue
        guard let algorithm = TSIGAlgorithm(name: algorithmName) else {
            let known = Self.otherAlgorithms.contains(algorithmName.lowercased()) ? algorithmName : "an algorithm it does not know"
            throw TSIGKeyFileError(
                "the key in \(file) names \(known); clawnet signs with \(TSIGAlgorithm.allCases.map(\.shortName).joined(separator: ", "))"
                    + (known == algorithmName ? "" : " (\(swapHint))"))
        }
        guard let encoded = entry.secret, let secret = Data(base64Encoded: encoded), !secret.isEmpty else {
            throw TSIGKeyFileError("the key in \(file) has no secret, or its secret is not base64 (\(swapHint))")
        }
        return TSIGKey(name: name, algorithm: algorithm, secret: Array(secret), file: file)
    }

    /// What to check when a field holds the wrong thing.
    static let swapHint = "are the fields in the right order? `algorithm:name:secret`, or BIND's and Knot's named fields"

    /// TSIG algorithms (IANA's registry) clawnet does not sign with: their names can be shown.
    static let otherAlgorithms: Set<String> = ["gss-tsig", "hmac-sha256-128", "hmac-sha384-192", "hmac-sha512-256"]

    /// A base64 secret where a key name belongs: base64's own characters (`+`, `/`, `=`
    /// padding), or a long run of mixed-case letters and digits that decodes to a key's
    /// worth of bytes. Key names are words, with dashes and dots.
    static func looksLikeSecret(_ name: String) -> Bool {
        let text = name.hasSuffix(".") ? String(name.dropLast()) : name
        guard text.allSatisfy(base64Alphabet.contains), let bytes = Data(base64Encoded: text), bytes.count >= minimumSecretBytes else {
            return false
        }
        let mixed = text.contains(where: \.isUppercase) && text.contains(where: \.isLowercase) && text.contains(where: \.isNumber)
        return text.contains(where: { "+/=".contains($0) }) || (mixed && text.count >= 24)
    }

    static let base64Alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")

    /// The shortest secret tsig-keygen and keymgr make (HMAC-MD5: 16 bytes).
    static let minimumSecretBytes = 16

    /// `key "NAME" { algorithm ALG; secret "BASE64"; };`, with comments (#, //, /* */) anywhere.
    private static func bindKeys(_ text: String) -> [(name: String, algorithm: String?, secret: String?)] {
        let tokens = bindTokens(text)
        var keys: [(name: String, algorithm: String?, secret: String?)] = []
        var index = 0
        while index + 2 < tokens.count {
            guard tokens[index] == "key", tokens[index + 2] == "{" else {
                index += 1
                continue
            }
            var key: (name: String, algorithm: String?, secret: String?) = (tokens[index + 1], nil, nil)
            index += 3
            while index < tokens.count, tokens[index] != "}" {
                if index + 1 < tokens.count {
                    if tokens[index] == "algorithm" { key.algorithm = tokens[index + 1] }
                    if tokens[index] == "secret" { key.secret = tokens[index + 1] }
                }
                index += 1
            }
            keys.append(key)
        }
        return keys
    }

    /// Words, quoted strings (without their quotes) and the punctuation `{ } ;`.
    private static func bindTokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var characters = Array(text)[...]
        var word = ""
        func flush() {
            if !word.isEmpty { tokens.append(word) }
            word = ""
        }
        while let character = characters.popFirst() {
            switch character {
            case "#":
                flush()
                while let next = characters.first, next != "\n" { characters.removeFirst() }
            case "/" where characters.first == "/":
                flush()
                while let next = characters.first, next != "\n" { characters.removeFirst() }
            case "/" where characters.first == "*":
                flush()
                characters.removeFirst()
                while !characters.isEmpty, !(characters.first == "*" && characters.dropFirst().first == "/") { characters.removeFirst() }
                characters = characters.dropFirst(2)
            case "\"":
                flush()
                var quoted = ""
                while let next = characters.popFirst(), next != "\"" { quoted.append(next) }
                tokens.append(quoted)
            case "{", "}", ";":
                flush()
                tokens.append(String(character))
            case _ where character.isWhitespace:
                flush()
            default:
                word.append(character)
            }
        }
        flush()
        return tokens.filter { $0 != ";" }
    }

    /// Knot's YAML: `- id: NAME`, then `algorithm:` and `secret:` lines of the same entry.
    private static func knotKeys(_ text: String) -> [(name: String, algorithm: String?, secret: String?)] {
        var keys: [(name: String, algorithm: String?, secret: String?)] = []
        var inKeySection = false
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard !line.trimmingSpaces().isEmpty else { continue }
            if !line.hasPrefix(" ") && !line.hasPrefix("-") {
                inKeySection = line.trimmingSpaces() == "key:"
                continue
            }
            guard inKeySection else { continue }
            var field = line.trimmingSpaces()
            if field.hasPrefix("- ") {
                field.removeFirst(2)
                keys.append((name: "", algorithm: nil, secret: nil))
            }
            guard !keys.isEmpty, let colon = field.firstIndex(of: ":") else { continue }
            let name = String(field[..<colon]).trimmingSpaces()
            var value = String(field[field.index(after: colon)...]).trimmingSpaces()
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            switch name {
            case "id": keys[keys.count - 1].name = value
            case "algorithm": keys[keys.count - 1].algorithm = value
            case "secret": keys[keys.count - 1].secret = value
            default: break
            }
        }
        return keys.filter { !$0.name.isEmpty }
    }

    /// `[algorithm:]name:secret` on a line of its own.
    private static func oneLineKeys(_ text: String) -> [(name: String, algorithm: String?, secret: String?)] {
        text.split(separator: "\n").compactMap { line in
            let fields = String(line).trimmingSpaces().split(separator: ":").map(String.init)
            switch fields.count {
            case 2: return (name: fields[0], algorithm: nil, secret: fields[1])
            case 3: return (name: fields[1], algorithm: fields[0], secret: fields[2])
            default: return nil
            }
        }
    }
}
