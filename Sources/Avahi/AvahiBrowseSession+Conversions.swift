import CAvahi
import DNSSD
import Glibc
import Host

/// What Avahi hands a browse, as clawnet's values.
extension AvahiBrowseSession {
    static func key(type: ServiceType, name: UnsafePointer<CChar>?, domain: UnsafePointer<CChar>?) -> MulticastInstanceKey? {
        // The exact bytes Avahi reported (String(cString:) would repair invalid UTF-8).
        guard let name, let instance = try? InstanceName(bytes: Array(UnsafeRawBufferPointer(start: name, count: strlen(name)))) else {
            return nil
        }
        let domainName = domain.flatMap { try? DomainName(validating: String(cString: $0)) } ?? .local
        return MulticastInstanceKey(type: type, domain: domainName, name: instance)
    }

    static func fullyQualified(_ host: String) -> String {
        host.hasSuffix(".") || host.isEmpty ? host : host + "."
    }

    static func interfaceName(_ index: AvahiIfIndex) -> String? {
        // Wide-area results carry interface -1: never convert that to an unsigned index.
        guard index > 0 else { return nil }
        return Host.interfaceName(index: UInt32(index))
    }

    /// IPv6 link-local addresses keep their interface as the zone.
    static func ipAddress(_ address: UnsafePointer<AvahiAddress>, interfaceName: String?) -> IPAddress? {
        var buffer = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
        guard avahi_address_snprint(&buffer, buffer.count, address) != nil,
            let parsed = IPAddress(String(nulTerminated: buffer))
        else { return nil }
        if parsed.isLinkLocal, parsed.family == .v6, let interfaceName {
            return IPAddress(bytes: parsed.bytes, zone: interfaceName)
        }
        return parsed
    }

    /// The list arrives in wire order (the daemon and libavahi-client each reverse it once),
    /// which "the first key wins" depends on. avahi-browse prints it reversed.
    static func txtRecord(_ list: UnsafeMutablePointer<AvahiStringList>?) -> TXTRecord {
        var strings: [[UInt8]] = []
        var node = list
        while let current = node {
            let size = avahi_string_list_get_size(current)
            if let text = avahi_string_list_get_text(current) {
                strings.append(Array(UnsafeBufferPointer(start: text, count: size)))
            }
            node = avahi_string_list_get_next(current)
        }
        return (try? TXTRecord(strings: strings)) ?? .empty
    }
}

extension InstanceName {
    /// The exact label as a C string for Avahi, never its display form (a name with a control
    /// byte would otherwise never resolve). A label cannot hold a NUL that Avahi could carry.
    func withCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
