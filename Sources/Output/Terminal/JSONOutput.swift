import DNSSD
import FoundationEssentials

/// JSON as clawnet prints it: keys sorted, slashes as they are, and no character a terminal
/// acts on or hides: JSONEncoder escapes U+0000-U+001F, this also escapes DEL and C1
/// (U+007F-U+009F) and the invisible characters (`SafeText.isInvisible`: U+202E, U+200B...) as
/// `\uXXXX`. Values stay exact: a JSON reader gets back the same strings.
package enum JSONOutput {
    package static func pretty(_ value: some Encodable) throws -> String {
        escapingControls(try encoder([.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]).encode(value))
    }

    /// One line, for streams of events.
    package static func compact(_ value: some Encodable) throws -> String {
        try LineEncoder().line(value)
    }

    /// One encoder for a stream of lines (`browse --format jsonl`), made once, not per line.
    package struct LineEncoder: Sendable {
        private let encoder = JSONOutput.encoder([.sortedKeys, .withoutEscapingSlashes])

        package init() {}

        package func line(_ value: some Encodable) throws -> String {
            escapingControls(try encoder.encode(value))
        }
    }

    private static func encoder(_ formatting: JSONEncoder.OutputFormatting) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return encoder
    }

    /// DEL is the byte 0x7F, C1 the pairs 0xC2 0x80-0x9F in UTF-8, and the invisible
    /// characters are found as `Terminal.mayBeInvisible` finds them; in JSON text they can only
    /// stand inside strings, where `\uXXXX` (a surrogate pair above U+FFFF) means the same character.
    static func escapingControls(_ data: some Collection<UInt8>) -> String {
        let text = String(decoding: data, as: UTF8.self)
        guard data.contains(where: { $0 == 0x7F || $0 == 0xC2 }) || Terminal.mayBeInvisible(data) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard scalar.value >= 0x7F, SafeText.mustEscape(scalar) else {
                out.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16)
                out += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars
            }
        }
        return String(out)
    }
}
