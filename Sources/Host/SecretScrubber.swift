import FoundationEssentials

/// Removes known secrets from text that is about to leave the machine (`clawnet report`): each
/// secret as it is, in hexadecimal (both cases) and in base64 (standard and URL-safe, at each
/// of the three byte alignments it can have inside a longer encoded text), and every PEM
/// private-key block whatever it holds.
public struct SecretScrubber: Sendable {
    /// Secrets shorter than this are not searched for: they would match ordinary words.
    public static let minimumLength = 6

    /// Every form searched for, longest first (a longer form is never cut by a shorter one).
    let forms: [[UInt8]]

    public init(secrets: some Sequence<String>) {
        var forms = Set<[UInt8]>()
        for secret in secrets where secret.utf8.count >= Self.minimumLength {
            let bytes = Array(secret.utf8)
            forms.insert(bytes)
            let hex = bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
            forms.insert(Array(hex.utf8))
            forms.insert(Array(hex.uppercased().utf8))
            for shift in 0..<3 {
                let core = Self.base64Core(bytes, shift: shift)
                guard core.count >= Self.minimumLength else { continue }
                forms.insert(core)
                forms.insert(core.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 })
            }
        }
        self.forms = forms.sorted { $0.count > $1.count }
    }

    /// `text` with every form of every secret and every private-key block replaced by
    /// `marker`; and how many replacements were made.
    public func scrub(_ text: [UInt8], marker: String = ConfigRedaction.marker) -> (text: [UInt8], replaced: Int) {
        var (result, count) = Self.withoutPrivateKeys(text, marker: Array(marker.utf8))
        for form in forms {
            let (next, found) = Self.replacing(form, in: result, with: Array(marker.utf8))
            result = next
            count += found
        }
        return (result, count)
    }

    /// The base64 characters that depend on `bytes` alone when they follow `shift` other
    /// bytes in an encoded stream (so that the secret is found inside a longer base64 text).
    static func base64Core(_ bytes: [UInt8], shift: Int) -> [UInt8] {
        let padded = [UInt8](repeating: 0, count: shift) + bytes
        let encoded = Array(Data(padded).base64EncodedString().utf8)
        let firstBit = shift * 8
        let lastBit = padded.count * 8
        return (0..<encoded.count).filter { 6 * $0 >= firstBit && 6 * $0 + 6 <= lastBit }.map { encoded[$0] }
    }

    static func replacing(_ needle: [UInt8], in haystack: [UInt8], with marker: [UInt8]) -> ([UInt8], Int) {
        guard !needle.isEmpty, haystack.count >= needle.count else { return (haystack, 0) }
        var result: [UInt8] = []
        result.reserveCapacity(haystack.count)
        var index = 0
        var count = 0
        while index < haystack.count {
            if haystack[index] == needle[0], index + needle.count <= haystack.count,
                haystack[index..<index + needle.count].elementsEqual(needle)
            {
                result += marker
                index += needle.count
                count += 1
            } else {
                result.append(haystack[index])
                index += 1
            }
        }
        return (result, count)
    }

    /// `-----BEGIN ... PRIVATE KEY-----` through its END line, replaced whole.
    static func withoutPrivateKeys(_ text: [UInt8], marker: [UInt8]) -> ([UInt8], Int) {
        let begin = Array("-----BEGIN ".utf8)
        let end = Array("-----END ".utf8)
        let dashes = Array("-----".utf8)
        var result: [UInt8] = []
        var index = 0
        var count = 0
        while index < text.count {
            guard let start = find(begin, in: text, from: index) else { break }
            let headerEnd = find(dashes, in: text, from: start + begin.count) ?? text.count
            let header = String(decoding: text[start..<min(headerEnd, text.count)], as: UTF8.self)
            guard header.contains("PRIVATE KEY") || header.contains("ENCRYPTED") else {
                result += text[index..<start + begin.count]
                index = start + begin.count
                continue
            }
            result += text[index..<start] + marker
            count += 1
            // To the end of the END line, or of the text when it never ends.
            if let close = find(end, in: text, from: headerEnd), let after = find(dashes, in: text, from: close + end.count) {
                index = after + dashes.count
            } else {
                index = text.count
            }
        }
        if index < text.count { result += text[index...] }
        return (result, count)
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard from <= haystack.count - needle.count else { return nil }
        return (from...(haystack.count - needle.count)).first { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
