/// A DNS-SD TXT record: a sequence of character-strings, each `key=value`, `key` (a boolean
/// attribute) or empty (RFC 6763 §6).
public struct TXTRecord: Hashable, Sendable {
    /// The character-strings in the order received, each at most 255 bytes.
    package let strings: [[UInt8]]

    package static let empty = TXTRecord(uncheckedStrings: [])

    init(uncheckedStrings strings: [[UInt8]]) {
        self.strings = strings
    }

    package init(strings: [[UInt8]]) throws(DNSSDError) {
        if let long = strings.first(where: { $0.count > 255 }) {
            throw DNSSDError(.txtString, "a TXT string is \(long.count) bytes; at most 255 fit in one")
        }
        self.strings = strings
    }

    /// Decode RDATA: length-prefixed strings back to back. An empty RDATA is treated like the
    /// single empty string RFC 6763 §6.1 requires.
    public init(wire: some Collection<UInt8>) throws(DNSSDError) {
        var strings: [[UInt8]] = []
        var rest = Array(wire)[...]
        while let length = rest.popFirst() {
            guard rest.count >= Int(length) else {
                throw DNSSDError(.txtString, "TXT string claims \(length) bytes but only \(rest.count) remain")
            }
            strings.append(Array(rest.prefix(Int(length))))
            rest = rest.dropFirst(Int(length))
        }
        self.strings = strings
    }

    /// `key=value` pairs (a nil value makes a boolean attribute), in the given order.
    package init(pairs: [(key: String, value: String?)]) throws(DNSSDError) {
        var strings: [[UInt8]] = []
        for (key, value) in pairs {
            try TXTRecord.validate(key: key)
            var string = Array(key.utf8)
            if let value {
                string.append(UInt8(ascii: "="))
                string.append(contentsOf: value.utf8)
            }
            guard string.count <= 255 else {
                throw DNSSDError(.txtString, "TXT entry '\(key)=…' is \(string.count) bytes; at most 255 fit in one string")
            }
            strings.append(string)
        }
        self.strings = strings
    }

    /// Wire RDATA. A record without strings becomes one empty string.
    public var wire: [UInt8] {
        guard !strings.isEmpty else { return [0] }
        return strings.flatMap { [UInt8($0.count)] + $0 }
    }

    /// The leading strings whose wire form fits in `limit` bytes, and whether any were left
    /// out.
    package func prefix(wireBytes limit: Int) -> (record: TXTRecord, truncated: Bool) {
        var kept: [[UInt8]] = []
        var size = 0
        for string in strings {
            size += 1 + string.count
            guard size <= limit else { return (TXTRecord(uncheckedStrings: kept), true) }
            kept.append(string)
        }
        return (self, false)
    }

    /// True when there is nothing but empty strings.
    package var isEmpty: Bool { strings.allSatisfy(\.isEmpty) }

    /// Key rules of RFC 6763 §6.4: at least one printable US-ASCII character, no `=`.
    package static func validate(key: String) throws(DNSSDError) {
        guard !key.isEmpty else { throw DNSSDError(.txtKey, "a TXT key cannot be empty") }
        guard key.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E && $0 != UInt8(ascii: "=") }) else {
            throw DNSSDError(.txtKey, "TXT key '\(key)' may hold only printable ASCII and no '='")
        }
    }

    /// The attributes per RFC 6763 §6: empty strings and strings starting with `=` skipped,
    /// keys compared case-insensitively and only the first of each kept.
    public var attributes: TXTAttributes { TXTAttributes(parsing: strings) }
}

/// One attribute of a TXT record.
package struct TXTAttribute: Hashable, Sendable {
    /// The key as it was sent (case kept); compare with `TXTAttributes.subscript`.
    package let key: String
    /// nil for a boolean attribute (no `=`); otherwise the value's raw bytes, possibly empty.
    package let value: [UInt8]?

    /// The value when it is valid UTF-8.
    package var string: String? { value.flatMap { SafeText.utf8($0) } }
}

/// The parsed attributes of a TXT record, with what was skipped and why.
public struct TXTAttributes: Hashable, Sendable {
    package let ordered: [TXTAttribute]
    /// Problems found while parsing, for the beacon's warnings.
    package let issues: [TXTIssue]
    /// The keys of `ordered`, case-folded once: every look-up compares against these.
    private let foldedKeys: [String]

    init(parsing strings: [[UInt8]]) {
        var ordered: [TXTAttribute] = []
        var issues: [TXTIssue] = []
        // A TXT has a handful of keys: a list is searched faster than a set is built.
        var foldedKeys: [String] = []
        for string in strings where !string.isEmpty {
            let keyBytes = string.prefix { $0 != UInt8(ascii: "=") }
            if keyBytes.isEmpty {
                issues.append(TXTIssue(.stringWithoutKey, "TXT string \(SafeText.display(string).quotedForMessage) has no key; ignored"))
                continue
            }
            guard keyBytes.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }), let key = SafeText.utf8(keyBytes) else {
                issues.append(
                    TXTIssue(.keyNotPrintable, "TXT key \(SafeText.display(keyBytes).quotedForMessage) is not printable ASCII; ignored"))
                continue
            }
            let folded = Self.fold(key)
            guard !foldedKeys.contains(folded) else {
                issues.append(TXTIssue(.duplicateKey(key), "TXT key '\(key)' appears more than once; the first one counts"))
                continue
            }
            let value = keyBytes.count < string.count ? Array(string[(keyBytes.count + 1)...]) : nil
            if let value, SafeText.utf8(value) == nil {
                issues.append(TXTIssue(.valueNotUTF8(key), "TXT value of '\(key)' is not UTF-8; shown with \\DDD escapes"))
            }
            ordered.append(TXTAttribute(key: key, value: value))
            foldedKeys.append(folded)
        }
        self.ordered = ordered
        self.issues = issues
        self.foldedKeys = foldedKeys
    }

    /// The attribute for `key`, compared case-insensitively.
    package subscript(key: String) -> TXTAttribute? {
        let folded = Self.fold(key)
        return foldedKeys.firstIndex(of: folded).map { ordered[$0] }
    }

    /// Keys are printable ASCII: folding them needs no Unicode case tables.
    private static func fold(_ key: String) -> String {
        String(decoding: key.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// The value of `key` as text (invalid UTF-8 shown safely), nil when absent or boolean.
    package func text(_ key: String) -> String? {
        self[key]?.value.map { SafeText.utf8($0) ?? SafeText.display($0) }
    }
}

extension String {
    /// The string in single quotes for an error or warning message.
    package var quotedForMessage: String { "'\(self)'" }
}
