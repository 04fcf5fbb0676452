import DNSSD
import Glibc
import Host
import NIOCore

/// `CredentialPolicy` on a live connection: its peer address, its own leaf and chain, and for
/// a listener on this machine the owner of the socket that accepted it.
enum CredentialGate {
    /// `address` is the one this connection reached. nil when the target has no credentials
    /// to show (nothing to decide).
    static func decide(_ target: ProbeTarget, _ address: IPAddress, on connection: ProbeConnection) async -> CredentialDecision? {
        let credentials = target.credentials
        guard credentials != .none else { return nil }
        let policy = target.policy
        var peer = CredentialPolicy.Peer(
            host: target.host, address: address, leaf: connection.tls?.fingerprint, trustedOwners: trustedOwners(credentials))
        if let tls = connection.tls, policy.pin == nil {
            peer.chain = await ChainTrust.verify(tls.chain, host: target.host, roots: policy.trustRoots)
        }
        peer.isOwnAddress = !peer.isLoopback && isOwnAddress(address)
        if let local = connection.channel.localAddress, let client = local.ipAddress.flatMap(IPAddress.init), let clientPort = local.port {
            let clientEnd = TCPSocketOwner.Endpoint(client, clientPort)
            // The other end of this very connection in this machine's socket tables: a listener
            // here, whatever address reached it (0.0.0.0, ::, a local route), not only its own.
            let tables = TCPSocketOwner.tables()
            let here = TCPSocketOwner.localPeer(of: clientEnd, tables: tables)
            if here != nil && !peer.isLoopback { peer.isOwnAddress = true }
            if peer.isThisMachine {
                peer.localOwner = TCPSocketOwner.owner(server: here ?? .init(address, target.port), client: clientEnd, tables: tables)
            }
        }
        return policy.decide(peer)
    }

    /// True when `address` is one of this machine's (its interfaces' addresses, from
    /// getifaddrs): a connection there reaches a listener on this machine, as loopback does.
    static func isOwnAddress(_ address: IPAddress) -> Bool {
        let plain = (address.mappedIPv4 ?? address).withoutZone
        return NetworkInterface.current().contains { $0.addresses.contains { $0.withoutZone == plain } }
    }

    /// Root, and the one user all the credentials belong to (a credential of unknown origin
    /// belongs to whoever runs clawnet).
    static func trustedOwners(_ credentials: ConnectCredentials) -> Set<UInt32> {
        let user = geteuid()
        let owners = Set([credentials.token.map { $0.owner ?? user }, credentials.device.map { $0.owner ?? user }].compactMap { $0 })
        return owners.count == 1 ? owners.union([0]) : [0]
    }
}
