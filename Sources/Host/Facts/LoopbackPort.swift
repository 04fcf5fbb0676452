import Glibc

/// Whether something accepts TCP connections on 127.0.0.1:PORT of this machine: one connect,
/// closed at once, no byte sent. A blocking call (for `MachineFacts.gather`, on BlockingThreads).
package enum LoopbackPort {
    /// True when 127.0.0.1:`port` accepts, false when it refuses; nil when neither within
    /// `timeout` (a firewall that drops) or no socket could be made.
    package static func answers(_ port: Int, within timeout: Duration) -> Bool? {
        guard (1...65535).contains(port) else { return nil }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let started = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if started == 0 { return true }
        guard errno == EINPROGRESS else { return errno == ECONNREFUSED ? false : nil }
        var poll = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(clamping: max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        var ready: Int32
        repeat { ready = Glibc.poll(&poll, 1, milliseconds) } while ready < 0 && errno == EINTR
        guard ready > 0 else { return nil }
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 else { return nil }
        if failure == 0 { return true }
        return failure == ECONNREFUSED ? false : nil
    }
}
