import Crypto
import DNSSD
import FoundationEssentials
import Host

/// A node's device identity: the Ed25519 key pair OpenClaw keeps in
/// `~/.openclaw/identity/device.json` and signs connect requests with. Read as OpenClaw's
/// src/infra/device-identity.ts stores it (version 1: `deviceId`, `publicKeyPem` (SPKI),
/// `privateKeyPem` (PKCS#8)) or as its Swift apps do (`deviceId`, `publicKey`, `privateKey`,
/// raw keys in base64). The device id is the SHA-256 of the raw public key, in hex. It prints
/// as its device id: no interpolation, dump or log line carries the private key.
package struct DeviceIdentity: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package let deviceId: String
    /// The raw public key, base64url without padding (`publicKeyRawBase64UrlFromPem`).
    package let publicKey: String
    private let seed: [UInt8]
    /// The user who owns the file it was read from: a listener on this machine is shown the
    /// identity only when that user or root runs it.
    package var owner: UInt32?
    /// The permission bits of that file, for the warning when others may read it.
    package var mode: UInt32?

    package var description: String { "device \(deviceId.prefix(12))…" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: ["deviceId": deviceId]) }

    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// The DER prefixes of an Ed25519 key in PKCS#8 (private) and SPKI (public) form; the key
    /// bytes follow (RFC 8410).
    static let pkcs8Prefix: [UInt8] = [0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]

    package init(seed: [UInt8]) throws(Failure) {
        guard seed.count == 32, let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) else {
            throw Failure(description: "not an Ed25519 private key (32 bytes)")
        }
        self.seed = seed
        let raw = Array(key.publicKey.rawRepresentation)
        self.publicKey = Self.base64URL(raw)
        self.deviceId = TLSFingerprint(digest: Array(SHA256.hash(data: raw))).hex
    }

    /// The identity at `path`, as OpenClaw's node host accepts it (`inspect`); a file the node
    /// host would not use is refused, saying what the node host does with it instead.
    /// `path` may be `-` or a pipe (`--as-device <(pass show node-identity)`), read once with the
    /// same bound: its owner (whoever made the pipe) decides where a signature may be shown, as a
    /// file's does; a pipe has no mode others could read it by, so it gets no such warning.
    package static func load(path: String) throws(Failure) -> DeviceIdentity {
        if RegularFile.isStream(path) {
            let (bytes, owner): ([UInt8], UInt32)
            do { (bytes, owner) = try RegularFile.readInput(path, limit: FileLimit.deviceIdentity) } catch {
                throw Failure(description: error.description)
            }
            var identity = try parse(Data(bytes), path: path == RegularFile.standardInput ? "standard input" : path)
            identity.owner = owner
            return identity
        }
        let (state, identity) = inspect(path: path)
        guard let identity else {
            let consequence: String
            switch state {
            case .missing, .unreadable: consequence = ""
            case .notIdentity: consequence = ": OpenClaw's node host would write a new identity over it (a new device)"
            case .invalid, .valid: consequence = ": OpenClaw's node host would not use it either (a new key at every start)"
            }
            throw Failure(description: "\(reason(state, path: path))\(consequence)")
        }
        return identity
    }

    static func reason(_ state: IdentityFileState, path: String) -> String {
        switch state {
        case .missing: "cannot read \(path): no such file"
        case .unreadable(let why): why
        case .invalid(let why): why.hasPrefix(path) ? why : "\(path): \(why)"
        case .notIdentity: "\(path) is not an OpenClaw device identity (JSON with deviceId and a key pair)"
        case .valid: path
        }
    }

    static func parse(_ data: Data, path: String) throws(Failure) -> DeviceIdentity {
        guard let stored = try? JSONDecoder().decode(StoredShape.self, from: data), stored.recognized else {
            throw Failure(description: "\(path) is not an OpenClaw device identity (JSON with deviceId and a key pair)")
        }
        return try checked(stored, path: path)
    }

    /// A fresh identity, for tests and the stand-in Gateway.
    package static func generate() -> DeviceIdentity {
        try! DeviceIdentity(seed: Array(Curve25519.Signing.PrivateKey().rawRepresentation))
    }

    /// OpenClaw's file, version 1, for this identity (both keys in PEM, as the node host writes it).
    package func storedJSON(createdAtMs: Int64 = 0) -> String {
        func pem(_ der: [UInt8], _ label: String) -> String {
            let text = "-----BEGIN \(label)-----\n" + Data(der).base64EncodedString() + "\n-----END \(label)-----\n"
            return text.replacing("\n", with: "\\n")
        }
        let publicPem = pem(Self.spkiPrefix + (Self.decodeBase64(publicKey) ?? []), "PUBLIC KEY")
        let privatePem = pem(Self.pkcs8Prefix + seed, "PRIVATE KEY")
        return """
            {"version":1,"deviceId":"\(deviceId)","publicKeyPem":"\(publicPem)",\
            "privateKeyPem":"\(privatePem)","createdAtMs":\(createdAtMs)}

            """
    }

    /// The signature OpenClaw's signDevicePayload makes: Ed25519 over the UTF-8 payload,
    /// base64url without padding.
    package func sign(_ payload: String) -> String {
        let key = try! Curve25519.Signing.PrivateKey(rawRepresentation: seed)
        return Self.base64URL(Array((try? key.signature(for: Data(payload.utf8))) ?? Data()))
    }

    /// Whether `signature` (base64url) is this public key's signature of `payload`.
    package static func verify(publicKey: String, payload: String, signature: String) -> Bool {
        guard let raw = decodeBase64(publicKey), let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw),
            let bytes = decodeBase64(signature)
        else { return false }
        return key.isValidSignature(Data(bytes), for: Data(payload.utf8))
    }

    /// The device id a raw public key (base64url) stands for.
    package static func deviceId(ofPublicKey publicKey: String) -> String? {
        decodeBase64(publicKey).map { TLSFingerprint(digest: Array(SHA256.hash(data: $0))).hex }
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacing("+", with: "-").replacing("/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// base64 or base64url, padded or not.
    static func decodeBase64(_ text: String) -> [UInt8]? {
        var normalized = text.trimmingSpaces().replacing("-", with: "+").replacing("_", with: "/")
        while normalized.count % 4 != 0 { normalized += "=" }
        return Data(base64Encoded: normalized).map(Array.init)
    }

    static func pemBody(_ pem: String, label: String) -> [UInt8]? {
        guard let begin = pem.firstRange(of: "-----BEGIN \(label)-----"), let end = pem.firstRange(of: "-----END \(label)-----"),
            begin.upperBound <= end.lowerBound
        else { return nil }
        return Data(base64Encoded: String(pem[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace })).map(Array.init)
    }
}
