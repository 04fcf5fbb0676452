/// PowerDNS Authoritative, by default (`8bit-dns=no`), answers SERVFAIL ("malformed qdomain")
/// to any question whose name has a byte outside letters, digits and `-_*./@:\` and the space,
/// while it accepts such names by UPDATE: every "Name (OpenClaw)" instance it holds is then
/// invisible to browsing. Follows PowerDNS pdns/packethandler.cc validDNSName; the set was
/// measured against pdns_server 4.7.
package enum PowerDNSNames {
    /// True when PowerDNS answers SERVFAIL to a question for this name unless `8bit-dns=yes`.
    package static func needEightBitDNS(_ labels: some Sequence<[UInt8]>) -> Bool {
        labels.contains { label in label.contains { !accepted($0) } }
    }

    /// The cause, for a message about a SERVFAIL on such a name.
    package static let cause =
        "PowerDNS answers SERVFAIL to names with bytes such as `(` unless `8bit-dns=yes` is set (a DNS-SD instance name like "
        + "'Name (OpenClaw)' has them)"

    /// The fix, for the same message.
    package static let fix = "on PowerDNS: set `8bit-dns=yes` in pdns.conf and restart pdns_server (the records are there)"

    private static func accepted(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Self.punctuation.contains(byte)
        }
    }

    private static let punctuation = Array("-_*./@:\\ ".utf8)
}
