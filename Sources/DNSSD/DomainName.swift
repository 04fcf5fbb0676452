/// A browse domain such as `local.` or `openclaw.internal.`: lower-case, with a trailing dot.
public struct DomainName: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    public let name: String

    public static let local = DomainName(trusted: "local.")

    private init(trusted name: String) {
        self.name = name
    }

    /// Accepts host-name style domains (letters, digits, `-`, `_`), any case, with or without
    /// the trailing dot. Labels are 1 to 63 bytes, the whole name at most 253 characters.
    public init(validating text: String) throws(DNSSDError) {
        var trimmed = Substring(text.trimmingSpaces().lowercased())
        if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
        guard !trimmed.isEmpty else { throw DNSSDError(.domain, "the domain is empty") }
        guard trimmed.utf8.count <= 253 else {
            throw DNSSDError(.domain, "domain '\(text)' is longer than 253 characters")
        }
        for label in trimmed.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty else { throw DNSSDError(.domain, "domain '\(text)' has an empty label") }
            guard label.utf8.count <= 63 else {
                throw DNSSDError(.domain, "label '\(label)' of domain '\(text)' is longer than 63 bytes")
            }
            guard label.utf8.allSatisfy({ Self.allowed($0) }) else {
                throw DNSSDError(.domain, "domain '\(text)' may hold only letters, digits, '-' and '_'")
            }
            guard !label.hasPrefix("-"), !label.hasSuffix("-") else {
                throw DNSSDError(.domain, "label '\(label)' of domain '\(text)' starts or ends with '-'")
            }
        }
        self.name = trimmed + "."
    }

    public var isLocal: Bool { self == .local }

    /// The name without its trailing dot, as users type it and CoreDNS stanzas name it.
    public var withoutTrailingDot: String { String(name.dropLast()) }

    public var labels: [String] { name.split(separator: ".").map(String.init) }

    /// True when `host` (with or without a trailing dot) is this domain or inside it.
    public func contains(host: String) -> Bool {
        var lowered = host.lowercased()
        if !lowered.hasSuffix(".") { lowered += "." }
        return lowered == name || lowered.hasSuffix("." + name)
    }

    public var description: String { name }

    public static func < (lhs: DomainName, rhs: DomainName) -> Bool { lhs.name < rhs.name }

    private static func allowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
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
    public func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = lastIndex(where: { !isSpace($0) })!
        return String(self[start...end])
    }
}
