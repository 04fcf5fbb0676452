import DNSSD
import Foundation

@testable import Doctor
@testable import Probes

/// Scenes of the connect handshake: each answer a Gateway gives, and what happened to the
/// credentials.
extension GoldenScene {
    static func connect(_ outcome: ConnectOutcome, token: GatewayToken? = nil, decision: CredentialDecision? = nil) -> Gateway {
        var target = Golden.target()
        target.credentials = ConnectCredentials(token: token)
        return Gateway(
            Golden.report(target) { report in
                report.connect = PhaseTiming(outcome: outcome, elapsed: .milliseconds(3))
                report.credentials = decision
            })
    }

    static let answers = GoldenScene("connect") { scene in
        let close = CloseFrame(code: 1008, reason: "device identity required")
        scene.gateways = [
            connect(.helloOk(HelloOk(protocolVersion: 4, serverVersion: "2026.5.1", role: "operator", scopes: []))),
            connect(.helloOk(HelloOk(protocolVersion: nil, serverVersion: nil, role: nil, scopes: [])), token: Golden.token),
            connect(
                .rejected(
                    ConnectCheckTests.error("NOT_PAIRED", "device identity required", detail: "DEVICE_IDENTITY_REQUIRED"), close: close)),
            connect(
                .rejected(
                    ConnectCheckTests.error("NOT_PAIRED", "device identity required", detail: "DEVICE_IDENTITY_REQUIRED"), close: nil),
                token: Golden.token),
            connect(
                .rejected(
                    ConnectCheckTests.error(
                        "NOT_PAIRED", "pairing required", detail: "PAIRING_REQUIRED", requestId: ConnectCheckTests.requestId), close: nil)),
            connect(.rejected(ConnectCheckTests.error("NOT_PAIRED", "pairing required", detail: "PAIRING_REQUIRED"), close: nil)),
            connect(
                .rejected(
                    ConnectCheckTests.error(
                        "INVALID_REQUEST", "unauthorized", detail: "AUTH_TOKEN_MISMATCH", next: "update_auth_credentials"),
                    close: CloseFrame(code: 1008, reason: "unauthorized: token mismatch")), token: Golden.token),
            connect(
                .rejected(
                    ConnectCheckTests.error("INVALID_REQUEST", "unauthorized", detail: "AUTH_TOKEN_MISMATCH", next: "wait_then_retry"),
                    close: nil)),
            connect(
                .rejected(
                    ConnectCheckTests.error(
                        "INVALID_REQUEST", "unauthorized", detail: "AUTH_TOKEN_MISSING", next: "update_auth_configuration"),
                    close: nil)),
            connect(
                .rejected(
                    ConnectCheckTests.error("INVALID_REQUEST", "too many", detail: "AUTH_RATE_LIMITED", next: "wait_then_retry"), close: nil
                )),
            connect(.rejected(ConnectCheckTests.error("INVALID_REQUEST", "unauthorized", detail: "AUTH_PASSWORD_MISMATCH"), close: nil)),
            connect(
                .rejected(
                    ConnectCheckTests.error("INVALID_REQUEST", "device signature invalid", detail: "DEVICE_AUTH_SIGNATURE_INVALID"),
                    close: nil)),
            connect(
                .rejected(
                    ConnectCheckTests.error("INVALID_REQUEST", "protocol mismatch", detail: "PROTOCOL_MISMATCH", expected: 5), close: nil)),
            connect(
                .rejected(
                    ConnectCheckTests.error("INVALID_REQUEST", "protocol mismatch", detail: "PROTOCOL_MISMATCH", expected: 3), close: nil)),
            connect(.rejected(ConnectCheckTests.error("INVALID_REQUEST", "protocol mismatch"), close: nil)),
            connect(.rejected(ConnectCheckTests.error("UNAVAILABLE", "gateway starting; retry shortly", retryAfterMs: 500), close: nil)),
            connect(.closed(CloseFrame(code: 1008, reason: "invalid request frame"))),
            connect(.closed(CloseFrame(code: nil, reason: ""))),
            connect(
                .rejected(ConnectCheckTests.error("INVALID_REQUEST", "invalid role"), close: CloseFrame(code: 1008, reason: "invalid role"))
            ),
            connect(.timedOut), connect(.unexpected("<html>")), connect(.failed("connection reset")),
        ]
    }

    static let credentials = GoldenScene("credentials") { scene in
        let required = ConnectOutcome.rejected(
            ConnectCheckTests.error("NOT_PAIRED", "device identity required", detail: "DEVICE_IDENTITY_REQUIRED"), close: nil)
        let hello = ConnectOutcome.helloOk(HelloOk(protocolVersion: 4, serverVersion: "2026.5.1", role: "operator", scopes: []))
        let withheld: [CredentialDecision.Withheld] = [
            .pinMismatch(expected: Recorded.otherSHA, observed: Recorded.certificateSHA),
            .unverifiedCertificate(observed: Recorded.certificateSHA, chain: .selfSigned),
            .unverifiedCertificate(observed: Recorded.certificateSHA, chain: .otherHost),
            .unverifiedCertificate(observed: Recorded.certificateSHA, chain: .untrusted),
            .unverifiedCertificate(observed: Recorded.certificateSHA, chain: .noTrustRoots("no such file")),
            .unverifiedCertificate(observed: Recorded.certificateSHA, chain: .notChecked),
            .unverifiedCertificate(observed: Recorded.certificateSHA, chain: .trusted),
            .plainText(host: "203.0.113.1"), .pinWithoutTLS(expected: Recorded.otherSHA), .foreignLocalListener(owner: 65534),
            .foreignLocalListener(owner: nil),
        ]
        let grants: [CredentialDecision.Grant] = [
            .pinned, .trustedChain, .localListener(owner: 0), .localListener(owner: 1000), .privatePlainText,
        ]
        scene.gateways =
            withheld.map { connect(required, token: Golden.token, decision: .withhold($0)) }
            + [
                connect(
                    .closed(CloseFrame(code: 1008, reason: "bye")), token: Golden.token, decision: .withhold(.plainText(host: "gw.example"))
                )
            ]
            + grants.map { connect(hello, token: Golden.token, decision: .send($0)) }
    }
}
