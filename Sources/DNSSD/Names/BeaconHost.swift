/// The host a beacon names: an SRV target as discovery received it, or the host a user typed.
/// Untrusted presentation text: `name` is its validated reading where it is a host name;
/// `text` stays exactly as it arrived, for browse's JSON and the table (through SafeText).
package struct BeaconHost: Hashable, Sendable, CustomStringConvertible, Codable {
    /// As it arrived: an SRV target keeps its root dot, a typed host has none.
    package let text: String
    /// The host name `text` spells; nil for an IP literal or text that is no host name.
    package let name: DomainName?

    package init(_ text: String) {
        self.text = text
        self.name = DomainName(host: text)
    }

    /// Without its root dot, as users type it and messages show it.
    package var withoutRootDot: String {
        name?.withoutTrailingDot ?? (text.hasSuffix(".") ? String(text.dropLast()) : text)
    }

    /// The first label as written (`studio` of `studio.local.`): the host a zone names.
    package var firstLabel: String? { text.split(separator: ".").first.map(String.init) }

    /// What makes two spellings one host: no root dot, any case (DNS names compare so).
    package var key: String { withoutRootDot.lowercased() }

    package var description: String { text }

    package init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
