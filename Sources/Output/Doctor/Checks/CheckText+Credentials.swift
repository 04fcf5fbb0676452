import DNSSD
import Doctor
import Probes

/// The words of what happened to the credentials: whether they went with the connect request
/// (and what verified the peer), or why they were withheld, with the fingerprint to pin.
extension CheckText {
    static func credentialWords(_ credentials: ConnectCredentials) -> String {
        switch (credentials.token, credentials.device) {
        case (let token?, nil): "\(token)"
        case (nil, let device?): "the signature of \(device)"
        case (let token?, let device?): "\(token) and the signature of \(device)"
        case (nil, nil): "nothing"
        }
    }

    static func grantWords(_ grant: CredentialDecision.Grant, host: String) -> String {
        switch grant {
        case .pinned: "the certificate matches the pin"
        case .trustedChain: "a CA this machine trusts issued the certificate for \(host)"
        case .localListener(let owner): "the listener on this machine is run by \(owner == 0 ? "root" : "uid \(owner)")"
        case .privatePlainText: "plain ws:// on a private network, as OpenClaw's clients allow"
        }
    }

    /// Why credentials were withheld, and the fix.
    static func withholding(_ withheld: CredentialDecision.Withheld, _ evidence: ConnectEvidence) -> (why: String, fix: String) {
        let onHost =
            "check it on the Gateway host (`openssl x509 -in ~/.openclaw/gateway/tls/gateway-cert.pem -outform DER | sha256sum`)"
        switch withheld {
        case .pinMismatch(let expected, let observed):
            return (
                "the certificate on this connection is not the pinned one (expected \(expected.hex), observed \(observed.hex))",
                "if the Gateway's certificate was rotated, \(onHost) and pin the new one; otherwise something intercepts TLS"
            )
        case .pinWithoutTLS:
            return (
                "a pin is set, but plain ws:// has no certificate to check it against",
                "connect with wss:// (gateway.tls.enabled on the Gateway) so the pin can be checked"
            )
        case .unverifiedCertificate(let observed, let chain):
            return (
                "the certificate (sha256 \(observed.hex)) is not pinned, and \(chainWords(chain, host: evidence.host))",
                "\(onHost), then pin it: `clawnet doctor \(ShellWord.quoted("wss://" + evidence.hostHeader)) "
                    + "--pin sha256:\(observed.hex)` (a node: gateway.remote.tlsFingerprint)"
            )
        case .plainText(let host):
            return (
                "plain ws:// to \(host) would carry it in clear text (OpenClaw's clients send it over ws:// only to loopback, private "
                    + "addresses, .local and *.ts.net names)",
                "use wss:// (gateway.tls.enabled, or Tailscale Serve) or an SSH tunnel to ws://127.0.0.1; on a trusted private network "
                    + "OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1 allows a private address"
            )
        case .foreignLocalListener(let owner):
            let who = owner.map { "uid \($0)" } ?? "a user clawnet could not tell (/proc/net/tcp)"
            return (
                "what listens on \(evidence.hostHeader) is run by \(who), neither root nor the user the credentials belong to (the "
                    + "Gateway may be down and another user listening on its port)",
                "`ss -ltnp 'sport = :\(evidence.port)'` names the process; run the Gateway as the user whose config holds the token, or "
                    + "as root"
            )
        }
    }

    static func chainWords(_ chain: ChainVerdict, host: String) -> String {
        switch chain {
        case .trusted: "a CA trusts it"
        case .otherHost: "a CA this machine trusts issued it for other names than \(host)"
        case .selfSigned: "it is self-signed (as OpenClaw's Gateway makes its own)"
        case .untrusted: "no CA this machine trusts issued it (or it is not valid now)"
        case .noTrustRoots(let problem): "the trust store could not be read (\(problem))"
        case .notChecked: "it was not checked against a CA"
        }
    }
}
