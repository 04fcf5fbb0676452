/// A DNS-SD service type such as `_openclaw-gw._tcp` (RFC 6763 §7, RFC 6335 §5.1).
public struct ServiceType: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// Lower-case, without a trailing dot: `_openclaw-gw._tcp`.
    package let name: String

    /// The type OpenClaw Gateways advertise today.
    public static let gateway = ServiceType(trusted: "_openclaw-gw._tcp")

    /// Types older releases (Moltbot, Clawdbot, Clawdis) advertised; some are still in the field.
    package static let legacy: [ServiceType] = [
        ServiceType(trusted: "_moltbot-gw._tcp"),
        ServiceType(trusted: "_clawdbot-gw._tcp"),
        ServiceType(trusted: "_clawdbot-bridge._tcp"),
        ServiceType(trusted: "_clawdis-bridge._tcp"),
    ]

    /// OpenClaw's own types: its TXT rules (role, gatewayPort, the fingerprint) hold for these only.
    package var isOpenClaw: Bool { self == .gateway || Self.legacy.contains(self) }

    /// Whether a service name's first two labels (`_openclaw-gw`, `_tcp`) are one of OpenClaw's types, in any case.
    package static func isOpenClaw(labels: some Sequence<[UInt8]>) -> Bool {
        let text = labels.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ".")
        return (try? ServiceType(validating: text))?.isOpenClaw ?? false
    }

    private init(trusted name: String) {
        self.name = name
    }

    /// Accepts `_name._tcp` or `_name._udp`, any case, with or without a trailing dot.
    package init(validating text: String) throws(DNSSDError) {
        // The type nearly every beacon has, without the Character-level checks below.
        if text == Self.gateway.name {
            self = .gateway
            return
        }
        var trimmed = Substring(text.lowercased())
        if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw DNSSDError(.serviceType, "service type '\(text)' must look like _name._tcp")
        }
        guard parts[1] == "_tcp" || parts[1] == "_udp" else {
            throw DNSSDError(.serviceType, "service type '\(text)' must end in ._tcp or ._udp")
        }
        let service = parts[0]
        guard service.hasPrefix("_") else {
            throw DNSSDError(.serviceType, "service type '\(text)' must start with an underscore")
        }
        let label = service.dropFirst()
        guard (1...15).contains(label.count) else {
            throw DNSSDError(.serviceType, "service name '\(label)' must be 1 to 15 characters (RFC 6335)")
        }
        guard label.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }),
            label.contains(where: { $0.isLetter }),
            !label.hasPrefix("-"), !label.hasSuffix("-"), !label.contains("--")
        else {
            throw DNSSDError(
                .serviceType,
                "service name '\(label)' may hold only letters, digits and single inner hyphens, and needs a letter (RFC 6335)"
            )
        }
        self.name = String(trimmed)
    }

    /// The two labels, for building wire names.
    package var labels: [String] { name.split(separator: ".").map(String.init) }

    public var description: String { name }

    public static func < (lhs: ServiceType, rhs: ServiceType) -> Bool { lhs.name < rhs.name }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(validating: text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
