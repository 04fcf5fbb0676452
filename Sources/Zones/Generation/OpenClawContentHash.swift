/// The comment OpenClaw's Gateway puts on the first line of the zone it writes
/// (`; openclaw-content-hash: 1a2b3c4d`), computed as openclaw/openclaw src/infra/widearea-dns.ts
/// does (`computeContentHash`): 32-bit FNV-1a over the UTF-16 code units of the zone text with
/// the SOA serial written as `SERIAL`, as 8 lower-case hex digits. The Gateway rewrites its file
/// only when the hash of what it would write differs from the one in the file: a file clawnet
/// writes with the same line and the same records is left alone by both programs.
package enum OpenClawContentHash {
    package static let prefix = "; openclaw-content-hash: "

    /// The comment line (without its newline) for a zone body (its lines joined by newlines,
    /// with one at the end) whose SOA serial is written as `SERIAL`, as the Gateway hashes it.
    package static func line(maskedBody: String) -> String {
        prefix + hex(fnv1a(maskedBody.utf16))
    }

    /// FNV-1a (32 bits) over 16-bit units: JavaScript's `charCodeAt` reads a string so.
    static func fnv1a(_ units: some Sequence<UInt16>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261  // the FNV offset basis
        for unit in units {
            hash ^= UInt32(unit)
            hash = hash &* 16_777_619  // the FNV prime; Math.imul wraps the same way
        }
        return hash
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// True for a first line in the Gateway's form: the prefix and 8 lower-case hex digits.
    package static func isLine(_ line: some StringProtocol) -> Bool {
        guard line.hasPrefix(prefix) else { return false }
        let digits = line.dropFirst(prefix.count)
        return digits.count == 8 && digits.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}
