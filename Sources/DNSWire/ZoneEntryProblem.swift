import CLDNS
import DNSSD
import Glibc

/// What is wrong with one zone-file entry ldns refused, in clawnet's words: which record, which
/// field, what was expected. ldns's own status text ("Syntax error, could not parse the RR's
/// rdata") never reaches a user: it names neither the record nor the field.
enum ZoneEntryProblem {
    /// The fields each type's data has, and what each must be (RFC 1035, 2782, 3596).
    enum Field {
        case ipv4, ipv6, name, uint16, uint32, text

        var expected: String {
            switch self {
            case .ipv4: "an IPv4 address (four numbers 0-255, such as 192.0.2.10)"
            case .ipv6: "an IPv6 address (such as 2001:db8::10)"
            case .name: "a domain name"
            case .uint16: "a number from 0 to 65535"
            case .uint32: "a number from 0 to 4294967295 (or a time such as 1h)"
            case .text: "quoted text of at most 255 bytes per string"
            }
        }
    }

    static let layouts: [String: [(String, Field)]] = [
        "A": [("address", .ipv4)], "AAAA": [("address", .ipv6)], "NS": [("name server", .name)], "PTR": [("target", .name)],
        "CNAME": [("target", .name)], "MX": [("preference", .uint16), ("mail server", .name)],
        "SRV": [("priority", .uint16), ("weight", .uint16), ("port", .uint16), ("target", .name)],
        "SOA": [
            ("primary server", .name), ("mailbox", .name), ("serial", .uint32), ("refresh", .uint32), ("retry", .uint32),
            ("expire", .uint32), ("minimum", .uint32),
        ],
    ]
    static let classes: Set<String> = ["IN", "CH", "HS", "CS"]

    /// `text`: what ldns read for the entry, blank and comment lines before it included.
    static func describe(_ text: String, status: ldns_status) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let entry = lines.drop { $0.allSatisfy(\.isWhitespace) || $0.drop(while: \.isWhitespace).first == ";" }.joined(separator: "\n")
        // An entry that starts with a blank has the previous owner.
        var rest = fields(entry)[...]
        let owner = entry.first.map { $0 == " " || $0 == "\t" } == true ? "the previous name" : rest.popFirst() ?? "?"
        while let token = rest.first, classes.contains(token.uppercased()) || isTTL(token) { rest.removeFirst() }
        guard let type = rest.popFirst()?.uppercased() else {
            return "the entry for \(owner) has no record type (expected NAME [TTL] [CLASS] TYPE DATA)"
        }
        guard ldns_get_rr_type_by_name(type).rawValue != 0 else {
            return "'\(type)' in the entry for \(owner) is not a record type (expected NAME [TTL] [CLASS] TYPE DATA, such as A or SRV)"
        }
        let record = "the \(type) record of \(owner)"
        if type == "TXT" { return "\(record): its text must be \(Field.text.expected), with every quote closed" }
        guard let layout = layouts[type] else { return "\(record): its data cannot be read (\(fallback(status)))" }
        let data = Array(rest)
        for (index, (name, field)) in layout.enumerated() where index < data.count && !accepts(field, data[index]) {
            return "\(record): its \(name) '\(data[index])' is not \(field.expected)"
        }
        if data.count != layout.count {
            return "\(record) has \(Plural.counted(data.count, "data field")), expected \(layout.count): "
                + layout.map(\.0).joined(separator: ", ")
        }
        return "\(record): \(fallback(status))"
    }

    /// The entry's fields: comments dropped, parentheses (multi-line entries) removed, quoted
    /// strings kept whole.
    static func fields(_ entry: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var (quoted, comment) = (false, false)
        for character in entry {
            if comment {
                comment = character != "\n"
            } else if quoted {
                current.append(character)
                if character == "\"" { quoted = false }
            } else if character == ";" {
                comment = true
            } else if character == "\"" {
                quoted = true
                current.append(character)
            } else if character.isWhitespace || character == "(" || character == ")" {
                if !current.isEmpty { fields.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { fields.append(current) }
        return fields
    }

    static func isTTL(_ token: String) -> Bool {
        token.first?.isNumber == true && token.allSatisfy { $0.isNumber || "smhdwSMHDW".contains($0) }
    }

    static func accepts(_ field: Field, _ token: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        switch field {
        case .ipv4: return inet_pton(AF_INET, token, &buffer) == 1
        case .ipv6: return inet_pton(AF_INET6, token, &buffer) == 1
        case .uint16: return UInt16(token) != nil
        case .uint32: return UInt32(token) != nil || isTTL(token)
        case .name, .text: return token.utf8.count <= 255 && token.split(separator: ".").allSatisfy { $0.utf8.count <= 63 }
        }
    }

    /// The words for an ldns status when no field can be blamed.
    static func fallback(_ status: ldns_status) -> String {
        switch status {
        case LDNS_STATUS_SYNTAX_TTL_ERR: "a TTL that is not a number of seconds"
        case LDNS_STATUS_DOMAINNAME_OVERFLOW, LDNS_STATUS_LABEL_OVERFLOW, LDNS_STATUS_SYNTAX_DNAME_ERR:
            "a name with a label over 63 bytes, over 255 bytes in all, or an empty label"
        case LDNS_STATUS_SYNTAX_CLASS_ERR: "an unknown class (expected IN)"
        default: "its fields do not match its type (expected NAME [TTL] [CLASS] TYPE DATA)"
        }
    }
}
