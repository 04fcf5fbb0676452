import DNSSD
import FoundationEssentials
import Host
import SwiftASN1
import X509

/// Checks the chain a server presented as a browser would (swift-certificates' Verifier: RFC
/// 5280 path building and validity, RFC 6125 server identity for the host), against the
/// trust roots of the policy.
enum ChainTrust {
    /// A PEM bundle of every CA a distribution trusts is about 200 KB.
    static let bundleLimit = 16 << 20
    /// The presented chain is the leaf and a few intermediates; more is not a real server's.
    static let maxIntermediates = 8

    /// `chain` is the DER certificates as presented, leaf first.
    static func verify(_ chain: [[UInt8]], host: String, roots: TrustRoots) async -> ChainVerdict {
        guard let first = chain.first, let leaf = try? Certificate(derEncoded: first) else { return .untrusted }
        let store: CertificateStore
        switch loadRoots(roots) {
        case .success(let loaded): store = loaded
        case .failure(let problem): return .noTrustRoots(problem.description)
        }
        let intermediates = CertificateStore(chain.dropFirst().prefix(maxIntermediates).compactMap { try? Certificate(derEncoded: $0) })
        let literal = IPAddress(host)
        var verifier = Verifier(rootCertificates: store) {
            RFC5280Policy()
            ServerIdentityPolicy(serverHostname: literal == nil ? host : nil, serverIP: literal?.withoutZone.description)
        }
        if case .validCertificate = await verifier.validate(leaf: leaf, intermediates: intermediates) { return .trusted }
        // Why not: a chain to a trusted root for other names, a self-signed leaf, or no path.
        var pathOnly = Verifier(rootCertificates: store) { RFC5280Policy() }
        if case .validCertificate = await pathOnly.validate(leaf: leaf, intermediates: intermediates) { return .otherHost }
        return leaf.issuer == leaf.subject ? .selfSigned : .untrusted
    }

    struct RootsProblem: Error, CustomStringConvertible {
        let description: String
    }

    static func loadRoots(_ roots: TrustRoots) -> Result<CertificateStore, RootsProblem> {
        switch roots {
        case .system:
            return .success(CertificateStore.systemTrustRoots)
        case .bundle(let path):
            let bytes: [UInt8]
            do { bytes = try RegularFile.read(path, limit: bundleLimit) } catch {
                return .failure(RootsProblem(description: "SSL_CERT_FILE: \(error.description)"))
            }
            let documents = (try? PEMDocument.parseMultiple(pemString: String(decoding: bytes, as: UTF8.self))) ?? []
            let certificates = documents.compactMap { try? Certificate(pemDocument: $0) }
            guard !certificates.isEmpty else {
                return .failure(RootsProblem(description: "SSL_CERT_FILE \(path) holds no PEM certificate"))
            }
            return .success(CertificateStore(certificates))
        }
    }
}
