import Crypto
import DNSSD
import Foundation
import SwiftASN1
import TestSupport
import Testing
import X509

@testable import Probes

/// Chain verification with swift-certificates' Verifier, on certificates made here: a root CA
/// (in a PEM bundle, as SSL_CERT_FILE names one), an intermediate, leaves.
@Suite("CA-issued certificates (Verifier)")
struct ChainTrustTests {
    struct Authority {
        let key: P256.Signing.PrivateKey
        let name: DistinguishedName
        let certificate: Certificate
    }

    static let now = Date()

    static func authority(_ name: String, issuer: Authority? = nil) throws -> Authority {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: now - 3600, notValidAfter: now + 86_400,
            issuer: issuer?.name ?? subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            }, issuerPrivateKey: .init(issuer?.key ?? key))
        return Authority(key: key, name: subject, certificate: certificate)
    }

    static func leaf(_ names: [GeneralName], issuer: Authority, validUntil: Date = now + 86_400) throws -> Certificate {
        let key = P256.Signing.PrivateKey()
        return try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: now - 7200, notValidAfter: validUntil,
            issuer: issuer.name, subject: try DistinguishedName { CommonName("gateway") }, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                BasicConstraints.notCertificateAuthority
                SubjectAlternativeNames(names)
            }, issuerPrivateKey: .init(issuer.key))
    }

    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    func bundle(_ authorities: [Authority]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("roots-\(uniqueTag()).pem").path
        try authorities.map { try $0.certificate.serializeAsPEM().pemString }.joined(separator: "\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("trusted for its names and its IP; other names, a missing intermediate, an unknown root, expiry and self-signed are not")
    func verdicts() async throws {
        let root = try Self.authority("test root")
        let intermediate = try Self.authority("test intermediate", issuer: root)
        let stranger = try Self.authority("another root")
        let leaf = try Self.leaf(
            [.dnsName("gw.example"), .ipAddress(ASN1OctetString(contentBytes: [203, 0, 113, 5]))], issuer: intermediate)
        let expired = try Self.leaf([.dnsName("gw.example")], issuer: intermediate, validUntil: Self.now - 60)
        let chain = [try Self.der(leaf), try Self.der(intermediate.certificate)]
        let roots = TrustRoots.bundle(path: try bundle([root]))
        let selfSigned = try StandInIdentity.make()
        let selfSignedDER = try Self.der(Certificate(pemEncoded: selfSigned.certificatePEM))
        let cases: [(String, [[UInt8]], String, TrustRoots, ChainVerdict)] = [
            ("for its name", chain, "gw.example", roots, .trusted),
            ("for its name with a trailing dot", chain, "gw.example.", roots, .trusted),
            ("for its IP", chain, "203.0.113.5", roots, .trusted),
            ("for another name", chain, "other.example", roots, .otherHost),
            ("for another IP", chain, "203.0.113.6", roots, .otherHost),
            ("without its intermediate", [chain[0]], "gw.example", roots, .untrusted),
            ("under another root", chain, "gw.example", .bundle(path: try bundle([stranger])), .untrusted),
            ("expired", [try Self.der(expired), chain[1]], "gw.example", roots, .untrusted),
            ("self-signed like OpenClaw's", [selfSignedDER], "gw.example", roots, .selfSigned),
            ("no chain at all", [], "gw.example", roots, .untrusted),
            ("garbage", [[0x30, 0x03, 0x02, 0x01, 0x00]], "gw.example", roots, .untrusted),
        ]
        for (name, presented, host, trust, expected) in cases {
            let verdict = await ChainTrust.verify(presented, host: host, roots: trust)
            #expect(verdict == expected, "\(name): \(verdict)")
        }
    }

    @Test("a trust bundle that is missing, a folder or holds no certificate: said so, nothing trusted")
    func unreadableRoots() async throws {
        let root = try Self.authority("test root")
        let leaf = try Self.leaf([.dnsName("gw.example")], issuer: root)
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(uniqueTag()).pem").path
        try "not a certificate\n".write(toFile: empty, atomically: true, encoding: .utf8)
        for path in ["/nonexistent/roots.pem", "/tmp", empty] {
            let verdict = await ChainTrust.verify([try Self.der(leaf)], host: "gw.example", roots: .bundle(path: path))
            guard case .noTrustRoots(let why) = verdict else {
                Issue.record("\(path): \(verdict)")
                continue
            }
            #expect(why.contains(path), "\(why)")
        }
    }
}
