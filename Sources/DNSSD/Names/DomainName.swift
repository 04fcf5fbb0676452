/// A validated DNS name: a browse domain such as `local.` or `openclaw.internal.`, or a host
/// such as `studio.local.`. Built once where a name enters (a flag, a config file, a DNS
/// answer), it knows its presentation with and without the root dot and compares without
/// regard to case, as DNS does. A domain is spelled in lower case (it names a zone); a host
/// keeps the spelling it arrived in, for the reports, SNI and URLs that show it.
public struct DomainName: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The presentation with the root dot.
    package let name: String
    /// `name` in lower case: what equality, hashing and order use.
    private let key: String

    public static let local = DomainName(trusted: "local.")

    private init(trusted name: String) {
        self.name = name
        self.key = name.lowercased()
    }

    /// Accepts host-name style domains (letters, digits, `-`, `_`), any case, with or without
    /// the trailing dot. Labels are 1 to 63 bytes, the whole name at most 253 characters.
    public init(validating text: String) throws(DNSSDError) {
        try self.init(spelled: text.trimmingSpaces().lowercased(), text: text)
    }

    /// A host name as a flag, a config file or a DNS answer gives it (any case, with or
    /// without the root dot), in its own spelling; nil for an IP literal or text that is no
    /// host name.
    package init?(host text: String) {
        guard IPAddress(text) == nil, let name = try? DomainName(spelled: text, text: text) else { return nil }
        self = name
    }

    private init(spelled: String, text: String) throws(DNSSDError) {
        var trimmed = Substring(spelled)
        if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
        guard !trimmed.isEmpty else { throw DNSSDError(.domain, "the domain is empty") }
        guard trimmed.utf8.count <= 253 else {
            throw DNSSDError(.domain, "domain '\(text)' is longer than 253 characters")
        }
        // Over the bytes, not Characters: every byte a name may hold is ASCII, and an inventory
        // or a browse reads thousands of names.
        for label in trimmed.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard !label.isEmpty else { throw DNSSDError(.domain, "domain '\(text)' has an empty label") }
            guard label.count <= 63 else {
                throw DNSSDError(.domain, "label '\(String(decoding: label, as: UTF8.self))' of domain '\(text)' is longer than 63 bytes")
            }
            guard label.allSatisfy({ Self.allowed($0) }) else {
                throw DNSSDError(.domain, "domain '\(text)' may hold only letters, digits, '-' and '_'")
            }
            guard label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-") else {
                throw DNSSDError(.domain, "label '\(String(decoding: label, as: UTF8.self))' of domain '\(text)' starts or ends with '-'")
            }
        }
        self.init(trusted: trimmed + ".")
    }

    package var isLocal: Bool { self == .local }

    /// The name with its root dot, as zone files and DNS answers write it.
    package var withRootDot: String { name }

    /// The name without its root dot, as users type it, URLs and SNI carry it and CoreDNS
    /// stanzas name it: for text that leaves the program.
    package var withoutTrailingDot: String { String(name.dropLast()) }

    package var labels: [String] { name.split(separator: ".").map(String.init) }

    /// True when `host` (with or without a trailing dot) is this domain or inside it.
    package func contains(host: String) -> Bool {
        var lowered = host.lowercased()
        if !lowered.hasSuffix(".") { lowered += "." }
        return lowered == key || lowered.hasSuffix("." + key)
    }

    /// True when this name is `domain` or inside it.
    package func isWithin(_ domain: DomainName) -> Bool { key == domain.key || key.hasSuffix("." + domain.key) }

    public var description: String { name }

    public static func == (lhs: DomainName, rhs: DomainName) -> Bool { lhs.key == rhs.key }

    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    public static func < (lhs: DomainName, rhs: DomainName) -> Bool { lhs.key < rhs.key }

    private static func allowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(validating: text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
extension String {
    /// Leading and trailing spaces, tabs and newlines removed (Foundation-free).
    package func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = lastIndex(where: { !isSpace($0) })!
        return String(self[start...end])
    }
}
