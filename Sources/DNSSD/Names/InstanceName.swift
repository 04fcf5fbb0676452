/// A DNS-SD service instance name: one DNS label of 1 to 63 bytes, usually UTF-8, which may
/// hold spaces, dots and parentheses ("Studio (OpenClaw)").
///
/// Equality and hashing ignore ASCII case, as DNS does: NSD and Knot lower-case names inside
/// RDATA, so the same instance can arrive as "Studio" and "studio".
public struct InstanceName: Hashable, Sendable, CustomStringConvertible {
    package static let maxBytes = 63

    /// The label's bytes exactly as they travel on the wire.
    package let bytes: [UInt8]

    public init(bytes: [UInt8]) throws(DNSSDError) {
        guard !bytes.isEmpty else { throw DNSSDError(.instanceName, "an instance name cannot be empty") }
        guard bytes.count <= Self.maxBytes else {
            throw DNSSDError(.instanceName, "instance name is \(bytes.count) bytes; a DNS label holds at most 63")
        }
        self.bytes = bytes
    }

    /// From the name as a user sees it ("Studio (OpenClaw)").
    package init(decoded text: String) throws(DNSSDError) {
        try self.init(bytes: Array(text.utf8))
    }

    /// From presentation format ("Studio\032\(OpenClaw\)").
    package init(presentation text: String) throws(DNSSDError) {
        try self.init(bytes: Presentation.unescapeLabel(Substring(text)))
    }

    /// The name cut to at most 63 bytes without splitting a UTF-8 character, as OpenClaw does.
    package static func truncating(_ text: String) throws(DNSSDError) -> InstanceName {
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > maxBytes { break }
            result.append(character)
            used += size
        }
        return try InstanceName(decoded: result)
    }

    /// This name with ` (n)` after it, as a conflict is renamed (`Studio (2)`), the name cut
    /// first so that the whole fits in 63 bytes, never inside a UTF-8 character (OpenClaw's
    /// truncateToDnsLabel in extensions/bonjour/src/advertiser.ts cuts the same way).
    package func numbered(_ number: Int) -> InstanceName {
        let suffix = Array(" (\(number))".utf8)
        var end = min(bytes.count, Self.maxBytes - suffix.count)
        // Back up over at most three continuation bytes to the start of their character.
        var steps = 0
        while end > 0, end < bytes.count, bytes[end] & 0xC0 == 0x80, steps < 3 {
            end -= 1
            steps += 1
        }
        return InstanceName(trusted: Array(bytes[..<end]) + suffix)
    }

    private init(trusted bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Human-readable and terminal-safe: decoded, never `\032`-escaped.
    package var displayName: String { SafeText.display(bytes) }

    /// Escaped for zone files and DNS tools.
    package var presentation: String { Presentation.escapeLabel(bytes) }

    /// What JSON carries (`instance` in clawnet.browse.v1): the exact text, control characters
    /// included; U+FFFD for bytes that are not UTF-8, whose exact form is then `exactPresentation`.
    package var jsonText: String { SafeText.utf8(bytes) ?? String(decoding: bytes, as: UTF8.self) }

    /// The presentation form, only for a name that is not UTF-8 (JSON's `instancePresentation`).
    package var exactPresentation: String? { SafeText.utf8(bytes) == nil ? presentation : nil }

    /// The case-folded form used for identity (ASCII letters only, as DNS compares).
    package var key: String { SafeText.display(bytes.map(Self.asciiLower)) }

    public var description: String { displayName }

    public static func == (lhs: InstanceName, rhs: InstanceName) -> Bool {
        lhs.bytes.count == rhs.bytes.count
            && zip(lhs.bytes, rhs.bytes).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    public func hash(into hasher: inout Hasher) {
        for byte in bytes { hasher.combine(Self.asciiLower(byte)) }
    }

    static func asciiLower(_ byte: UInt8) -> UInt8 {
        (byte >= 65 && byte <= 90) ? byte + 32 : byte
    }
}
