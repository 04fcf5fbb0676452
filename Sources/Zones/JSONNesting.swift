import DNSSD

/// How deep a JSON document nests, checked before decoding: the decoder refuses a deep one
/// only with "not valid JSON", which names neither the problem nor the place.
enum JSONNesting {
    /// A browse document nests 4 levels (document, beacons, beacon, txt); anything far deeper
    /// is not one.
    static let limit = 32

    /// Where the document first nests deeper than `limit` (`beacons[0].txt`), nil when it
    /// does not. Strings are skipped with their escapes, so brackets inside them do not count.
    static func tooDeep(_ bytes: [UInt8], limit: Int = limit) -> String? {
        // One entry per open container: for an object its last key, for an array the index.
        var path: [Level] = []
        var index = 0
        var expectingKey = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                let start = index
                while index < bytes.count && bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                // Only where the key is: its text is made when the document is too deep.
                if expectingKey, !path.isEmpty { path[path.count - 1].key = start..<Swift.min(index, bytes.count) }
                index += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard path.count < limit else { return describe(path, in: bytes) }
                path.append(Level(isObject: byte == UInt8(ascii: "{")))
                expectingKey = byte == UInt8(ascii: "{")
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = path.popLast()
                expectingKey = false
            case UInt8(ascii: ","):
                if !path.isEmpty { path[path.count - 1].index += 1 }
                expectingKey = path.last?.isObject ?? false
            case UInt8(ascii: ":"):
                expectingKey = false
            default:
                continue
            }
        }
        return nil
    }

    private struct Level {
        let isObject: Bool
        /// Where the object's last key is in the document; nil before its first.
        var key: Range<Int>?
        var index = 0
    }

    private static func describe(_ path: [Level], in bytes: [UInt8]) -> String {
        let place = path.map { level in
            guard level.isObject else { return "[\(level.index)]" }
            return "." + (level.key.map { SafeText.display(Array(bytes[$0].prefix(64))) } ?? "?")
        }.joined()
        return "the JSON nests deeper than \(limit) levels (at \(place.hasPrefix(".") ? String(place.dropFirst()) : place)); a "
            + "browse document nests 4"
    }
}
