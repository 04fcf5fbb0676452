import DNSSD

/// Which peer a probe may show its credentials (a token, a device signature over the peer's
/// nonce): decided on the very connection that would carry them, after its TLS handshake and
/// before anything is sent on it. Credentials go only to
/// - a certificate whose leaf matches the pin (when a pin is set, it alone decides);
/// - a certificate whose chain leads to a trusted root and names the host (a CA-issued one:
///   Tailscale Serve, Caddy);
/// - a listener on this machine (loopback, or any address of its interfaces) that root or the
///   credentials' own user runs: whatever the URL says, another local user may be listening;
/// - plain ws:// only where OpenClaw's clients allow it (private literals, `.local`, `*.ts.net`:
///   `ConnectURL.allowsPlainWebSocket`, after openclaw/openclaw src/gateway/net.ts
///   isSecureWebSocketUrl; OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1 adds other names that resolve
///   to a private address).
/// Anywhere else the connect request goes without them, as OpenClaw's own probe sends it.
package struct CredentialPolicy: Sendable, Hashable {
    /// --pin, or gateway.remote.tlsFingerprint.
    package var pin: TLSFingerprint?
    /// Where CA-issued certificates are checked against.
    package var trustRoots: TrustRoots
    /// OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1, OpenClaw's break-glass for plain ws:// on trusted
    /// private networks.
    package var allowPrivatePlainText: Bool

    package init(pin: TLSFingerprint? = nil, trustRoots: TrustRoots = .system, allowPrivatePlainText: Bool = false) {
        self.pin = pin
        self.trustRoots = trustRoots
        self.allowPrivatePlainText = allowPrivatePlainText
    }

    /// What is known about the peer of one connection when the decision is made.
    package struct Peer: Sendable, Hashable {
        /// The host the target names (its URL's host).
        package var host: String
        /// The address this connection reached.
        package var address: IPAddress
        /// The leaf certificate's SHA-256; nil on a plain connection.
        package var leaf: TLSFingerprint?
        /// The chain's verdict (only looked at without a pin).
        package var chain: ChainVerdict
        /// The owner of the socket that accepted this connection, for an address of this machine.
        package var localOwner: UInt32?
        /// The address is one of this machine's interfaces' (10.77.0.2 on eth0), not loopback:
        /// the listener there is on this machine all the same.
        package var isOwnAddress: Bool
        /// The users who may run a local listener that gets the credentials (root, and the
        /// credentials' owner).
        package var trustedOwners: Set<UInt32>

        package init(
            host: String, address: IPAddress, leaf: TLSFingerprint?, chain: ChainVerdict = .notChecked, localOwner: UInt32? = nil,
            trustedOwners: Set<UInt32> = [0], isOwnAddress: Bool = false
        ) {
            self.isOwnAddress = isOwnAddress
            self.host = host
            self.address = address
            self.leaf = leaf
            self.chain = chain
            self.localOwner = localOwner
            self.trustedOwners = trustedOwners
        }

        /// 127.0.0.0/8 and ::1, also as an IPv4-mapped address.
        var isLoopback: Bool { (address.mappedIPv4 ?? address).isLoopback }
        /// Loopback or an address of this machine's interfaces: a listener of this machine.
        package var isThisMachine: Bool { isLoopback || isOwnAddress }
    }

    package func decide(_ peer: Peer) -> CredentialDecision {
        guard let leaf = peer.leaf else {
            if let pin { return .withhold(.pinWithoutTLS(expected: pin)) }
            if peer.isThisMachine { return local(peer) }
            let address = peer.address.mappedIPv4 ?? peer.address
            guard ConnectURL.allowsPlainWebSocket(host: peer.host) || (allowPrivatePlainText && address.isPrivate) else {
                return .withhold(.plainText(host: peer.host))
            }
            return .send(.privatePlainText)
        }
        if let pin { return pin == leaf ? .send(.pinned) : .withhold(.pinMismatch(expected: pin, observed: leaf)) }
        if case .trusted = peer.chain { return .send(.trustedChain) }
        if peer.isThisMachine { return local(peer) }
        return .withhold(.unverifiedCertificate(observed: leaf, chain: peer.chain))
    }

    private func local(_ peer: Peer) -> CredentialDecision {
        guard let owner = peer.localOwner, peer.trustedOwners.contains(owner) else {
            return .withhold(.foreignLocalListener(owner: peer.localOwner))
        }
        return .send(.localListener(owner: owner))
    }
}

/// Where CA-issued certificates are checked against: the system's trust store
/// (/etc/ssl/certs/ca-certificates.crt, as swift-certificates finds it), or the PEM bundle
/// SSL_CERT_FILE names, as OpenSSL reads it.
package enum TrustRoots: Sendable, Hashable {
    case system
    case bundle(path: String)

    package init(environment: [String: String]) {
        if let path = environment["SSL_CERT_FILE"], !path.isEmpty {
            self = .bundle(path: path)
        } else {
            self = .system
        }
    }
}

/// Whether a certificate chain leads to a trusted root and names the host.
package enum ChainVerdict: Sendable, Hashable {
    case trusted
    /// Issued by a trusted CA, but for other names.
    case otherHost
    /// Self-signed, and not itself trusted: it has to be pinned.
    case selfSigned
    /// No path to a trusted root (an unknown or private CA), or not valid now.
    case untrusted
    /// The trust roots could not be read (the reason, without secrets: a path and an errno).
    case noTrustRoots(String)
    case notChecked
}

/// The decision for one connection, and its reason.
package enum CredentialDecision: Sendable, Hashable {
    case send(Grant)
    case withhold(Withheld)

    package enum Grant: Sendable, Hashable {
        case pinned
        case trustedChain
        case localListener(owner: UInt32)
        case privatePlainText
    }

    package enum Withheld: Sendable, Hashable {
        /// The leaf on this connection is not the pinned one.
        case pinMismatch(expected: TLSFingerprint, observed: TLSFingerprint)
        /// A pin is set, but the connection is plain ws://: nothing to check it against.
        case pinWithoutTLS(expected: TLSFingerprint)
        /// Neither pinned nor CA-issued for the host: the fingerprint to pin.
        case unverifiedCertificate(observed: TLSFingerprint, chain: ChainVerdict)
        /// Plain ws:// to a host OpenClaw's clients send nothing to in clear text.
        case plainText(host: String)
        /// A listener on this machine run by another user (nil: the owner could not be told).
        case foreignLocalListener(owner: UInt32?)
    }

    package var sends: Bool {
        if case .send = self { return true }
        return false
    }
}
