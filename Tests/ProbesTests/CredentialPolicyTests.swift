import DNSSD
import Foundation
import TestSupport
import Testing

@testable import Probes

/// The rule for credentials, case by case: pin, CA chain, loopback owner, plain ws://.
@Suite("Credential policy (table)")
struct CredentialPolicyTests {
    static let pinned = TLSFingerprint(digest: [UInt8](repeating: 0xAB, count: 32))
    static let other = TLSFingerprint(digest: [UInt8](repeating: 0xCD, count: 32))

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let policy: CredentialPolicy
        let peer: CredentialPolicy.Peer
        let expected: CredentialDecision
        var testDescription: String { name }
    }

    static func peer(
        _ host: String, _ address: String, leaf: TLSFingerprint? = nil, chain: ChainVerdict = .notChecked, owner: UInt32? = nil,
        trusted: Set<UInt32> = [0, 1000], own: Bool = false
    ) -> CredentialPolicy.Peer {
        CredentialPolicy.Peer(
            host: host, address: IPAddress(address)!, leaf: leaf, chain: chain, localOwner: owner, trustedOwners: trusted, isOwnAddress: own
        )
    }

    static let pin = CredentialPolicy(pin: pinned)
    static let open = CredentialPolicy()

    static let cases: [Case] = [
        // A pin alone decides, wherever the Gateway is, whatever a CA says.
        Case(name: "pin matches", policy: pin, peer: peer("gw.example", "203.0.113.5", leaf: pinned), expected: .send(.pinned)),
        Case(
            name: "pin differs", policy: pin, peer: peer("gw.example", "203.0.113.5", leaf: other),
            expected: .withhold(.pinMismatch(expected: pinned, observed: other))),
        Case(
            name: "pin differs though a CA vouches", policy: pin, peer: peer("gw.example", "203.0.113.5", leaf: other, chain: .trusted),
            expected: .withhold(.pinMismatch(expected: pinned, observed: other))),
        Case(
            name: "pin differs on loopback run by root", policy: pin, peer: peer("127.0.0.1", "127.0.0.1", leaf: other, owner: 0),
            expected: .withhold(.pinMismatch(expected: pinned, observed: other))),
        Case(
            name: "pin, but plain ws://", policy: pin, peer: peer("10.0.0.5", "10.0.0.5"),
            expected: .withhold(.pinWithoutTLS(expected: pinned))),
        // No pin: a CA-issued certificate for the host.
        Case(
            name: "CA chain for the host", policy: open, peer: peer("gw.tail1234.ts.net", "100.101.102.5", leaf: other, chain: .trusted),
            expected: .send(.trustedChain)),
        Case(
            name: "CA chain for other names", policy: open, peer: peer("gw.example", "203.0.113.5", leaf: other, chain: .otherHost),
            expected: .withhold(.unverifiedCertificate(observed: other, chain: .otherHost))),
        Case(
            name: "self-signed, not pinned, on the LAN", policy: open,
            peer: peer("studio.local", "192.168.1.20", leaf: other, chain: .selfSigned),
            expected: .withhold(.unverifiedCertificate(observed: other, chain: .selfSigned))),
        Case(
            name: "unknown CA", policy: open, peer: peer("gw.example", "203.0.113.5", leaf: other, chain: .untrusted),
            expected: .withhold(.unverifiedCertificate(observed: other, chain: .untrusted))),
        // This machine: the owner of the listening socket decides.
        Case(
            name: "TLS loopback run by root", policy: open, peer: peer("127.0.0.1", "127.0.0.1", leaf: other, chain: .selfSigned, owner: 0),
            expected: .send(.localListener(owner: 0))),
        Case(
            name: "plain loopback run by the token's user", policy: open, peer: peer("localhost", "127.0.0.1", owner: 1000),
            expected: .send(.localListener(owner: 1000))),
        Case(
            name: "plain ::1 run by nobody", policy: open, peer: peer("::1", "::1", owner: 65534),
            expected: .withhold(.foreignLocalListener(owner: 65534))),
        Case(
            name: "IPv4-mapped loopback run by nobody", policy: open, peer: peer("::ffff:127.0.0.1", "::ffff:127.0.0.1", owner: 65534),
            expected: .withhold(.foreignLocalListener(owner: 65534))),
        Case(
            name: "loopback, owner unknown", policy: open, peer: peer("127.0.0.1", "127.0.0.1"),
            expected: .withhold(.foreignLocalListener(owner: nil))),
        Case(
            name: "TLS loopback by nobody", policy: open,
            peer: peer("127.0.0.1", "127.0.0.1", leaf: other, chain: .selfSigned, owner: 65534),
            expected: .withhold(.foreignLocalListener(owner: 65534))),
        // An address of this machine's own interfaces is this machine too (issue 18).
        Case(
            name: "ws:// to this machine's 10.77.0.2 run by nobody", policy: open,
            peer: peer("10.77.0.2", "10.77.0.2", owner: 65534, own: true),
            expected: .withhold(.foreignLocalListener(owner: 65534))),
        Case(
            name: "ws:// to this machine's address, owner unknown", policy: open, peer: peer("studio.local", "192.168.1.20", own: true),
            expected: .withhold(.foreignLocalListener(owner: nil))),
        Case(
            name: "ws:// to this machine's address run by root", policy: open, peer: peer("10.77.0.2", "10.77.0.2", owner: 0, own: true),
            expected: .send(.localListener(owner: 0))),
        Case(
            name: "TLS to this machine's address by nobody", policy: open,
            peer: peer("10.77.0.2", "10.77.0.2", leaf: other, chain: .selfSigned, owner: 65534, own: true),
            expected: .withhold(.foreignLocalListener(owner: 65534))),
        Case(
            name: "pinned, on this machine's address", policy: pin,
            peer: peer("10.77.0.2", "10.77.0.2", leaf: pinned, owner: 65534, own: true),
            expected: .send(.pinned)),
        // Plain ws://, OpenClaw's rule: private literals, .local, *.ts.net.
        Case(name: "ws:// to 192.168.1.20", policy: open, peer: peer("192.168.1.20", "192.168.1.20"), expected: .send(.privatePlainText)),
        Case(name: "ws:// to 10.0.0.5", policy: open, peer: peer("10.0.0.5", "10.0.0.5"), expected: .send(.privatePlainText)),
        Case(name: "ws:// to a tailnet IP", policy: open, peer: peer("100.101.102.5", "100.101.102.5"), expected: .send(.privatePlainText)),
        Case(name: "ws:// to studio.local", policy: open, peer: peer("studio.local.", "192.168.1.20"), expected: .send(.privatePlainText)),
        Case(
            name: "ws:// to a .ts.net name", policy: open, peer: peer("gw.tail1.ts.net", "100.101.102.5"),
            expected: .send(.privatePlainText)),
        Case(
            name: "ws:// to a public address", policy: open, peer: peer("203.0.113.1", "203.0.113.1"),
            expected: .withhold(.plainText(host: "203.0.113.1"))),
        Case(
            // An SRV target: its root dot goes where the probe target is built, once.
            name: "ws:// to a public name", policy: open,
            peer: peer(ProbeTarget(label: "gw", host: "gw.example.com.", addresses: [], port: 443, tls: false).host, "198.51.100.7"),
            expected: .withhold(.plainText(host: "gw.example.com"))),
        Case(
            name: "ws:// to a private DNS name", policy: open, peer: peer("gateway.lan", "192.168.1.20"),
            expected: .withhold(.plainText(host: "gateway.lan"))),
        Case(
            name: "ws:// to a private DNS name, break-glass", policy: CredentialPolicy(allowPrivatePlainText: true),
            peer: peer("gateway.lan", "192.168.1.20"), expected: .send(.privatePlainText)),
        Case(
            name: "ws:// to a public name, break-glass", policy: CredentialPolicy(allowPrivatePlainText: true),
            peer: peer("gw.example.com", "198.51.100.7"), expected: .withhold(.plainText(host: "gw.example.com"))),
    ]

    @Test("each case decides as the rule says", arguments: cases)
    func decide(_ testCase: Case) {
        let decision = testCase.policy.decide(testCase.peer)
        #expect(decision == testCase.expected, "\(testCase.name): \(decision)")
    }

    @Test("root and the credentials' one owner are trusted locally; two owners leave only root")
    func owners() throws {
        var token = try #require(GatewayToken("t", source: "test", owner: 1000))
        #expect(CredentialGate.trustedOwners(ConnectCredentials(token: token)) == [0, 1000])
        var device = DeviceIdentity.generate()
        device.owner = 1000
        #expect(CredentialGate.trustedOwners(ConnectCredentials(token: token, device: device)) == [0, 1000])
        device.owner = 1001
        #expect(CredentialGate.trustedOwners(ConnectCredentials(token: token, device: device)) == [0])
        token.owner = nil
        #expect(CredentialGate.trustedOwners(ConnectCredentials(token: token)) == [0, geteuid()])
    }

    @Test("a device identity prints as its id: no description, dump or mirror holds the private key")
    func deviceIdentityIsQuiet() throws {
        let identity = DeviceIdentity.generate()
        // The key's base64 in OpenClaw's file: the fixed PKCS#8 prefix, then the private key.
        let stored = identity.storedJSON()
        let body = try #require(stored.components(separatedBy: "-----BEGIN PRIVATE KEY-----\\n").last?.components(separatedBy: "\\n").first)
        let privateKey = String(body.suffix(24))
        var dumped = ""
        dump(ConnectCredentials(device: identity), to: &dumped)
        for text in ["\(identity)", String(reflecting: identity), dumped, "\(ConnectCredentials(device: identity))"] {
            #expect(!text.contains(privateKey) && text.contains(identity.deviceId.prefix(12)), "\(text)")
            #expect(!text.contains("seed"), "\(text)")
        }
    }
}
