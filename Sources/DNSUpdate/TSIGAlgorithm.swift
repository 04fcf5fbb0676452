import Crypto
import DNSSD
import DNSWire

/// The TSIG algorithms (RFC 8945 §6) that BIND's `tsig-keygen -a` and Knot's `keymgr -t`
/// make keys for.
package enum TSIGAlgorithm: String, CaseIterable, Sendable {
    case hmacMD5 = "hmac-md5.sig-alg.reg.int"
    case hmacSHA1 = "hmac-sha1"
    case hmacSHA224 = "hmac-sha224"
    case hmacSHA256 = "hmac-sha256"
    case hmacSHA384 = "hmac-sha384"
    case hmacSHA512 = "hmac-sha512"

    /// As key files spell it: any case, `hmac-md5` for the long MD5 name, a trailing dot allowed.
    package init?(name: String) {
        var text = name.lowercased()
        if text.hasSuffix(".") { text.removeLast() }
        if text == "hmac-md5" { text = Self.hmacMD5.rawValue }
        self.init(rawValue: text)
    }

    /// The algorithm's domain name, as it goes into the TSIG record.
    package var dnsName: DNSName {
        (try? DNSName(presentation: rawValue + ".")) ?? .root
    }

    /// The short name for messages and nsupdate (`hmac-md5`, `hmac-sha256`, ...).
    package var shortName: String { self == .hmacMD5 ? "hmac-md5" : rawValue }

    /// nil only when OpenSSL cannot compute HMAC-SHA224 (out of memory): never an empty MAC,
    /// which a server would answer with BADSIG and a verifier could mistake for an answer.
    package func mac(key: [UInt8], message: [UInt8]) -> [UInt8]? {
        let symmetric = SymmetricKey(data: key)
        switch self {
        case .hmacMD5: return Array(HMAC<Insecure.MD5>.authenticationCode(for: message, using: symmetric))
        case .hmacSHA1: return Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: symmetric))
        case .hmacSHA224: return OpenSSLHMAC.sha224(key: key, message: message)
        case .hmacSHA256: return Array(HMAC<SHA256>.authenticationCode(for: message, using: symmetric))
        case .hmacSHA384: return Array(HMAC<SHA384>.authenticationCode(for: message, using: symmetric))
        case .hmacSHA512: return Array(HMAC<SHA512>.authenticationCode(for: message, using: symmetric))
        }
    }
}
