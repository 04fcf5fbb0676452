import DNSSD
import FoundationEssentials
import Host

/// The ways a secret can be written in a log or a document, each of which the report searches
/// for: as it is; in hexadecimal (both cases); in base64 (standard and URL-safe, at each of the
/// three byte alignments it can have inside a longer encoded text); percent-encoded as a URL
/// carries it (JavaScript's encodeURIComponent, RFC 3986's unreserved set, a form's `+` for
/// space; upper- and lower-case hex); and escaped inside a JSON string as JSON.stringify writes
/// it, with `/` escaped, with non-ASCII as `\u` escapes, with `<>&` as Go writes them, and
/// escaped twice (a JSON string inside a JSON log line). A value of several lines (a PEM key)
/// is searched for whole, line by line, and as its base64 body without line breaks.
enum SecretForms {
    /// Secrets shorter than this are not searched for: they would match ordinary words.
    static let minimumLength = 6
    /// Unless they are no word and no number: letters with digits or signs (`S9abc`, what a
    /// dotenv `#` leaves of `S9abc#def`) are searched for from this length.
    static let shortMinimumLength = 4

    /// Whether a secret (or one of its lines) is searched for at all.
    static func isSearched(_ piece: some StringProtocol) -> Bool {
        let length = piece.utf8.count
        guard length < minimumLength else { return true }
        return length >= shortMinimumLength && piece.contains(where: \.isLetter) && piece.contains { !$0.isLetter }
            && !piece.contains(where: \.isWhitespace)
    }

    /// Every form of `secret` (the secret itself included), when it is searched for (`isSearched`).
    static func of(_ secret: String) -> Set<[UInt8]> {
        pieces(of: secret).reduce(into: Set<[UInt8]>()) { forms, piece in forms.formUnion(of(piece: piece)) }
    }

    /// Every form of one piece of a secret (`pieces(of:)`), none when it is not searched for.
    static func of(piece: String) -> Set<[UInt8]> {
        var forms = Set<[UInt8]>()
        if isSearched(piece) {
            let bytes = Array(piece.utf8)
            forms.insert(bytes)
            let hex = bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
            forms.insert(Array(hex.utf8))
            forms.insert(Array(hex.uppercased().utf8))
            for shift in 0..<3 {
                let core = base64Core(bytes, shift: shift)
                forms.insert(core)
                forms.insert(core.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 })
            }
            forms.formUnion(percentEncodings(bytes))
            forms.formUnion(jsonEscapings(piece))
        }
        return forms.filter { $0.count >= shortMinimumLength }
    }

    /// The secret, each of its lines, the body of a PEM block in it (base64 without line breaks),
    /// and the credentials of a URL in it (`credentials(inURL:)`).
    static func pieces(of secret: String) -> [String] {
        let lines = secret.split(whereSeparator: \.isNewline).map { String($0).trimmingSpaces() }
        let inURL = credentials(inURL: secret)
        guard lines.count > 1 else { return [secret] + inURL }
        let body = secret.contains("-----BEGIN") ? [lines.filter { !$0.hasPrefix("-----") }.joined()] : []
        return [secret] + lines + body + inURL
    }

    /// The credentials inside a URL, each a secret on its own wherever it turns up: the password
    /// of `user:password@` (the user itself when there is no password: a Sentry DSN's key), and
    /// the value of each query or fragment parameter named like a credential (`?token=`,
    /// `&api_key=`, `#access_token=`, `sig=`); each as written and percent-decoded.
    static func credentials(inURL text: String) -> [String] {
        guard let scheme = text.firstRange(of: "://") else { return [] }
        let rest = text[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var found: [Substring] = []
        if let at = authority.lastIndex(of: "@") {
            let userinfo = authority[..<at]
            found.append(userinfo.firstIndex(of: ":").map { userinfo[userinfo.index(after: $0)...] } ?? userinfo)
        }
        let parameters = rest.drop { $0 != "?" && $0 != "#" }.dropFirst()
        for pair in parameters.split(whereSeparator: { "&;?#".contains($0) }) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "sig" || ReportSources.namesSecret(String(parts[0])) else { continue }
            found.append(parts[1])
        }
        return found.flatMap { [String($0), percentDecoded($0)] }.filter { !$0.isEmpty }
    }

    /// `%41` as `A`, `+` kept; an invalid escape left as it is.
    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            if byte == UInt8(ascii: "%"), utf8.distance(from: next, to: utf8.endIndex) >= 2,
                let value = UInt8(String(decoding: utf8[next..<utf8.index(next, offsetBy: 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index = utf8.index(next, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = next
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The base64 characters that depend on `bytes` alone when they follow `shift` other
    /// bytes in an encoded stream (so that the secret is found inside a longer base64 text).
    static func base64Core(_ bytes: [UInt8], shift: Int) -> [UInt8] {
        let padded = [UInt8](repeating: 0, count: shift) + bytes
        let encoded = Array(Data(padded).base64EncodedString().utf8)
        let firstBit = shift * 8
        let lastBit = padded.count * 8
        return (0..<encoded.count).filter { 6 * $0 >= firstBit && 6 * $0 + 6 <= lastBit }.map { encoded[$0] }
    }

    /// What encodeURIComponent leaves as it is (letters, digits and `-_.!~*'()`), RFC 3986's
    /// unreserved set, and a form's (WHATWG application/x-www-form-urlencoded: `*-._`, space as `+`).
    static let uriComponentKept = Set("-_.!~*'()".utf8)
    static let unreservedKept = Set("-_.~".utf8)
    static let formKept = Set("*-_.".utf8)

    static func percentEncodings(_ bytes: [UInt8]) -> [[UInt8]] {
        func encoded(keeping kept: Set<UInt8>, spaceAsPlus: Bool, upper: Bool) -> [UInt8] {
            bytes.flatMap { byte -> [UInt8] in
                if isAlphanumeric(byte) || kept.contains(byte) { return [byte] }
                if spaceAsPlus && byte == UInt8(ascii: " ") { return [UInt8(ascii: "+")] }
                let hex = String(byte, radix: 16, uppercase: upper)
                return Array(("%" + (hex.count == 1 ? "0" : "") + hex).utf8)
            }
        }
        return [uriComponentKept, unreservedKept].flatMap { kept in
            [true, false].map { encoded(keeping: kept, spaceAsPlus: false, upper: $0) }
        } + [true, false].map { encoded(keeping: formKept, spaceAsPlus: true, upper: $0) }
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// The inside of a JSON string holding `text`, in the ways JSON writers differ.
    static func jsonEscapings(_ text: String) -> [[UInt8]] {
        let plain = jsonEscaped(text)
        return [
            plain, jsonEscaped(text, slash: true), jsonEscaped(text, asciiOnly: true), jsonEscaped(text, htmlSafe: true),
            jsonEscaped(plain),
        ].map { Array($0.utf8) }
    }

    /// JSON.stringify's escaping (`"`, `\`, the control characters), with `/` as `\/`, every
    /// non-ASCII character as `\uXXXX` (Python's default), or `<`, `>`, `&` as `\u003c`... (Go's).
    static func jsonEscaped(_ text: String, slash: Bool = false, asciiOnly: Bool = false, htmlSafe: Bool = false) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "/": result += slash ? "\\/" : "/"
            case "<", ">", "&": result += htmlSafe ? unicodeEscapes(scalar) : String(scalar)
            default:
                result += scalar.value < 0x20 || (asciiOnly && scalar.value > 0x7F) ? unicodeEscapes(scalar) : String(scalar)
            }
        }
        return result
    }

    /// `\uXXXX` (lower-case hex), a surrogate pair beyond the basic plane.
    static func unicodeEscapes(_ scalar: Unicode.Scalar) -> String {
        String(Character(scalar)).utf16.map { unit in
            let hex = String(unit, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }.joined()
    }
}
