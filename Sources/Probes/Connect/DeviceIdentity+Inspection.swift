import FoundationEssentials
import Host

/// What OpenClaw's node host makes of a device identity file at its start
/// (loadOrCreateDeviceIdentity and normalizeStoredIdentity in src/infra/device-identity.ts),
/// which decides whether the node shows the Gateway the same device every time.
package enum IdentityFileState: Sendable, Hashable {
    /// No file: the node host makes an identity and writes it (a new device, once).
    case missing
    /// There, but not readable here (permissions, not a regular file, too large).
    case unreadable(String)
    /// OpenClaw's keys with values that do not make one Ed25519 key pair, or no JSON at all:
    /// the node host leaves the file as it is and uses a new key at every start.
    case invalid(String)
    /// JSON without OpenClaw's keys: the node host writes a new identity over it (a new device, once).
    case notIdentity
    /// An identity the node host uses as it is; `storedIdMatches` false when its deviceId is not
    /// the key's hash (the node host corrects the file and uses the key's).
    case valid(deviceId: String, storedIdMatches: Bool)

    package var deviceId: String? {
        if case .valid(let deviceId, _) = self { return deviceId }
        return nil
    }
}

extension DeviceIdentity {
    /// The DER prefix of an Ed25519 public key in SPKI form (RFC 8410); the key bytes follow.
    static let spkiPrefix: [UInt8] = [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00]

    /// The file as the node host would read it, and the identity when it is one.
    package static func inspect(path: String) -> (state: IdentityFileState, identity: DeviceIdentity?) {
        let file: RegularFile.Owned
        do {
            // Its owner decides which local listeners may see a signature: taken from the file read.
            guard let read = try RegularFile.readProtectedIfPresent(path, limit: FileLimit.deviceIdentity) else { return (.missing, nil) }
            file = read
        } catch {
            return (.unreadable(error.description), nil)
        }
        guard let stored = try? JSONDecoder().decode(StoredShape.self, from: Data(file.bytes)) else {
            return (.invalid("not a JSON object"), nil)
        }
        guard stored.recognized else { return (.notIdentity, nil) }
        do {
            var identity = try checked(stored, path: path)
            (identity.owner, identity.mode) = (file.owner, file.mode)
            return (.valid(deviceId: identity.deviceId, storedIdMatches: stored.deviceId == identity.deviceId), identity)
        } catch {
            return (.invalid(error.description), nil)
        }
    }

    /// The fields OpenClaw reads, each nil when absent or of another type, and which keys are there.
    struct StoredShape: Decodable {
        let keys: Set<String>
        let version: Int?
        let deviceId: String?
        let publicKeyPem: String?
        let privateKeyPem: String?
        let publicKey: String?
        let privateKey: String?

        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            keys = Set(container.allKeys.map(\.stringValue))
            func text(_ name: String) -> String? { try? container.decodeIfPresent(String.self, forKey: Key(stringValue: name)) }
            version = try? container.decodeIfPresent(Int.self, forKey: Key(stringValue: "version"))
            deviceId = text("deviceId")
            publicKeyPem = text("publicKeyPem")
            privateKeyPem = text("privateKeyPem")
            publicKey = text("publicKey")
            privateKey = text("privateKey")
        }

        /// hasRecognizedIdentityShape: one of OpenClaw's key names is there.
        var recognized: Bool { !keys.isDisjoint(with: ["publicKeyPem", "privateKeyPem", "publicKey", "privateKey"]) }
    }

    /// OpenClaw's two shapes: version 1 with PEM keys, or the Swift apps' raw keys without a
    /// version; in both the public key must be the private key's (keyPairMatches).
    static func checked(_ stored: StoredShape, path: String) throws(Failure) -> DeviceIdentity {
        guard stored.deviceId != nil else { throw Failure(description: "\(path) has no deviceId") }
        if stored.version == 1, let publicPem = stored.publicKeyPem, let privatePem = stored.privateKeyPem {
            guard let der = pemBody(privatePem, label: "PRIVATE KEY"), der.count == pkcs8Prefix.count + 32,
                Array(der.prefix(pkcs8Prefix.count)) == pkcs8Prefix
            else { throw Failure(description: "\(path): privateKeyPem is not an Ed25519 PKCS#8 key") }
            let identity = try DeviceIdentity(seed: Array(der.suffix(32)))
            guard let spki = pemBody(publicPem, label: "PUBLIC KEY"), spki == spkiPrefix + (decodeBase64(identity.publicKey) ?? []) else {
                throw Failure(description: "\(path): publicKeyPem is not the public key of privateKeyPem")
            }
            return identity
        }
        if !stored.keys.contains("version"), let publicKey = stored.publicKey.flatMap(decodeBase64),
            let privateKey = stored.privateKey.flatMap(decodeBase64), publicKey.count == 32
        {
            let identity = try DeviceIdentity(seed: privateKey)
            guard decodeBase64(identity.publicKey) == publicKey else {
                throw Failure(description: "\(path): publicKey is not the public key of privateKey")
            }
            return identity
        }
        throw Failure(description: "\(path) has OpenClaw's key names, but not a version 1 PEM pair or the apps' raw pair")
    }
}
