import DNSSD

extension DNSRecord.Data {
    /// The RDATA in presentation format, as zone files and nsupdate write it: names absolute
    /// and escaped, TXT strings quoted. nil for what clawnet does not decode.
    package var presentation: String? {
        switch self {
        case .a(let address), .aaaa(let address): "\(address)"
        case .ptr(let target), .cname(let target), .ns(let target): target.description
        case .srv(let priority, let weight, let port, let target): "\(priority) \(weight) \(port) \(target)"
        case .txt(let txt): (txt.strings.isEmpty ? [[]] : txt.strings).map { Presentation.quoteCharacterString($0) }.joined(separator: " ")
        case .soa(let mname, let rname, let serial, let refresh, let retry, let expire, let minimum):
            "\(mname) \(rname) \(serial) \(refresh) \(retry) \(expire) \(minimum)"
        case .other: nil
        }
    }
}
