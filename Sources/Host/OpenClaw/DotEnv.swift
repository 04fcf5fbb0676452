/// An env file read the way OpenClaw reads its own (src/infra/dotenv.ts loadDotEnv hands the file
/// to the `dotenv` package, whose lib/main.js `parse` runs one multi-line regular expression over
/// it). What that parser does, and so what this one does:
/// - CR LF and lone CR become LF first;
/// - a variable is `[export ]KEY=VALUE` or `KEY: VALUE` (KEY of letters, digits, `_`, `.`, `-`), with
///   any white space around `=`, and `=` even on the next line;
/// - VALUE quoted with `'`, `"` or a backtick runs to the closing quote that is followed only by
///   white space or a `# comment` on its line, across lines (a PEM key); a quote after a backslash
///   does not close it unless no other quote does; an unclosed quote is read as an unquoted value;
/// - an unquoted VALUE ends at `#` or at the end of its line; values are trimmed, one pair of
///   surrounding quotes is removed, and in a double-quoted value `\n` and `\r` become line breaks;
/// - lines that are not variables are skipped; a key given twice keeps its last value (every value
///   is returned here, in order, since each one was in the file).
/// The expression backtracks; this reads the same in one pass with look-up tables, so that no file
/// (at most FileLimit.config bytes) takes more than linear time.
package enum DotEnv {
    package struct Entry: Sendable, Equatable {
        package let key: String
        /// The value as the Gateway's process gets it.
        package let value: String

        package init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    package static func parse(_ text: String) -> [Entry] {
        Scan(normalized(text)).entries()
    }

    /// CR LF and a lone CR as LF (`replace(/\r\n?/mg, '\n')`).
    static func normalized(_ text: String) -> [Unicode.Scalar] {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(text.unicodeScalars.count)
        var previousCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" && previousCR {
                previousCR = false
                continue
            }
            previousCR = scalar == "\r"
            scalars.append(previousCR ? "\n" : scalar)
        }
        return scalars
    }

    /// JavaScript's `\s` (and what `String.prototype.trim` removes).
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }

    /// What ends a line for JavaScript's `^`, `$` and `.` (a CR is an LF by now).
    static func isLineEnd(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\n" || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    /// `[\w.-]`.
    static func isKeyCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", ".", "-": true
        default: false
        }
    }

    static let quotes: [Unicode.Scalar] = ["'", "\"", "`"]

    /// The value as dotenv finishes it: trimmed, one pair of surrounding quotes removed, `\n` and
    /// `\r` expanded when it was double-quoted.
    static func finished(_ raw: ArraySlice<Unicode.Scalar>) -> String {
        var value = raw.drop(while: isSpace)
        while let last = value.last, isSpace(last) { value = value.dropLast() }
        let quote = value.first
        if let quote, quotes.contains(quote), value.count >= 2, value.last == quote { value = value.dropFirst().dropLast() }
        var result = Array(value)
        if quote == "\"" {
            result = expanded(result, "n", as: "\n")
            result = expanded(result, "r", as: "\r")
        }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: result)
        return String(text)
    }

    /// Every backslash followed by `letter` replaced, left to right.
    static func expanded(_ scalars: [Unicode.Scalar], _ letter: Unicode.Scalar, as replacement: Unicode.Scalar) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        var index = 0
        while index < scalars.count {
            if scalars[index] == "\\", index + 1 < scalars.count, scalars[index + 1] == letter {
                result.append(replacement)
                index += 2
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return result
    }
}
