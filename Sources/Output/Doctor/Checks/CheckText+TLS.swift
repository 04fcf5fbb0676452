import DNSSD
import Doctor
import FoundationEssentials
import Probes

/// The words of gw.tls, gw.pin and gw.cert.
extension CheckText {
    static func tls(_ evidence: TLSEvidence) -> CheckText {
        guard let phase = evidence.phase else { return skipped(.gwTLS, .plainGateway) }
        let port = evidence.port
        switch phase.outcome {
        case .established(let facts):
            guard facts.version == .tls13 else {
                return CheckText(
                    "the server negotiated \(facts.version) (\(facts.cipher ?? "cipher unknown")); OpenClaw Gateways require TLS 1.3",
                    fix:
                        "something other than the Gateway answers TLS (a proxy or load balancer?): make it speak TLS 1.3 or pass TLS "
                        + "through"
                )
            }
            return CheckText("\(facts.version), \(facts.cipher ?? "cipher unknown"), sha256 \(facts.fingerprint.hex)")
        case .notTLS(let first):
            let http = first.starts(with: Array("HTTP/".utf8))
            return CheckText(
                "the server answered \"\(SafeText.display(first.prefix(24)))…\" instead of a TLS handshake",
                fix: http
                    ? "the Gateway serves plain HTTP/WebSocket: connect with ws:// (or enable gateway.tls on it)"
                    : "something that is neither TLS nor the Gateway listens on port \(port)")
        case .alert(let alert):
            return CheckText(
                "the server refused the handshake with \(alert)", fix: "OpenClaw Gateways speak TLS 1.3; check what listens on port \(port)"
            )
        case .handshakeFailed(let reason):
            return CheckText("TLS handshake failed: \(reason)", fix: "check that the Gateway, not a proxy, answers on port \(port)")
        case .timedOut(let bytes):
            return CheckText(
                "no TLS handshake within \(seconds(evidence.budget)) s (\(bytes) bytes received): the server accepts connections but does "
                    + "not answer TLS",
                fix:
                    "is the Gateway hung, or is this a plain TCP service? Try `openssl s_client -connect "
                    + "\(evidence.address.map { authority($0, port) } ?? "?")`")
        }
    }

    /// This machine's own port answered TLS to a plain ws:// probe, and was checked as wss://.
    /// The setting is OpenClaw's gateway.tls.enabled (openclaw/openclaw src/config/types.gateway.ts
    /// GatewayTlsConfig).
    static func tlsNotConfigured(_ evidence: TLSEvidence) -> CheckText {
        CheckText(
            tls(evidence).message + "; no OpenClaw config here says TLS (gateway.tls.enabled), so plain ws:// was tried first and "
                + "got TLS: checked as wss://",
            fix: "connect to `wss://127.0.0.1:\(evidence.port)`, not ws://; set gateway.tls.enabled: true in this machine's OpenClaw "
                + "config (~/.openclaw/openclaw.json, or --config) so that doctor and OpenClaw's clients here use wss://")
    }

    static func pin(_ reason: CheckReason, _ evidence: PinEvidence) -> CheckText {
        let observed = evidence.observed.hex
        switch (reason, evidence.pin, evidence.advertised) {
        case (.pinMismatch, let pin?, let advertised):
            // A TXT fingerprint is a hint anyone on the LAN can publish: never adopted as the pin.
            let notAdopted =
                advertised == evidence.observed
                ? "; the beacon advertises the certificate served, and doctor does not adopt it: your pin decides" : ""
            let repin =
                pin.source == .remoteConfig
                ? "re-pin the node if it matches (`openclaw config set gateway.remote.tlsFingerprint sha256:\(observed)`)" : "pin that"
            return CheckText(
                "TLS certificate pin mismatch for \(evidence.host) (expected \(pin.fingerprint.hex), observed \(observed))\(notAdopted)",
                fix:
                    "if the Gateway's certificate was rotated, check the new one on the Gateway host (`openssl x509 -in "
                    + "~/.openclaw/gateway/tls/gateway-cert.pem -outform DER | sha256sum`) and \(repin); otherwise something intercepts TLS"
            )
        case (.pinOnIssuedCertificate, let pin?, _):
            return pinOnIssued(pin, evidence)
        case (.advertisedStale, _, _):
            let stale = evidence.staleRecords.first?.fingerprint ?? evidence.advertised ?? evidence.observed
            return CheckText(
                "matches your pin; \(staleWords(evidence)) advertises another fingerprint (\(stale.hex)), not adopted: a stale record",
                fix: staleFix(evidence))
        case (.recordStale, _, _):
            return CheckText(
                "the certificate served (\(observed)) is the one the Gateway's own beacon advertises; \(staleWords(evidence)) still "
                    + "advertises the one before: a renewal that record missed",
                fix: staleFix(evidence))
        case (.advertisedMismatch, _, let advertised?):
            return CheckText(
                "the certificate's fingerprint \(observed) differs from the beacon's gatewayTlsSha256 \(advertised.hex)",
                fix:
                    "either the Gateway's certificate was renewed and \(staleWords(evidence)) is stale (\(staleFix(evidence))), or a "
                    + "TLS-terminating proxy sits in the path: check the fingerprint on the Gateway host")
        case (_, let pin?, _):
            return CheckText("matches the pin (\(pin.source == .flag ? "--pin" : "gateway.remote.tlsFingerprint"))")
        case (_, nil, _?):
            return CheckText("matches the fingerprint the beacon advertises")
        case (_, nil, nil):
            return CheckText("nothing pinned yet: a node's first connection shows \(observed) and asks to trust it")
        }
    }

    static func certificate(_ reason: CheckReason, _ facts: TLSFacts) -> CheckText {
        guard let certificate = facts.certificate else {
            return CheckText(facts.certificateProblem ?? "the certificate could not be read", fix: "regenerate the Gateway's certificate")
        }
        let regenerate =
            "OpenClaw makes a new certificate when ~/.openclaw/gateway/tls is removed and the Gateway restarts; nodes then need the new pin"
        let kind = certificate.selfSigned ? "self-signed" : "issued by \(certificate.issuer)"
        switch reason {
        case .certificateExpired:
            return CheckText("the certificate (\(certificate.subject)) expired on \(iso(certificate.notAfter))", fix: regenerate)
        case .certificateNotYetValid:
            return CheckText(
                "the certificate is not valid before \(iso(certificate.notBefore)): a clock is wrong",
                fix: "check the time on both machines (`timedatectl`)")
        case .certificateExpiresSoon:
            return CheckText("\(certificate.subject), \(kind), expires on \(iso(certificate.notAfter))", fix: regenerate)
        default:
            return CheckText("\(certificate.subject), \(kind)\(chainWords(facts)), valid until \(iso(certificate.notAfter))")
        }
    }

    /// A date to the minute, in UTC (`2026-01-01 00:00Z`).
    static func iso(_ date: Date) -> String {
        UTCDay.timestamp(unixSeconds: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// The records that advertise another certificate, by owner name (the beacon's TXT when none is known).
    static func staleWords(_ evidence: PinEvidence) -> String {
        let owners = evidence.staleRecords.prefix(4).map { words($0.owner) }
        return owners.isEmpty ? "the beacon's TXT" : "the record \(owners.joined(separator: ", "))"
    }

    /// Replace a wide-area record where its zone is served; the Gateway republishes its own
    /// mDNS beacon (2026.9 and later).
    static func staleFix(_ evidence: PinEvidence) -> String {
        let wideArea = evidence.staleRecords.filter { $0.domain != nil }
        guard !wideArea.isEmpty else {
            return "update the Gateway to 2026.9 or later, which republishes a renewed certificate, or restart it"
        }
        let servers = Array(Set(wideArea.flatMap(\.servers))).sorted()
        return "replace that TXT record with gatewayTlsSha256=\(evidence.observed.hex)"
            + (servers.isEmpty ? "" : " on the server that serves it (\(servers.joined(separator: ", ")))")
            + ": `clawnet doctor --emit-zone FILE` writes the records, `clawnet zone push` sends them"
    }
}
