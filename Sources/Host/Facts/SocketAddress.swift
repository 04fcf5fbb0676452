import DNSSD
import Glibc

extension IPAddress {
    /// The address in a C `sockaddr` (from getifaddrs or getaddrinfo); nil for other families.
    /// A scoped IPv6 address (link-local) keeps its interface as the zone.
    package init?(socketAddress socket: UnsafePointer<sockaddr>) {
        switch Int32(socket.pointee.sa_family) {
        case AF_INET:
            let bytes = socket.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { raw in
                withUnsafeBytes(of: raw.pointee.sin_addr) { Array($0) }
            }
            self.init(bytes: bytes)
        case AF_INET6:
            let (bytes, scope) = socket.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { raw in
                (withUnsafeBytes(of: raw.pointee.sin6_addr) { Array($0) }, raw.pointee.sin6_scope_id)
            }
            self.init(bytes: bytes, zone: interfaceName(index: scope))
        default:
            return nil
        }
    }
}

/// The name of the interface with this index (if_indextoname); nil for 0 or an unknown index.
package func interfaceName(index: UInt32) -> String? {
    guard index > 0 else { return nil }
    var buffer = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
    guard if_indextoname(index, &buffer) != nil else { return nil }
    return String(nulTerminated: buffer)
}

extension String {
    /// A C string held in a fixed-size buffer.
    package init(nulTerminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
