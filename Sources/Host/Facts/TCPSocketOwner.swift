import DNSSD
import Glibc

/// Who owns a TCP socket on this machine, read from /proc/net/tcp and /proc/net/tcp6 (the
/// tables of the network namespace clawnet runs in). Used before a credential goes to a
/// listener on this machine: another local user can listen on the Gateway's port while the
/// Gateway is down.
package enum TCPSocketOwner {
    /// One line of a table.
    package struct Entry: Sendable, Hashable {
        package let local: Endpoint
        package let remote: Endpoint
        /// The kernel's TCP state (1 established, 10 listen, ...).
        package let state: UInt8
        package let uid: UInt32
        /// 0 for a socket no process holds (a time-wait entry, shown with uid 0).
        package let inode: UInt64
    }

    /// An address and port, IPv4-mapped IPv6 addresses as IPv4 (how a dual-stack listener
    /// shows an IPv4 connection).
    package struct Endpoint: Sendable, Hashable {
        package let address: IPAddress
        package let port: Int

        package init(_ address: IPAddress, _ port: Int) {
            self.address = address.mappedIPv4 ?? address.withoutZone
            self.port = port
        }
    }

    /// /proc/net/tcp of a busy host is about 150 bytes a socket: far more than any real table.
    static let tableLimit = 16 << 20

    /// The owner of the socket on this machine that accepted `client`'s connection to
    /// `server`: an accepted socket keeps its listener's owner (also before the server calls
    /// accept(2): then its inode is 0). Where that entry tells nothing (none, or a time-wait
    /// entry, which the kernel shows with uid 0), the listener on the server's address and port.
    /// nil when it cannot be told (no entry, listeners of different users, /proc unreadable):
    /// then nothing is trusted.
    package static func owner(server: Endpoint, client: Endpoint) -> UInt32? {
        owner(server: server, client: client, tables: tables())
    }

    /// This network namespace's TCP tables (/proc/net/tcp, tcp6) as read now; read once for a
    /// connection and handed to `localPeer` and `owner`.
    package static func tables() -> [String] {
        ["/proc/net/tcp", "/proc/net/tcp6"].compactMap { path in
            (try? RegularFile.read(path, limit: tableLimit)).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// As `owner(server:client:)`, from recorded tables.
    package static func owner(server: Endpoint, client: Endpoint, tables: [String]) -> UInt32? {
        let entries = tables.flatMap(parse)
        if let accepted = entries.first(where: { $0.local == server && $0.remote == client && $0.state != timeWait }),
            accepted.inode != 0 || accepted.uid != 0
        {
            return accepted.uid
        }
        let listeners = Set(
            entries.filter { entry in
                entry.state == listen && entry.local.port == server.port
                    && (entry.local.address == server.address || entry.local.address.isUnspecified)
            }.map(\.uid))
        return listeners.count == 1 ? listeners.first : nil
    }

    /// The other end of the connection whose client end is `client` (in `tables`), when it is on this
    /// machine: the entry whose remote is `client` (an IPv4 address and its IPv6-mapped form are
    /// one). Whatever address the connection was made to (0.0.0.0, ::, an address reached by a
    /// local route), a listener here shows up this way; nil when the peer is elsewhere.
    package static func localPeer(of client: Endpoint, tables: [String]) -> Endpoint? {
        func plain(_ address: IPAddress) -> IPAddress { (address.mappedIPv4 ?? address).withoutZone }
        return tables.flatMap(parse).first { entry in
            entry.remote.port == client.port && plain(entry.remote.address) == plain(client.address) && entry.state != listen
        }?.local
    }

    /// The kernel's TCP states (include/net/tcp_states.h) that matter here.
    static let timeWait: UInt8 = 6
    static let listen: UInt8 = 10

    /// The entries of one table; lines that do not parse are skipped.
    package static func parse(_ text: String) -> [Entry] {
        text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
            guard fields.count >= 10, let local = endpoint(fields[1]), let remote = endpoint(fields[2]),
                let state = UInt8(fields[3], radix: 16), let uid = UInt32(fields[7]), let inode = UInt64(fields[9])
            else { return nil }
            return Entry(local: local, remote: remote, state: state, uid: uid, inode: inode)
        }
    }

    /// `0100007F:4A65`: the address as the kernel prints it, 32-bit words of the address's
    /// memory read in this machine's byte order; the port in hex.
    static func endpoint(_ text: Substring) -> Endpoint? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts[0].count == 8 || parts[0].count == 32, let port = Int(parts[1], radix: 16) else { return nil }
        var bytes: [UInt8] = []
        var rest = parts[0][...]
        while !rest.isEmpty {
            guard let word = UInt32(rest.prefix(8), radix: 16) else { return nil }
            bytes += withUnsafeBytes(of: word) { Array($0) }
            rest = rest.dropFirst(8)
        }
        return IPAddress(bytes: bytes).map { Endpoint($0, port) }
    }
}
