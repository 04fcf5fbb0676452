import Host

/// The tokens of JSON5 text, read on when the text is not valid JSON5 (`ConfigLexicalSecrets`):
/// brackets, colons, commas, strings with their escapes decoded as JSON5 decodes them, and
/// words (unquoted keys, numbers, literals, and whatever else stands between them). Comments are
/// skipped. What makes the text's shape uncertain (a string or comment that never ends, a line
/// break inside a string, which is how a missing quote shows) is kept in `problem`.
struct JSON5Tokens {
    enum Token: Equatable {
        case open(object: Bool)
        case close(object: Bool)
        case colon, comma
        case string(String)
        case word(String)
    }

    let bytes: [UInt8]
    var index = 0
    /// The first thing that makes the shape of the text uncertain.
    private(set) var problem: String?

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func next() -> Token? {
        skipTrivia()
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "{"): return .open(object: true)
        case UInt8(ascii: "["): return .open(object: false)
        case UInt8(ascii: "}"): return .close(object: true)
        case UInt8(ascii: "]"): return .close(object: false)
        case UInt8(ascii: ":"): return .colon
        case UInt8(ascii: ","): return .comma
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(string(quote: byte))
        default:
            let start = index - 1
            while index < bytes.count, !Self.endsWord(bytes[index]), !JSON5Keys.isCommentStart(bytes, at: index) { index += 1 }
            return .word(String(decoding: bytes[start..<index], as: UTF8.self))
        }
    }

    static func endsWord(_ byte: UInt8) -> Bool {
        isSpace(byte) || "{}[]:,\"'".utf8.contains(byte)
    }

    static func isSpace(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains(byte) }

    mutating func skipTrivia() {
        while index < bytes.count {
            if Self.isSpace(bytes[index]) {
                index += 1
            } else if JSON5Keys.isCommentStart(bytes, at: index) {
                let block = bytes[index + 1] == UInt8(ascii: "*")
                let end = JSON5Keys.triviaOrStringEnd(bytes, at: index)
                if block, end == bytes.count, !bytes[..<end].suffix(2).elementsEqual("*/".utf8) { note("a comment never ends") }
                index = end
            } else {
                return
            }
        }
    }

    /// The string after its opening quote, escapes decoded; `index` after its closing quote.
    mutating func string(quote: UInt8) -> String {
        var scalars = String.UnicodeScalarView()
        var chunk = index
        func flush(_ end: Int) { scalars.append(contentsOf: String(decoding: bytes[chunk..<end], as: UTF8.self).unicodeScalars) }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                flush(index)
                index += 1
                return String(scalars)
            }
            if byte == 0x0A || byte == 0x0D { note("a line break inside a string (a quote missing?)") }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                flush(index)
                scalars.append(contentsOf: escape())
                chunk = index
            } else {
                index += 1
            }
        }
        flush(bytes.count)
        note("a string never ends")
        return String(scalars)
    }

    /// The escape at `index` (a backslash) as JSON5 decodes it; `index` after it.
    mutating func escape() -> String.UnicodeScalarView {
        let letter = bytes[index + 1]
        index += 2
        switch letter {
        case UInt8(ascii: "n"): return "\n".unicodeScalars
        case UInt8(ascii: "t"): return "\t".unicodeScalars
        case UInt8(ascii: "r"): return "\r".unicodeScalars
        case UInt8(ascii: "b"): return "\u{08}".unicodeScalars
        case UInt8(ascii: "f"): return "\u{0C}".unicodeScalars
        case UInt8(ascii: "v"): return "\u{0B}".unicodeScalars
        case UInt8(ascii: "0"): return "\u{00}".unicodeScalars
        // A line continuation.
        case 0x0A: return String.UnicodeScalarView()
        case 0x0D:
            if index < bytes.count, bytes[index] == 0x0A { index += 1 }
            return String.UnicodeScalarView()
        case UInt8(ascii: "x"): return hex(digits: 2)
        case UInt8(ascii: "u"): return unicode()
        default:
            // Any other character stands for itself (a multi-byte one whole).
            index -= 1
            let start = index
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self).unicodeScalars
        }
    }

    /// `\uXXXX`, a surrogate pair as one character.
    mutating func unicode() -> String.UnicodeScalarView {
        guard let high = code(digits: 4) else { return "\\u".unicodeScalars }
        if (0xD800..<0xDC00).contains(high), index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
        {
            index += 2
            if let low = code(digits: 4), (0xDC00..<0xE000).contains(low),
                let scalar = Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (low - 0xDC00))
            {
                return String.UnicodeScalarView([scalar])
            }
        }
        return String.UnicodeScalarView([Unicode.Scalar(high) ?? "\u{FFFD}"])
    }

    mutating func hex(digits: Int) -> String.UnicodeScalarView {
        guard let value = code(digits: digits), let scalar = Unicode.Scalar(value) else { return "\\x".unicodeScalars }
        return String.UnicodeScalarView([scalar])
    }

    /// `digits` hexadecimal digits at `index`, consumed; nil (nothing consumed) when they are not.
    mutating func code(digits: Int) -> UInt32? {
        guard index + digits <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + digits], as: UTF8.self), radix: 16)
        else { return nil }
        index += digits
        return value
    }

    mutating func note(_ problem: String) {
        if self.problem == nil { self.problem = problem }
    }
}
