import DNSSD
import Testing

@testable import DNSWire

/// A zone entry ldns refuses is told in clawnet's words: the record, the field, what was expected.
@Suite("zone syntax in clawnet's words")
struct ZoneSyntaxWordsTests {
    static let head = "$ORIGIN openclaw.internal.\n$TTL 60\n@ IN SOA ns1 hostmaster 2026112201 7200 3600 1209600 60\n; a comment\n\n"

    /// One bad entry, and what the problem must say of it.
    static let cases: [(entry: String, says: [String])] = [
        ("ns1 IN A 10.0.0.300", ["A record of ns1", "address '10.0.0.300'", "IPv4 address"]),
        ("ns1 60 IN A 1.2.3", ["A record of ns1", "'1.2.3'", "IPv4"]),
        ("studio IN AAAA 2001:db8::zz", ["AAAA record of studio", "IPv6 address"]),
        ("a._openclaw-gw._tcp IN SRV 0 0 18789", ["SRV record of a._openclaw-gw._tcp", "3 data fields, expected 4", "port, target"]),
        ("a._openclaw-gw._tcp IN SRV 0 x 18789 studio", ["SRV record", "weight 'x'", "0 to 65535"]),
        ("z IN AX 1.2.3.4", ["'AX'", "not a record type", "z"]),
        ("   IN A 1.2.3", ["A record of the previous name", "'1.2.3'"]),
        ("x IN MX ten mail", ["MX record of x", "preference 'ten'"]),
        ("@ IN SOA ns1 hostmaster 2026x 7200 3600 1209600 60", ["SOA record of @", "serial '2026x'"]),
    ]

    @Test("which record, which field, what was expected; never ldns's own text", arguments: cases)
    func words(_ row: (entry: String, says: [String])) throws {
        let zone = ZoneFile.read(text: Self.head + row.entry + "\n")
        let problem = try #require(zone.problems.first, "ldns accepted '\(row.entry)'")
        for words in row.says { #expect(problem.message.contains(words), "'\(row.entry)': \(problem.message)") }
        #expect(problem.line == 6, "'\(row.entry)': line \(problem.line)")
        for ldns in ["Syntax error", "rdata", "RR's", "Error "] { #expect(!problem.message.contains(ldns), "\(problem.message)") }
    }

    @Test("the fields of an entry: comments out, parentheses out, quoted text whole")
    func fields() {
        #expect(ZoneEntryProblem.fields("x IN TXT \"a ; b\" ( 1 ; note\n 2 )") == ["x", "IN", "TXT", "\"a ; b\"", "1", "2"])
    }
}
