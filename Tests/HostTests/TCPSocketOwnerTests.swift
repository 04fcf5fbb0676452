import DNSSD
import Foundation
import Glibc
import Testing

@testable import Host

/// Who accepted a connection on this machine: /proc/net/tcp and tcp6 as recorded text, and the
/// live tables for a socket this test opens.
@Suite("TCP socket owners (/proc/net/tcp)")
struct TCPSocketOwnerTests {
    static let header = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"

    static func line(_ local: String, _ remote: String, state: String, uid: Int, inode: Int) -> String {
        "   0: \(local) \(remote) \(state) 00000000:00000000 00:00000000 00000000 \(uid)        0 \(inode) 1 0000000000000000 20 4 30 10 -1\n"
    }

    // 127.0.0.1 is 0100007F, port 18789 is 4965, 45678 is B26E, 45679 is B26F.
    static let tcp =
        header
        + line("00000000:4965", "00000000:0000", state: "0A", uid: 0, inode: 100)  // a listener on 0.0.0.0 run by root
        + line("0100007F:4965", "0100007F:B26E", state: "01", uid: 65534, inode: 101)  // what accepted the client: nobody's
        + line("0100007F:B26E", "0100007F:4965", state: "01", uid: 0, inode: 102)  // the client itself
        + line("0100007F:4965", "0100007F:B270", state: "06", uid: 0, inode: 0)  // time-wait: no owner to tell
        + line("0100007F:4968", "0100007F:B272", state: "01", uid: 1002, inode: 0)  // not accepted yet: its listener's owner
        + line("0100007F:4969", "00000000:0000", state: "0A", uid: 1003, inode: 105)  // two listeners of different users
        + line("00000000:4969", "00000000:0000", state: "0A", uid: 1004, inode: 106)
        + "   1: garbage line\n"
    static let tcp6 =
        "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid\n"
        + line("0000000000000000FFFF00000100007F:4966", "0000000000000000FFFF00000100007F:B26F", state: "01", uid: 1000, inode: 103)
        + line("00000000000000000000000001000000:4967", "00000000000000000000000001000000:B271", state: "01", uid: 1001, inode: 104)

    static func endpoint(_ address: String, _ port: Int) -> TCPSocketOwner.Endpoint {
        TCPSocketOwner.Endpoint(IPAddress(address)!, port)
    }

    @Test(
        "the socket that accepted the client tells the owner (IPv4, IPv4 on a dual-stack listener, IPv6, not accepted yet); else the listener",
        arguments: [
            (18789, "127.0.0.1", 45678, UInt32?(65534)),  // nobody accepted it, though root listens on 0.0.0.0
            (18790, "127.0.0.1", 45679, 1000),
            (18791, "::1", 45681, 1001),
            (18792, "127.0.0.1", 45682, 1002),
            (18789, "127.0.0.1", 45680, 0),  // a time-wait entry shows uid 0: its listener decides
            (18789, "127.0.0.1", 40000, 0),  // no such connection: the listener
            (18793, "127.0.0.1", 40001, nil),  // two listeners of different users: unknown
            (18794, "127.0.0.1", 40002, nil),  // nothing at all
        ])
    func recorded(serverPort: Int, address: String, clientPort: Int, expected: UInt32?) {
        let owner = TCPSocketOwner.owner(
            server: Self.endpoint(address, serverPort), client: Self.endpoint(address, clientPort), tables: [Self.tcp, Self.tcp6])
        #expect(owner == expected, "\(address):\(serverPort) <- \(clientPort): \(String(describing: owner))")
    }

    @Test("the other end of a connection is found on this machine by its client end, whatever address reached it; elsewhere: nil")
    func localPeer() {
        // 127.0.0.1:45678 is the client end of a connection nobody accepted on 18789.
        let here = TCPSocketOwner.localPeer(of: Self.endpoint("127.0.0.1", 45678), tables: [Self.tcp, Self.tcp6])
        #expect(here == Self.endpoint("127.0.0.1", 18789), "\(String(describing: here))")
        // The same client end seen through an IPv6 socket (IPv4-mapped) is the same end.
        #expect(TCPSocketOwner.localPeer(of: Self.endpoint("::ffff:127.0.0.1", 45678), tables: [Self.tcp, Self.tcp6]) == here)
        // A client end no entry has as its remote: the peer is on another machine.
        #expect(TCPSocketOwner.localPeer(of: Self.endpoint("10.98.0.2", 51000), tables: [Self.tcp, Self.tcp6]) == nil)
    }

    @Test("lines are parsed field by field; the header and broken lines are skipped")
    func parse() {
        let entries = TCPSocketOwner.parse(Self.tcp)
        #expect(entries.count == 7)
        #expect(entries.first?.local == Self.endpoint("0.0.0.0", 18789) && entries.first?.state == 0x0A)
        #expect(TCPSocketOwner.parse(Self.tcp6).map(\.uid) == [1000, 1001])
    }

    @Test("live: a connection to a listener this process opened belongs to this user")
    func live() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 1) == 0 }
        }
        #expect(bound)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        let connected = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) == 0 }
        }
        #expect(connected)
        var local = sockaddr_in()
        var localLength = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client, $0, &localLength) }
        }
        let serverPort = Int(UInt16(bigEndian: address.sin_port))
        let clientPort = Int(UInt16(bigEndian: local.sin_port))
        let owner = TCPSocketOwner.owner(server: Self.endpoint("127.0.0.1", serverPort), client: Self.endpoint("127.0.0.1", clientPort))
        #expect(owner == geteuid(), "127.0.0.1:\(serverPort) <- \(clientPort): \(String(describing: owner))")
    }
}
