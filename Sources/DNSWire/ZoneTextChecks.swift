import DNSSD

/// Zone text checked where ldns is more lenient than BIND and Knot, so that `zone check` fails
/// what they refuse:
/// - TTLs: ldns reads `$TTL 1x` as 1, `$TTL abc` as nothing at all and wraps 99999999999 to
///   1215752191, where named-checkzone and kzonecheck say "bad ttl". A TTL is decimal digits,
///   or groups of digits with a unit (`1w2d3h4m5s`, any case), at most 2^32 - 1 seconds;
///   BIND loads a value above 2^31 - 1 but serves it as 0 (RFC 2181).
/// - Names: BIND refuses a label that starts with `\[` (an obsolete bitstring label).
/// - Sizes: ldns silently cuts a record's text after 65,535 characters, so a large TXT record
///   would reach the linter cut short; its RDATA is measured here, on the text. BIND refuses a
///   TXT of more than 65,510 bytes of RDATA ("ran out of space"), Knot one of more than 65,535.
enum ZoneTextChecks {
    static let maxTTL: UInt64 = 0xFFFF_FFFF
    /// RFC 2181 §8: larger values are treated as 0.
    static let maxServedTTL: UInt64 = 0x7FFF_FFFF
    /// The most text ldns reads of one record (and the most RDATA a record has).
    static let maxRecordText = 65_535

    /// Refused values (`problems`) and values BIND changes (`warnings`), by line.
    static func scan(_ bytes: [UInt8]) -> (problems: [ZoneFile.Problem], warnings: [ZoneFile.Problem]) {
        var problems: [ZoneFile.Problem] = []
        var warnings: [ZoneFile.Problem] = []
        for entry in LogicalLines(bytes) {
            // As many as the reader keeps (ZoneFile.maxProblems): a file of a million bad TTLs
            // must not become a million messages.
            defer {
                problems.removeLast(max(0, problems.count - ZoneFile.maxProblems))
                warnings.removeLast(max(0, warnings.count - ZoneFile.maxProblems))
            }
            let tokens = entry.tokens
            guard let first = tokens.first else { continue }
            if !entry.startsBlank, first.first == UInt8(ascii: "$") {
                guard asciiUpper(first) == Array("$TTL".utf8) else { continue }
                guard entry.lengths.count == 2, tokens.count == 2, let value = ttl(tokens[1]) else {
                    let shown = SafeText.display(Array(tokens.dropFirst().joined(separator: [UInt8(ascii: " ")]).prefix(40)))
                    problems.append(
                        ZoneFile.Problem(line: entry.line, message: "$TTL '\(shown)' is not a TTL (BIND and Knot say: bad ttl)"))
                    continue
                }
                if value > maxServedTTL {
                    warnings.append(ZoneFile.Problem(line: entry.line, message: "$TTL \(value) is above 2^31-1: BIND serves it as 0"))
                }
                continue
            }
            // Owner (unless the line starts blank), then TTL and class in either order, then the type.
            var typeIndex = entry.startsBlank ? 0 : 1
            for token in tokens.dropFirst(typeIndex).prefix(2) {
                if isClass(token) {
                    typeIndex += 1
                    continue
                }
                guard let lead = token.first, lead >= UInt8(ascii: "0") && lead <= UInt8(ascii: "9") else { break }
                typeIndex += 1
                if let value = ttl(token) {
                    if value > maxServedTTL {
                        warnings.append(ZoneFile.Problem(line: entry.line, message: "TTL \(value) is above 2^31-1: BIND serves it as 0"))
                    }
                } else {
                    let shown = SafeText.display(token.prefix(40))
                    problems.append(ZoneFile.Problem(line: entry.line, message: "TTL '\(shown)' is not a TTL (BIND and Knot refuse it)"))
                }
            }
            sizeFindings(entry, typeIndex: typeIndex, problems: &problems, warnings: &warnings)
            if entry.bitstringLabel {
                let message = "a label starts with `\\[`, which BIND reads as a bitstring label (RFC 2673) and refuses: write `\\091`"
                problems.append(ZoneFile.Problem(line: entry.line, message: message))
            }
        }
        return (problems, warnings)
    }

    /// A TXT record larger than BIND takes is refused; one whose text ldns cuts is a warning
    /// (the linter then sees a shortened copy); any other record that long is refused.
    private static func sizeFindings(
        _ entry: LogicalLines.Entry, typeIndex: Int, problems: inout [ZoneFile.Problem], warnings: inout [ZoneFile.Problem]
    ) {
        let isTXT = typeIndex < entry.tokens.count && textTypes.contains(asciiUpper(entry.tokens[typeIndex]))
        if isTXT {
            let rdata = entry.lengths.dropFirst(typeIndex + 1).reduce(0) { $0 + 1 + $1 }
            if rdata > ZoneFile.bindMaxTXTRDATA {
                let message =
                    "TXT record of \(rdata) bytes of RDATA: BIND refuses more than \(ZoneFile.bindMaxTXTRDATA), Knot more than "
                    + "65535 (ran out of space)"
                problems.append(ZoneFile.Problem(line: entry.line, message: message))
                return
            }
        }
        guard entry.textLength > maxRecordText else { return }
        let message = "record of \(entry.textLength) characters: ldns reads only the first \(maxRecordText)"
        if isTXT {
            warnings.append(ZoneFile.Problem(line: entry.line, message: message + ", so the checks below saw it shortened"))
        } else {
            problems.append(ZoneFile.Problem(line: entry.line, message: message + " and would cut it"))
        }
    }

    /// The seconds a TTL token means, nil when BIND would refuse it.
    static func ttl(_ token: [UInt8]) -> UInt64? {
        var total: UInt64 = 0
        var number: UInt64?
        var sawUnit = false
        for byte in token {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                let next = (number ?? 0) * 10 + UInt64(byte - UInt8(ascii: "0"))
                guard next <= maxTTL else { return nil }
                number = next
                continue
            }
            guard let value = number, let unit = unitSeconds[byte | 0x20] else { return nil }
            total += value * unit
            guard total <= maxTTL else { return nil }
            number = nil
            sawUnit = true
        }
        // Plain digits are seconds; digits left over after a unit are refused (`1h30`).
        if let number { return sawUnit ? nil : number }
        return sawUnit ? total : nil
    }

    private static let unitSeconds: [UInt8: UInt64] = [
        UInt8(ascii: "w"): 604_800, UInt8(ascii: "d"): 86_400, UInt8(ascii: "h"): 3_600, UInt8(ascii: "m"): 60, UInt8(ascii: "s"): 1,
    ]

    private static let textTypes: Set<[UInt8]> = [Array("TXT".utf8), Array("SPF".utf8)]
    private static let classes: Set<[UInt8]> = Set(["IN", "CH", "HS", "CS", "NONE", "ANY"].map { Array($0.utf8) })

    private static func isClass(_ token: [UInt8]) -> Bool {
        let upper = asciiUpper(token)
        if classes.contains(upper) { return true }
        let prefix: [UInt8] = Array("CLASS".utf8)
        return upper.count > prefix.count && upper.starts(with: prefix)
            && upper.dropFirst(prefix.count).allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func asciiUpper(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0 }
    }
}

/// The logical lines of zone text (a newline inside parentheses does not end one), each with
/// its first tokens, the decoded length of every token, the line it starts on and whether it
/// starts with a blank (no owner). Quotes, `\` escapes and `;` comments are honoured, so a
/// TXT string never looks like a TTL.
struct LogicalLines: Sequence, IteratorProtocol {
    struct Entry {
        let line: Int
        let startsBlank: Bool
        /// At most `maxTokens`, raw: an owner, a TTL, a class and a type are all a check needs.
        let tokens: [[UInt8]]
        /// The bytes each token stands for once `\DDD` and `\X` are decoded, for every token.
        let lengths: [Int]
        /// The characters of text the record spans.
        let textLength: Int
        /// A label (outside quotes) starts with `\[`: BIND reads it as an RFC 2673 bitstring
        /// label and refuses the zone ("bad label type").
        let bitstringLabel: Bool
    }

    static let maxTokens = 4

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func next() -> Entry? {
        while index < bytes.count {
            if let entry = readLine() { return entry }
        }
        return nil
    }

    /// Reads one logical line; nil when it held no token.
    private mutating func readLine() -> Entry? {
        var state = LineState(
            start: index, startLine: line, startsBlank: bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t"))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\n") { line += 1 }
            if byte == UInt8(ascii: "\\") {
                readEscape(&state)
            } else if state.quoted {
                state.readQuoted(byte)
            } else if readUnquoted(byte, &state) {
                return state.entry(end: index)
            }
        }
        state.finishToken()
        return state.entry(end: index)
    }

    /// `\DDD` or `\X` (the backslash just read): one byte, kept raw in the token.
    private mutating func readEscape(_ state: inout LineState) {
        state.inToken = true
        state.length += 1
        let digits = index + 3 <= bytes.count && bytes[index..<index + 3].allSatisfy { $0 >= 48 && $0 <= 57 }
        let end = Swift.min(bytes.count, index + (digits ? 3 : 1))
        if !state.quoted && state.labelStart && index < bytes.count && bytes[index] == UInt8(ascii: "[") { state.bitstring = true }
        state.labelStart = false
        if !state.quoted && state.tokens.count < Self.maxTokens { state.current += [UInt8(ascii: "\\")] + bytes[index..<end] }
        line += bytes[index..<end].filter { $0 == UInt8(ascii: "\n") }.count
        index = end
    }

    /// One byte outside quotes; true when it ends the logical line.
    private mutating func readUnquoted(_ byte: UInt8, _ state: inout LineState) -> Bool {
        switch byte {
        case UInt8(ascii: "\""):
            state.finishToken()
            state.quoted = true
            state.inToken = true
        case UInt8(ascii: ";"):
            state.finishToken()
            while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
        case UInt8(ascii: "("):
            state.finishToken()
            state.depth += 1
        case UInt8(ascii: ")"):
            state.finishToken()
            state.depth = Swift.max(0, state.depth - 1)
        case UInt8(ascii: "\n"):
            state.finishToken()
            return state.depth == 0
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
            state.finishToken()
        default:
            state.inToken = true
            state.length += 1
            state.labelStart = byte == UInt8(ascii: ".")
            if state.tokens.count < Self.maxTokens { state.current.append(byte) }
        }
        return false
    }
}

/// The tokens of one logical line while it is read.
private struct LineState {
    let start: Int
    let startLine: Int
    let startsBlank: Bool
    var tokens: [[UInt8]] = []
    var lengths: [Int] = []
    var current: [UInt8] = []
    var length = 0
    var inToken = false
    /// Open parentheses: a newline inside them does not end the line.
    var depth = 0
    var quoted = false
    var labelStart = true
    var bitstring = false

    mutating func finishToken() {
        if inToken {
            if tokens.count < LogicalLines.maxTokens { tokens.append(current) }
            lengths.append(length)
        }
        current = []
        length = 0
        inToken = false
        labelStart = true
    }

    mutating func readQuoted(_ byte: UInt8) {
        if byte == UInt8(ascii: "\"") {
            quoted = false
            finishToken()
        } else {
            length += 1
        }
    }

    func entry(end: Int) -> LogicalLines.Entry? {
        tokens.isEmpty
            ? nil
            : LogicalLines.Entry(
                line: startLine, startsBlank: startsBlank, tokens: tokens, lengths: lengths, textLength: end - start,
                bitstringLabel: bitstring)
    }
}
