import FoundationEssentials

/// Unquoted JSON5 keys with `\uXXXX` escapes, read as JSON5.parse reads them (an ES5
/// IdentifierName): `pass\u0077ord: 1` sets `password`, `\u0024include` is `$include`.
/// Foundation keeps such a key as written, backslash and all, so before it reads the text each
/// such key is rewritten as the quoted key it stands for. An escape whose character may not be
/// in a name (a space, a lone surrogate, a digit first) or any other escape (`\x41`) fails the
/// whole text, as it fails JSON5.parse ("invalid identifier character"). Follows json5's
/// lib/lex.js (identifierNameStartEscape, identifierNameEscape) and lib/util.js (isIdStartChar,
/// isIdContinueChar).
package enum JSON5Keys {
    /// An escape in an unquoted key that gives no character a name may hold.
    struct InvalidEscape: Error, CustomStringConvertible {
        /// Where the key starts, in bytes from the start of the text.
        let offset: Int
        var description: String { "an unquoted key at byte \(offset) has an escape that is not a character of a name" }
    }

    /// `data` with every unquoted key that holds an escape written as a quoted key; `data` itself
    /// when it holds no backslash outside strings and comments.
    static func unescaped(_ data: Data) throws -> Data {
        guard data.contains(UInt8(ascii: "\\")) else { return data }
        let bytes = [UInt8](data)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        // Where the run of name characters that ends here began (outside strings and comments).
        var nameStart: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || isCommentStart(bytes, at: index) {
                let end = triviaOrStringEnd(bytes, at: index)
                output += bytes[index..<end]
                (index, nameStart) = (end, nil)
            } else if byte == UInt8(ascii: "\\") {
                let start = nameStart ?? index
                let (name, end) = try decodedName(bytes, from: start)
                if followedByColon(bytes, from: end) {
                    output.removeLast(index - start)
                    output += Array("\"\(name)\"".utf8)
                } else {
                    // Not a key: left as written, for the JSON5 reader to refuse.
                    output += bytes[index..<end]
                }
                (index, nameStart) = (end, nil)
            } else {
                nameStart = isNameByte(byte) ? nameStart ?? index : nil
                output.append(byte)
                index += 1
            }
        }
        return Data(output)
    }

    /// The name that starts at `start`, its escapes decoded, and where it ends.
    package static func decodedName(_ bytes: [UInt8], from start: Int) throws -> (String, Int) {
        var scalars = String.UnicodeScalarView()
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                guard let scalar = escape(bytes, at: index), isNameScalar(scalar, first: index == start) else {
                    throw InvalidEscape(offset: start)
                }
                scalars.append(scalar)
                index += 6
            } else if isNameByte(byte) {
                if index == start, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { throw InvalidEscape(offset: start) }
                // A multi-byte character is copied whole; the JSON5 reader judges it.
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                let end = min(index + length, bytes.count)
                scalars.append(contentsOf: String(decoding: bytes[index..<end], as: UTF8.self).unicodeScalars)
                index = end
            } else {
                break
            }
        }
        return (String(scalars), index)
    }

    /// `\uXXXX` at `index` (JSON5 names take no other escape); nil for a surrogate.
    static func escape(_ bytes: [UInt8], at index: Int) -> Unicode.Scalar? {
        guard index + 6 <= bytes.count, bytes[index + 1] == UInt8(ascii: "u"),
            let value = UInt32(String(decoding: bytes[index + 2..<index + 6], as: UTF8.self), radix: 16)
        else { return nil }
        return Unicode.Scalar(value)
    }

    /// json5's isIdStartChar (letters, `$`, `_`, ID_Start) and isIdContinueChar (those, digits,
    /// ZWNJ, ZWJ, ID_Continue).
    static func isNameScalar(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
        if scalar == "$" || scalar == "_" || scalar.properties.isIDStart { return true }
        return !first && (scalar == "\u{200C}" || scalar == "\u{200D}" || scalar.properties.isIDContinue)
    }

    /// A byte of a name as written: ASCII letters, digits, `$`, `_`, and any byte of a
    /// multi-byte character.
    static func isNameByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39)
            || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }

    package static func isCommentStart(_ bytes: [UInt8], at index: Int) -> Bool {
        bytes[index] == UInt8(ascii: "/") && index + 1 < bytes.count
            && (bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*"))
    }

    /// The end of the string or comment that starts at `index` (the end of the text when it never ends).
    package static func triviaOrStringEnd(_ bytes: [UInt8], at index: Int) -> Int {
        let first = bytes[index]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            var end = index + 1
            while end < bytes.count, bytes[end] != first {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            return min(end + 1, bytes.count)
        }
        if bytes[index + 1] == UInt8(ascii: "/") {
            return bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        }
        var end = index + 2
        while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) { end += 1 }
        return min(end + 2, bytes.count)
    }

    /// Whether the next thing after `index`, past white space and comments, is a colon.
    static func followedByColon(_ bytes: [UInt8], from index: Int) -> Bool {
        var index = index
        while index < bytes.count {
            if isCommentStart(bytes, at: index) {
                index = triviaOrStringEnd(bytes, at: index)
            } else if [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains(bytes[index]) {
                index += 1
            } else {
                return bytes[index] == UInt8(ascii: ":")
            }
        }
        return false
    }
}
