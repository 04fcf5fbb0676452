import CLDNS

/// HMAC-SHA224 through OpenSSL's libcrypto, which ldns already links: TSIG keys made with
/// `tsig-keygen -a hmac-sha224` or `keymgr -t NAME hmac-sha224` need it, and swift-crypto
/// has no SHA-224. Every other TSIG algorithm uses swift-crypto.
package enum OpenSSLHMAC {
    package static func sha224(key: [UInt8], message: [UInt8]) -> [UInt8]? {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                HMAC(
                    EVP_sha224(), keyBytes.baseAddress, Int32(keyBytes.count),
                    messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    messageBytes.count, &digest, &length)
            }
        }
        return result == nil ? nil : Array(digest.prefix(Int(length)))
    }
}
