import Host
/// A file for `clawnet report`'s archive: its name inside the archive, what it holds, and where
/// that came from, which decides how it is scrubbed.
package struct ReportFile: Sendable {
    /// Where a file's text came from.
    package enum Origin: String, Sendable, Encodable {
        /// This machine: the config, the env file, the Gateway's own log and journal, system files,
        /// tools run here. Searched for every secret known, each replaced by [REDACTED].
        case machine
        /// The network as received: beacons' TXT and names from the LAN, a DNS server's answers,
        /// what a Gateway (or whoever answers at its address) said. Never searched for secrets:
        /// anyone on the LAN can put a guess there, and a [REDACTED] in its place would confirm it.
        case network
    }

    package let name: String
    package let content: [UInt8]
    package let origin: Origin

    package init(_ name: String, _ content: [UInt8], origin: Origin = .machine) {
        self.name = name
        self.content = content
        self.origin = origin
    }

    package init(_ name: String, text: String, origin: Origin = .machine) {
        self.init(name, Array(text.utf8), origin: origin)
    }

    /// The zone file of a wide-area domain: `zone-openclaw.internal.txt`, the domain in bytes a
    /// file name can hold anywhere (anything else, `/` first, as `_`). A name longer than a file
    /// name may be (255 bytes) keeps its start and gains a hash of the whole, so that two long
    /// domains never share a file.
    package static func zoneName(_ domain: String) -> String {
        let safe = domain.unicodeScalars.map { scalar -> String in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                ? String(scalar) : "_"
        }.joined()
        guard safe.utf8.count > nameLimit - 8 else { return "zone-\(safe)txt" }
        // FNV-1a, 32 bits: stable across runs and machines.
        let hash = domain.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
        return "zone-\(safe.prefix(nameLimit - 32))-\(String(hash, radix: 16)).txt"
    }

    /// The longest file name Linux file systems take (NAME_MAX).
    static let nameLimit = 255
}
