/// JSON written straight into bytes, exactly as Foundation's JSONEncoder writes it with
/// `.prettyPrinted, .sortedKeys, .withoutEscapingSlashes` (`JSONOutput.pretty`): two spaces of
/// indent, `"key" : value`, an empty array or object as its brackets around a blank line, and
/// in strings only `"`, `\` and U+0000-U+001F escaped. For documents too large to go through
/// Codable quickly (browse's: hundreds of beacons, each with a dozen objects).
///
/// The caller gives each object's keys in sorted order (by their UTF-8 bytes, as the encoder
/// sorts them); a debug build checks it.
package struct PrettyJSON {
    package private(set) var bytes: [UInt8] = []
    private var depth = 0
    /// Values written so far at the current depth (a comma goes before every one but the first).
    private var count = 0
    /// A key was written and its value is next (no comma or indent before it).
    private var afterKey = false
    #if DEBUG
        private var lastKey: String?
    #endif

    package init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    package var text: String { String(decoding: bytes, as: UTF8.self) }

    package mutating func object(_ members: (inout PrettyJSON) -> Void) {
        nested(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), members)
    }

    package mutating func array(_ elements: (inout PrettyJSON) -> Void) {
        nested(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), elements)
    }

    /// The key of the object member whose value is written next.
    package mutating func key(_ key: String) {
        #if DEBUG
            assert(lastKey.map { Array($0.utf8).lexicographicallyPrecedes(key.utf8) } ?? true, "'\(key)' after '\(lastKey!)'")
            lastKey = key
        #endif
        separate()
        write(string: key)
        bytes.append(contentsOf: " : ".utf8)
        afterKey = true
    }

    package mutating func string(_ value: String) {
        startValue()
        write(string: value)
    }

    package mutating func int(_ value: Int) {
        startValue()
        bytes.append(contentsOf: String(value).utf8)
    }

    package mutating func bool(_ value: Bool) {
        startValue()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    package mutating func null() {
        startValue()
        bytes.append(contentsOf: "null".utf8)
    }

    package mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    package mutating func int(_ value: Int?) {
        if let value { int(value) } else { null() }
    }

    package mutating func strings(_ values: [String]) {
        array { json in
            for value in values { json.string(value) }
        }
    }

    private mutating func nested(open: UInt8, close: UInt8, _ body: (inout PrettyJSON) -> Void) {
        startValue()
        bytes.append(open)
        bytes.append(UInt8(ascii: "\n"))
        let outer = count
        #if DEBUG
            let outerKey = lastKey
            lastKey = nil
        #endif
        (depth, count) = (depth + 1, 0)
        body(&self)
        (depth, count) = (depth - 1, outer)
        #if DEBUG
            lastKey = outerKey
        #endif
        bytes.append(UInt8(ascii: "\n"))
        indent()
        bytes.append(close)
    }

    /// Before a value: nothing after a key or at the top; else the comma and the indent.
    private mutating func startValue() {
        if afterKey {
            afterKey = false
        } else if depth > 0 {
            separate()
        }
    }

    private mutating func separate() {
        if count > 0 { bytes.append(contentsOf: ",\n".utf8) }
        count += 1
        indent()
    }

    private mutating func indent() {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    private mutating func write(string: String) {
        bytes.append(UInt8(ascii: "\""))
        let utf8 = string.utf8
        if !utf8.contains(where: Self.mustEscape) {
            bytes.append(contentsOf: utf8)
        } else {
            for byte in utf8 { escape(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func mustEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func escape(_ byte: UInt8) {
        let short: UInt8? =
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): byte
            case 0x08: UInt8(ascii: "b")
            case 0x09: UInt8(ascii: "t")
            case 0x0A: UInt8(ascii: "n")
            case 0x0C: UInt8(ascii: "f")
            case 0x0D: UInt8(ascii: "r")
            default: nil
            }
        if let short {
            bytes.append(contentsOf: [UInt8(ascii: "\\"), short])
        } else if byte < 0x20 {
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: "\\u00".utf8)
            bytes.append(contentsOf: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        } else {
            bytes.append(byte)
        }
    }
}
