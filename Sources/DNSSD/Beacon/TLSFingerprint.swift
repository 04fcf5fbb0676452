/// The SHA-256 of a TLS leaf certificate's DER, as OpenClaw pins it: 64 lower-case hex digits.
package struct TLSFingerprint: Hashable, Sendable, CustomStringConvertible, Codable {
    package let hex: String

    /// Normalise user or TXT input the way OpenClaw's Swift and Node clients do: strip a leading
    /// `sha256:` / `sha-256` (any case), drop every non-hex character, lower-case. nil unless
    /// exactly 64 hex digits remain.
    package init?(normalizing input: String) {
        // The usual case, a TXT value already canonical, without the Character-level work.
        if Self.isCanonical(input) {
            self.hex = input
            return
        }
        var text = Substring(input.trimmingSpaces().lowercased())
        for prefix in ["sha256:", "sha-256:", "sha256", "sha-256"] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
            break
        }
        let hex = String(text.filter { $0.isHexDigit && $0.isASCII })
        guard hex.count == 64 else { return nil }
        self.hex = hex
    }

    package init(digest: some Collection<UInt8>) {
        precondition(digest.count == 32, "a SHA-256 digest is 32 bytes")
        self.hex = digest.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    /// True when `text` is already in the canonical form (what a TXT record must carry).
    package static func isCanonical(_ text: String) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy {
                ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
            }
    }

    /// `AB:CD:…` as `openssl x509 -fingerprint -sha256` prints it.
    package var openSSLStyle: String {
        stride(from: 0, to: hex.count, by: 2).map { offset -> String in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return hex[start..<hex.index(start, offsetBy: 2)].uppercased()
        }.joined(separator: ":")
    }

    /// The first 12 hex digits, for tables.
    package var short: String { String(hex.prefix(12)) }

    package var description: String { hex }

    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let parsed = TLSFingerprint(normalizing: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a SHA-256 fingerprint"))
        }
        self = parsed
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
