import DNSSD

/// Puts clawnet's server block for a domain into a Corefile the operator owns: the block sits
/// between two marker comments, so a later run finds it and replaces exactly those lines;
/// every other byte of the file stays as it was. A block for the same zone and port that
/// clawnet did not write is never touched: the edit is refused and that block named.
package enum CorefileEdit {
    package static func beginMarker(_ domain: DomainName) -> String {
        "# clawnet zone generate: \(domain.withoutTrailingDot) (begin; clawnet rewrites the lines up to the end marker)"
    }

    package static func endMarker(_ domain: DomainName) -> String {
        "# clawnet zone generate: \(domain.withoutTrailingDot) (end)"
    }

    /// The stanza between its markers, as it appears in the file.
    package static func marked(_ stanza: String, domain: DomainName) -> String {
        var body = stanza
        while body.hasSuffix("\n\n") { body.removeLast() }
        return beginMarker(domain) + "\n" + body + endMarker(domain) + "\n"
    }

    /// The Corefile with clawnet's stanza for `domain` inserted (appended) or updated (its
    /// marked lines replaced). `existing` is the file's text, nil when there is none.
    package static func apply(_ stanza: String, domain: DomainName, to existing: String?) throws(ZoneError) -> String {
        let block = marked(stanza, domain: domain)
        guard let existing, !existing.isEmpty else { return block }
        // Split on "\n" scalars: as Characters, "\r\n" would not split.
        let lines = existing.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        let begins = lines.indices.filter { lines[$0].trimmingTrailingSpace == beginMarker(domain) }
        let ends = lines.indices.filter { lines[$0].trimmingTrailingSpace == endMarker(domain) }
        var managed: Range<Int>?
        switch (begins.count, ends.count) {
        case (0, 0):
            managed = nil
        case (1, 1) where begins[0] < ends[0]:
            managed = begins[0]..<(ends[0] + 1)
        default:
            throw ZoneError(.corefileMarkersUnpaired(domain: domain, lines: (begins + ends).sorted().map { $0 + 1 }))
        }

        // Everything outside clawnet's lines, blanked where they were (line numbers kept).
        let others = lines.indices.map { managed?.contains($0) == true ? "" : lines[$0] }.joined(separator: "\n")
        let blocks = CorefileBlocks(others)
        guard blocks.complete else {
            throw ZoneError(.corefileUnreadable)
        }
        if let foreign = blocks.serving(zone: domain.name, port: 53).first {
            throw ZoneError(.corefileForeignBlock(domain: domain, line: foreign.line, key: foreign.key))
        }

        guard let managed else {
            // Appended after the operator's last byte, which stays where it is.
            let separator = existing.hasSuffix("\n\n") ? "" : existing.hasSuffix("\n") ? "\n" : "\n\n"
            return existing + separator + block
        }
        let before = lines[..<managed.lowerBound].map { $0 + "\n" }.joined()
        let after = lines[managed.upperBound...].joined(separator: "\n")
        return before + block + after
    }
}

extension String {
    /// Without trailing spaces, tabs and a carriage return (a file edited on Windows).
    fileprivate var trimmingTrailingSpace: String {
        var scalars = unicodeScalars[...]
        while let last = scalars.last, last == " " || last == "\t" || last == "\r" { scalars.removeLast() }
        return String(scalars)
    }
}
