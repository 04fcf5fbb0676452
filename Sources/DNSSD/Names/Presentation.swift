/// DNS presentation format (RFC 1035 §5.1) for labels and character-strings.
///
/// The escaped forms use printable ASCII only, so a name or TXT string written with them can
/// never break a zone-file line, start a directive or comment, or reach a terminal raw.
public enum Presentation {
    /// One label as text: letters, digits, `-` and `_` as they are; other printable ASCII as
    /// `\X` (`.` separates labels, `;` starts a comment, `()` group, `"` quotes, and Knot's
    /// scanner refuses `,` and others unescaped); `@`, `$` and `[` as `\064`, `\036` and `\091`,
    /// because ldns reads `\@` as the origin and BIND reads a label starting `\[` as a
    /// bitstring label (RFC 2673) and refuses the zone; space and everything else as `\DDD`.
    public static func escapeLabel(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                out.append(byte)
            case UInt8(ascii: "@"), UInt8(ascii: "$"), UInt8(ascii: "["):
                appendDecimalEscape(byte, to: &out)
            case 0x21..<0x7F:
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            default:
                appendDecimalEscape(byte, to: &out)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A character-string (TXT) in double quotes: `"` and `\` escaped, non-printable as `\DDD`.
    public static func quoteCharacterString(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(bytes.underestimatedCount + 2)
        appendEscaped(bytes, to: &out)
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }

    /// The inside of a quoted character-string: printable ASCII as it is, `"` and `\` as
    /// `\"` and `\\`, every other byte as `\DDD`. Exact for any bytes, and pure ASCII.
    package static func escapeCharacterString(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount)
        appendEscaped(bytes, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendEscaped(_ bytes: some Sequence<UInt8>, to out: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0x20..<0x7F:
                out.append(byte)
            default:
                appendDecimalEscape(byte, to: &out)
            }
        }
    }

    /// Undo `escapeCharacterString`: `\DDD` and `\X` escapes, everything else as it is.
    package static func unescapeCharacterString(_ text: String) throws(DNSSDError) -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            bytes.append(byte == UInt8(ascii: "\\") ? try unescape(after: &iterator) : byte)
        }
        return bytes
    }

    /// Undo `\DDD` and `\X` escapes in one label. An unescaped `.` is an error: it would
    /// split the label.
    public static func unescapeLabel(_ text: Substring) throws(DNSSDError) -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: ".") {
                throw DNSSDError(.escape, "unescaped '.' inside a label: write it as '\\.'")
            }
            if byte != UInt8(ascii: "\\") {
                bytes.append(byte)
                continue
            }
            bytes.append(try unescape(after: &iterator))
        }
        return bytes
    }

    /// Split a name in presentation format into its labels, honouring escapes. A single
    /// trailing dot (the root) is allowed; empty labels are not.
    public static func splitName(_ text: String) throws(DNSSDError) -> [[UInt8]] {
        if text == "." { return [] }
        var labels: [[UInt8]] = []
        var current: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        var sawDot = false
        while let byte = iterator.popFirst() {
            sawDot = false
            switch byte {
            case UInt8(ascii: "\\"):
                current.append(try unescape(after: &iterator))
            case UInt8(ascii: "."):
                guard !current.isEmpty else { throw DNSSDError(.name, "empty label in '\(text)'") }
                labels.append(current)
                current = []
                sawDot = true
            default:
                current.append(byte)
            }
        }
        if !current.isEmpty {
            labels.append(current)
        } else if !sawDot {
            throw DNSSDError(.name, "empty name")
        }
        return labels
    }

    /// Join labels into a name with a trailing dot.
    public static func joinName(_ labels: [[UInt8]]) -> String {
        labels.isEmpty ? "." : labels.map { escapeLabel($0) + "." }.joined()
    }

    /// `\DDD`, three decimal digits.
    private static func appendDecimalEscape(_ byte: UInt8, to out: inout [UInt8]) {
        out += [UInt8(ascii: "\\"), UInt8(ascii: "0") + byte / 100, UInt8(ascii: "0") + byte / 10 % 10, UInt8(ascii: "0") + byte % 10]
    }

    private static func unescape(after iterator: inout ArraySlice<UInt8>) throws(DNSSDError) -> UInt8 {
        guard let first = iterator.popFirst() else {
            throw DNSSDError(.escape, "a '\\' at the end of a name escapes nothing")
        }
        guard isDigit(first) else { return first }
        guard let second = iterator.popFirst(), let third = iterator.popFirst(),
            isDigit(second), isDigit(third)
        else {
            throw DNSSDError(.escape, "'\\DDD' escapes need exactly three decimal digits")
        }
        let value = Int(first - 48) * 100 + Int(second - 48) * 10 + Int(third - 48)
        guard value <= 255 else { throw DNSSDError(.escape, "'\\\(value)' is not a byte (0-255)") }
        return UInt8(value)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
}

/// Text that is safe to print to a terminal: valid UTF-8 stays readable; control characters,
/// invisible format characters and invalid bytes become `\DDD`.
public enum SafeText {
    public static func display(_ bytes: some Collection<UInt8>) -> String {
        var out = ""
        var rest = Array(bytes)[...]
        while !rest.isEmpty {
            if let (scalar, length) = decodeScalar(rest) {
                if mustEscape(scalar) {
                    out.append(escaped(scalar))
                } else {
                    out.unicodeScalars.append(scalar)
                }
                rest = rest.dropFirst(length)
            } else {
                out.append(escaped(rest.first!))
                rest = rest.dropFirst()
            }
        }
        return out
    }

    /// One line of text, safe for a terminal: control characters (a newline too) and invisible
    /// format characters become `\DDD`, everything else stays as it is.
    public static func line(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: mustEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if mustEscape(scalar) {
                out.append(escaped(scalar))
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// What never reaches a terminal raw: a control character, or an invisible one.
    package static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        isControl(scalar) || isInvisible(scalar)
    }

    /// What a terminal acts on instead of showing: C0 (escape, newline, carriage return,
    /// backspace, bell...), DEL and C1 (U+009B is CSI on some terminals).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
    }

    /// What a terminal shows as nothing, or lets reorder the text around it: Unicode's format
    /// characters (category Cf: the bidi overrides U+202A-202E and isolates U+2066-2069,
    /// LRM/RLM, zero-width U+200B-200D, U+FEFF, the tags U+E0001-E007F...) and the line and
    /// paragraph separators U+2028/2029. A stranger's name holding them can render as another
    /// name (Trojan Source, CVE-2021-42574).
    package static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// The columns `scalar` takes once escaped: `\DDD` for a control character (C1 by its
    /// value), for an invisible one each of its UTF-8 bytes.
    package static func escapedWidth(_ scalar: Unicode.Scalar) -> Int {
        isControl(scalar) ? 4 : 4 * UTF8.width(scalar)
    }

    /// The bytes as a Swift string when they are valid UTF-8, else nil.
    package static func utf8(_ bytes: some Collection<UInt8>) -> String? {
        String(validating: bytes, as: UTF8.self)
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        if isControl(scalar) { return escaped(UInt8(truncatingIfNeeded: scalar.value)) }
        return String(scalar).utf8.map(escaped).joined()
    }

    private static func escaped(_ byte: UInt8) -> String {
        let digits = String(byte)
        return "\\" + String(repeating: "0", count: 3 - digits.count) + digits
    }
    /// One UTF-8 scalar at the start of `bytes`, or nil when the bytes there are not valid UTF-8.
    private static func decodeScalar(_ bytes: ArraySlice<UInt8>) -> (Unicode.Scalar, Int)? {
        guard let lead = bytes.first else { return nil }
        let length: Int
        switch lead {
        case 0x00..<0x80: return (Unicode.Scalar(lead), 1)
        case 0xC2..<0xE0: length = 2
        case 0xE0..<0xF0: length = 3
        case 0xF0..<0xF5: length = 4
        default: return nil
        }
        guard bytes.count >= length,
            let text = String(validating: bytes.prefix(length), as: UTF8.self),
            let scalar = text.unicodeScalars.first
        else { return nil }
        return (scalar, length)
    }
}
