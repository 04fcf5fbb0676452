import Foundation
import Synchronization

/// Ports for tests' servers: below Linux's ephemeral range (32768-60999), so the client
/// sockets of tests running beside them cannot already hold one.
private let testPorts = 20_000...32_767

/// The next port to try. Ports go out in turn from a random start, so that two tests running
/// side by side in this process never get the same one (random picks did collide: a daemon
/// then failed with "address already in use").
private let nextTestPort = Mutex(Int.random(in: testPorts))

/// A port for a test's server that no socket in this namespace holds right now (TCP or UDP,
/// IPv4 or IPv6), and that no other test in this process was given.
package func testPort() -> Int {
    for _ in testPorts {
        let port = nextTestPort.withLock { next in
            defer { next = next == testPorts.upperBound ? testPorts.lowerBound : next + 1 }
            return next
        }
        if portIsFree(port) { return port }
    }
    fatalError("no free port in \(testPorts) in this network namespace")
}

/// Whether `port` can be bound now, on every address family and protocol a test server uses.
private func portIsFree(_ port: Int) -> Bool {
    [(AF_INET, SOCK_STREAM), (AF_INET, SOCK_DGRAM), (AF_INET6, SOCK_STREAM), (AF_INET6, SOCK_DGRAM)].allSatisfy { family, type in
        canBind(port, family: family, type: Int32(type.rawValue))
    }
}

private func canBind(_ port: Int, family: Int32, type: Int32) -> Bool {
    let fd = socket(family, type, 0)
    guard fd >= 0 else { return family == AF_INET6 }  // no IPv6 here: nothing can hold it
    defer { close(fd) }
    if family == AF_INET6 {
        // Only this family: an IPv4 holder is found by the AF_INET probe.
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0 }
        }
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}
