import DNSSD

/// A domain name as labels of raw bytes. Equality ignores ASCII case, as DNS does.
public struct DNSName: Hashable, Sendable, CustomStringConvertible {
    package let labels: [[UInt8]]

    package static let root = DNSName(trusted: [])

    init(trusted labels: [[UInt8]]) {
        self.labels = labels
    }

    /// At most 63 bytes per label and 255 bytes on the wire.
    package init(labels: [[UInt8]]) throws(DNSSDError) {
        guard labels.allSatisfy({ !$0.isEmpty && $0.count <= 63 }) else {
            throw DNSSDError(.name, "a DNS label must be 1 to 63 bytes")
        }
        guard labels.reduce(1, { $0 + $1.count + 1 }) <= 255 else {
            throw DNSSDError(.name, "a DNS name is at most 255 bytes")
        }
        self.labels = labels
    }

    /// From presentation format (`Studio\032\(OpenClaw\)._openclaw-gw._tcp.example.`).
    package init(presentation text: String) throws(DNSSDError) {
        try self.init(labels: Presentation.splitName(text))
    }

    /// `instance` + the labels of `type` + the labels of `domain`.
    package init(instance: InstanceName?, type: ServiceType?, domain: DomainName) throws(DNSSDError) {
        var labels: [[UInt8]] = []
        if let instance { labels.append(instance.bytes) }
        if let type { labels += type.labels.map { Array($0.utf8) } }
        labels += domain.labels.map { Array($0.utf8) }
        try self.init(labels: labels)
    }

    /// Presentation format with a trailing dot, escaped.
    public var description: String { Presentation.joinName(labels) }

    package var isRoot: Bool { labels.isEmpty }

    /// The first label (an instance name, a host label).
    package var first: [UInt8]? { labels.first }

    /// The name without its first label.
    package var parent: DNSName { DNSName(trusted: Array(labels.dropFirst())) }

    /// True when this name is `other` or below it.
    package func isSubdomain(of other: DNSName) -> Bool {
        guard labels.count >= other.labels.count else { return false }
        let offset = labels.count - other.labels.count
        for (index, label) in other.labels.enumerated() where !Self.sameLabel(labels[offset + index], label) { return false }
        return true
    }

    private static func sameLabel(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        for index in a.indices where lower(a[index]) != lower(b[index]) { return false }
        return true
    }

    /// The length of `wire`, without building it.
    package var wireLength: Int { labels.reduce(1) { $0 + 1 + $1.count } }

    /// Uncompressed wire form, built in one buffer: record stores and ledgers ask it of every
    /// owner name they index.
    package var wire: [UInt8] {
        var wire: [UInt8] = []
        wire.reserveCapacity(wireLength)
        for label in labels {
            wire.append(UInt8(label.count))
            wire += label
        }
        wire.append(0)
        return wire
    }

    // Equality and hashing run for every look-up in a zone's index (ZoneIndex), so they are
    // plain loops: one Hasher call per label, not one per byte.
    public static func == (lhs: DNSName, rhs: DNSName) -> Bool {
        guard lhs.labels.count == rhs.labels.count else { return false }
        for (a, b) in zip(lhs.labels, rhs.labels) where !sameLabel(a, b) { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        for label in labels {
            // FNV-1a over the lower-cased bytes; Hasher mixes the result.
            var folded: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in label { folded = (folded ^ UInt64(Self.lower(byte))) &* 0x100_0000_01B3 }
            hasher.combine(label.count)
            hasher.combine(folded)
        }
    }

    package static func lower(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte + 32 : byte }
}
