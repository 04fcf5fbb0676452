import DNSSD
import Doctor
import Probes

/// The words of a certificate renewed under a running Gateway: a pin older than the renewal,
/// and records that kept the old fingerprint.
extension DiagnosisText {
    static func certificateRenewed(_ target: String, _ pin: PinEvidence) -> DiagnosisText {
        let new = pin.observed.hex
        let old = pin.pin.map { "\($0.fingerprint.short)…" } ?? "another one"
        let source = pin.pin?.source == .flag ? "--pin" : "gateway.remote.tlsFingerprint"
        let agreeing = pin.records.filter { $0.fingerprint == pin.observed }.prefix(4).map { CheckText.words($0.owner) }
        let repin =
            pin.pin?.source == .flag
            ? "run doctor again with `--pin sha256:\(new)`"
            : "re-pin this node: `openclaw config set gateway.remote.tlsFingerprint sha256:\(new)` (gateway.remote.tlsFingerprint in its "
                + "OpenClaw config), then reconnect"
        return DiagnosisText(
            cause: "\(target) renewed its certificate: it presents sha256 \(pin.observed.short)…, which its own beacon advertises "
                + "(\(agreeing.joined(separator: ", "))), and the pin (\(source)) "
                + "is the certificate before (\(old)): a renewal, not an interception; no token was sent",
            fix:
                "confirm the new fingerprint on the Gateway host (`openssl x509 -in ~/.openclaw/gateway/tls/gateway-cert.pem -outform DER "
                + "| "
                + "sha256sum` prints \(new)), then \(repin)")
    }

    static func staleFingerprintRecord(_ target: String, _ stale: [AdvertisedFingerprint], observed: TLSFingerprint, confirmed: Bool)
        -> DiagnosisText
    {
        let records = stale.prefix(4).map { record in
            let servers = record.servers.isEmpty ? "" : " on \(record.servers.joined(separator: ", "))"
            return "\(CheckText.words(record.owner))\(servers) (gatewayTlsSha256 \(record.fingerprint.short)…)"
        }
        let why =
            confirmed
            ? "the Gateway's own beacon advertises the new one: its certificate was renewed and these records were left behind; it is "
                + "one Gateway"
            : "nothing else confirms the new one: either the certificate was renewed and these records were left behind, or a "
                + "TLS-terminating proxy sits in the path"
        let wideArea = stale.compactMap(\.domain)
        let domains = Array(Set(wideArea.map(\.withoutTrailingDot))).sorted().joined(separator: ", ")
        let advertise = records.count == 1 ? "advertises" : "advertise"
        let fix =
            wideArea.isEmpty
            ? "update the Gateway to 2026.9 or later, which republishes a renewed certificate in its beacon, or restart it"
            : "replace the TXT record (the old gatewayTlsSha256 out, gatewayTlsSha256=\(observed.hex) in) where "
                + "\(domains) is served: the zone snippet below (`clawnet doctor --emit-zone FILE`), "
                + "or `clawnet zone push`; nothing to restart"
        return DiagnosisText(
            cause: "\(target) presents sha256 \(observed.short)…, but \(records.joined(separator: "; ")) still \(advertise) another "
                + "certificate: \(why)",
            fix: confirmed || wideArea.isEmpty
                ? fix : fix + "; if the certificate was not renewed, check the fingerprint on the Gateway host")
    }
}
