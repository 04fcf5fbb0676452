import FoundationEssentials

/// JSON as clawnet prints it: keys sorted, slashes as they are, and no character a terminal
/// acts on: JSONEncoder escapes U+0000-U+001F, this also escapes DEL and C1 (U+007F-U+009F)
/// as `\u00XX`. Values stay exact: a JSON reader gets back the same strings.
public enum JSONOutput {
    public static func pretty(_ value: some Encodable) throws -> String {
        escapingControls(try encoder([.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]).encode(value))
    }

    /// One line, for streams of events.
    public static func compact(_ value: some Encodable) throws -> String {
        try LineEncoder().line(value)
    }

    /// One encoder for a stream of lines (`browse --format jsonl`), made once, not per line.
    public struct LineEncoder: Sendable {
        private let encoder = JSONOutput.encoder([.sortedKeys, .withoutEscapingSlashes])

        public init() {}

        public func line(_ value: some Encodable) throws -> String {
            escapingControls(try encoder.encode(value))
        }
    }

    private static func encoder(_ formatting: JSONEncoder.OutputFormatting) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return encoder
    }

    /// DEL is the byte 0x7F and C1 the pairs 0xC2 0x80-0x9F in UTF-8; in JSON text they can
    /// only stand inside strings, where `\u00XX` means the same character.
    static func escapingControls(_ data: Data) -> String {
        let bytes = Array(data)
        guard bytes.contains(where: { $0 == 0x7F || $0 == 0xC2 }) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x7F {
                out += Array("\\u007f".utf8)
            } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                out += Array("\\u00\(String(bytes[index + 1], radix: 16))".utf8)
                index += 1
            } else {
                out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
