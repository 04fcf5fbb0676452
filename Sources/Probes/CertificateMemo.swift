import DNSSD
import Synchronization

/// The facts read from each certificate seen lately, by fingerprint: watch sees the same
/// certificates every interval, and parsing one (and checking its self-signature) was a good
/// part of a probe's cost. Facts depend on the DER bytes alone, which the SHA-256 names.
enum CertificateMemo {
    /// More certificates than this and the memo starts over (a bound, not a working-set size:
    /// a fleet of a thousand Gateways fits).
    static let limit = 4_096

    private static let memo = Mutex<[TLSFingerprint: Facts]>([:])

    typealias Facts = (certificate: CertificateFacts?, problem: String?)

    static func facts(_ der: [UInt8], fingerprint: TLSFingerprint) -> Facts {
        if let known = memo.withLock({ $0[fingerprint] }) { return known }
        let read = CertificateFacts.read(der)
        memo.withLock { memo in
            if memo.count >= limit { memo.removeAll(keepingCapacity: true) }
            memo[fingerprint] = read
        }
        return read
    }
}
