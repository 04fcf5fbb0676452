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
public struct DeviceIdentity: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let deviceId: String
    /// The raw public key, base64url without padding (`publicKeyRawBase64UrlFromPem`).
    public let publicKey: String
    private let seed: [UInt8]
    /// The user who owns the file it was read from: a listener on this machine is shown the
    /// identity only when that user or root runs it.
    public var owner: UInt32?

    public var description: String { "device \(deviceId.prefix(12))…" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["deviceId": deviceId]) }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The DER prefixes of an Ed25519 key in PKCS#8 (private) and SPKI (public) form; the key
    /// bytes follow (RFC 8410).
    static let pkcs8Prefix: [UInt8] = [0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]

    public init(seed: [UInt8]) throws(Failure) {
        guard seed.count == 32, let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) else {
            throw Failure(description: "not an Ed25519 private key (32 bytes)")
        }
        self.seed = seed
        let raw = Array(key.publicKey.rawRepresentation)
        self.publicKey = Self.base64URL(raw)
        self.deviceId = TLSFingerprint(digest: Array(SHA256.hash(data: raw))).hex
    }

    /// The identity in the file at `path`: a regular file of at most `FileLimit.deviceIdentity`
    /// bytes, refused before anything is read otherwise.
    public static func load(path: String) throws(Failure) -> DeviceIdentity {
        let (bytes, owner): ([UInt8], UInt32)
        do { (bytes, owner) = try RegularFile.readOwned(path, limit: FileLimit.deviceIdentity) } catch {
            throw Failure(description: error.description)
        }
        var identity = try parse(Data(bytes), path: path)
        identity.owner = owner
        return identity
    }

    static func parse(_ data: Data, path: String) throws(Failure) -> DeviceIdentity {
        guard let object = try? JSONDecoder().decode(Stored.self, from: data) else {
            throw Failure(description: "\(path) is not an OpenClaw device identity (JSON with deviceId and a private key)")
        }
        if let pem = object.privateKeyPem {
            guard let der = pemBody(pem, label: "PRIVATE KEY"), der.count == pkcs8Prefix.count + 32,
                Array(der.prefix(pkcs8Prefix.count)) == pkcs8Prefix
            else {
                throw Failure(description: "\(path): privateKeyPem is not an Ed25519 PKCS#8 key")
            }
            return try DeviceIdentity(seed: Array(der.suffix(32)))
        }
        if let raw = object.privateKey.flatMap(decodeBase64) {
            // Swift apps keep the 32-byte seed (CryptoKit's rawRepresentation).
            return try DeviceIdentity(seed: raw)
        }
        throw Failure(description: "\(path) has no privateKeyPem or privateKey")
    }

    /// A fresh identity, for tests and the stand-in Gateway.
    public static func generate() -> DeviceIdentity {
        try! DeviceIdentity(seed: Array(Curve25519.Signing.PrivateKey().rawRepresentation))
    }

    /// OpenClaw's file, version 1, for this identity.
    public func storedJSON(createdAtMs: Int64 = 0) -> String {
        let der = Self.pkcs8Prefix + seed
        let pem = "-----BEGIN PRIVATE KEY-----\n" + Data(der).base64EncodedString() + "\n-----END PRIVATE KEY-----\n"
        let escaped = pem.replacing("\n", with: "\\n")
        return """
            {"version":1,"deviceId":"\(deviceId)","privateKeyPem":"\(escaped)","createdAtMs":\(createdAtMs)}

            """
    }

    /// The signature OpenClaw's signDevicePayload makes: Ed25519 over the UTF-8 payload,
    /// base64url without padding.
    public func sign(_ payload: String) -> String {
        let key = try! Curve25519.Signing.PrivateKey(rawRepresentation: seed)
        return Self.base64URL(Array((try? key.signature(for: Data(payload.utf8))) ?? Data()))
    }

    /// Whether `signature` (base64url) is this public key's signature of `payload`.
    public static func verify(publicKey: String, payload: String, signature: String) -> Bool {
        guard let raw = decodeBase64(publicKey), let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw),
            let bytes = decodeBase64(signature)
        else { return false }
        return key.isValidSignature(Data(bytes), for: Data(payload.utf8))
    }

    /// The device id a raw public key (base64url) stands for.
    public static func deviceId(ofPublicKey publicKey: String) -> String? {
        decodeBase64(publicKey).map { TLSFingerprint(digest: Array(SHA256.hash(data: $0))).hex }
    }

    private struct Stored: Decodable {
        let privateKeyPem: String?
        let privateKey: String?
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
