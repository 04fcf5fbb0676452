import Host
/// Removes known secrets from text that is about to leave the machine (`clawnet report`): every
/// form of each secret (`SecretForms`: as it is, hex, base64, percent-encoded, JSON-escaped, line
/// by line, a URL's credentials), and every PEM private-key block whatever it holds. One pass
/// over the text: at each byte, the longest form that starts there is replaced. The forms of a
/// secret of `caseBlindLength` bytes or more match in any ASCII case (a log that upper-cases a
/// token, a header lower-cased): that long, a chance match of ordinary text is not a worry.
package struct SecretScrubber: Sendable {
    /// Whether a secret is searched for: not when it is short enough to match ordinary words
    /// (`SecretForms.isSearched`).
    package static func searches(_ secret: String) -> Bool { SecretForms.isSearched(secret) }

    /// From this length, a secret's forms match whatever their letters' case.
    static let caseBlindLength = 12

    struct Form {
        /// The bytes to find; lower-cased when `caseBlind`.
        let bytes: [UInt8]
        let caseBlind: Bool
    }

    /// The forms, longest first, by their first two bytes lower-cased.
    let forms: [UInt16: [Form]]

    package init(secrets: some Sequence<String>) {
        var all: [[UInt8]: Bool] = [:]
        for secret in secrets {
            for piece in SecretForms.pieces(of: secret) {
                let caseBlind = piece.utf8.count >= Self.caseBlindLength
                for form in SecretForms.of(piece: piece) {
                    let bytes = caseBlind ? form.map(Self.lowered) : form
                    all[bytes] = all[bytes] == true || caseBlind
                }
            }
        }
        var forms: [UInt16: [Form]] = [:]
        for (bytes, caseBlind) in all.sorted(by: { $0.key.count > $1.key.count }) {
            forms[Self.key(bytes[0], bytes[1]), default: []].append(Form(bytes: bytes, caseBlind: caseBlind))
        }
        self.forms = forms
    }

    static func key(_ first: UInt8, _ second: UInt8) -> UInt16 { UInt16(lowered(first)) << 8 | UInt16(lowered(second)) }

    /// An ASCII capital as its small letter; any other byte as it is.
    static func lowered(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }

    /// `text` with every private-key block replaced by `marker`, and nothing else: for text whose
    /// other content must not depend on which secrets are known.
    package func withoutPrivateKeys(_ text: [UInt8], marker: String = ConfigRedaction.marker) -> [UInt8] {
        Self.withoutPrivateKeys(text, marker: Array(marker.utf8))
    }

    /// `text` with every form of every secret and every private-key block replaced by `marker`.
    package func scrub(_ text: [UInt8], marker: String = ConfigRedaction.marker) -> [UInt8] {
        let marker = Array(marker.utf8)
        let text = Self.withoutPrivateKeys(text, marker: marker)
        guard !forms.isEmpty, text.count >= SecretForms.shortMinimumLength else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            if index + 1 < text.count, let candidates = forms[Self.key(text[index], text[index + 1])],
                let form = candidates.first(where: { Self.matches($0, in: text, at: index) })
            {
                result += marker
                index += form.bytes.count
            } else {
                result.append(text[index])
                index += 1
            }
        }
        return result
    }

    static func matches(_ form: Form, in text: [UInt8], at index: Int) -> Bool {
        let bytes = form.bytes
        guard index + bytes.count <= text.count else { return false }
        // The key matched the first two bytes in any case: an exact form checks them again.
        var offset = form.caseBlind ? 2 : 0
        while offset < bytes.count {
            let byte = text[index + offset]
            guard (form.caseBlind ? lowered(byte) : byte) == bytes[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// `-----BEGIN ... PRIVATE KEY-----` through its END line, replaced whole: by its shape, so
    /// the same in text from anywhere.
    static func withoutPrivateKeys(_ text: [UInt8], marker: [UInt8]) -> [UInt8] {
        let begin = Array("-----BEGIN ".utf8)
        let end = Array("-----END ".utf8)
        let dashes = Array("-----".utf8)
        var result: [UInt8] = []
        var index = 0
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
            // To the end of the END line, or of the text when it never ends.
            if let close = find(end, in: text, from: headerEnd), let after = find(dashes, in: text, from: close + end.count) {
                index = after + dashes.count
            } else {
                index = text.count
            }
        }
        if index < text.count { result += text[index...] }
        return result
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard from <= haystack.count - needle.count else { return nil }
        var index = from
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
