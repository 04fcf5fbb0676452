import DNSSD

/// Records to add to a zone that already exists: what `doctor --emit-zone` writes. The same
/// writer as a whole zone, without the SOA, NS and ns1 records; the first line names the zone,
/// so that `zone check` knows a fragment when it reads one.
extension ZoneWriter {
    package static let fragmentMarker = "; clawnet zone fragment for "

    package static func fragment(_ content: ZoneContent) throws(ZoneError) -> Rendered {
        let (gateways, notes) = try validatedPlan(content)
        let lines =
            [
                "\(fragmentMarker)\(content.domain.name): records to add to that zone (no SOA or NS)",
                "$ORIGIN \(content.domain.name)",
                "$TTL \(ttl)",
            ] + gateways.records(in: content)
        return Rendered(text: lines.joined(separator: "\n") + "\n", notes: notes)
    }

    /// The zone a fragment's first line names; nil when the text is not a fragment.
    package static func fragmentDomain(_ text: some StringProtocol) -> DomainName? {
        guard let first = text.split(separator: "\n", maxSplits: 1).first, first.hasPrefix(fragmentMarker) else { return nil }
        let rest = first.dropFirst(fragmentMarker.count)
        guard let name = rest.split(separator: ":", maxSplits: 1).first else { return nil }
        return try? DomainName(validating: String(name))
    }
}
