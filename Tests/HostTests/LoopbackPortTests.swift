import Glibc
import Testing

@testable import Host

/// The loopback connect doctor makes on a Gateway host with a tailnet or custom bind, against a
/// real listening socket of the test's own.
@Suite("127.0.0.1:PORT answers, or not")
struct LoopbackPortTests {
    /// A socket listening on 127.0.0.1 on a port the kernel picks; its descriptor and port.
    func listener() throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        try #require(bound && listen(descriptor, 4) == 0, "errno \(errno)")
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    @Test("a listener answers; once it is closed, the same port refuses")
    func answersThenRefuses() throws {
        let (descriptor, port) = try listener()
        #expect(LoopbackPort.answers(port, within: .seconds(1)) == true, "port \(port)")
        close(descriptor)
        #expect(LoopbackPort.answers(port, within: .seconds(1)) == false, "port \(port)")
    }

    @Test("a port outside 1-65535 is not known, not refused")
    func outOfRange() {
        #expect(LoopbackPort.answers(0, within: .seconds(1)) == nil)
        #expect(LoopbackPort.answers(70000, within: .seconds(1)) == nil)
    }
}
