import Crypto
import DNSSD
import FoundationEssentials
import Glibc
import Host

/// This machine as its OpenClaw Gateway would publish itself in a wide-area zone.
public enum ThisHost {
    /// OpenClaw's Gateway certificate, when it has made one.
    public static func certificatePath(environment: [String: String]) -> String {
        (environment["HOME"] ?? "/root") + "/.openclaw/gateway/tls/gateway-cert.pem"
    }

    /// SHA-256 over the DER of the first certificate in a PEM file.
    public static func fingerprint(pem text: String) -> TLSFingerprint? {
        guard let begin = text.firstRange(of: "-----BEGIN CERTIFICATE-----"),
            let end = text[begin.upperBound...].firstRange(of: "-----END CERTIFICATE-----")
        else { return nil }
        let base64 = text[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
        guard let der = Data(base64Encoded: String(base64)) else { return nil }
        return TLSFingerprint(digest: Array(SHA256.hash(data: der)))
    }

    /// The Gateway of this host: `<hostname>-gateway` on `<hostname>`, its Tailscale
    /// addresses, the configured port, TLS and the certificate's fingerprint.
    public static func gateway(config: OpenClawConfig, environment: [String: String], interfaces: [NetworkInterface]) throws -> (
        ZoneGateway, [String]
    ) {
        var notes: [String] = []
        let name = HostName.label(of: HostName.current()) ?? HostName.fallback
        let addresses = NetworkInterface.tailscaleAddresses(interfaces).map(\.withoutZone)
        if addresses.isEmpty {
            notes.append("this machine has no Tailscale address: its host record gets none (add ip= with --gateway, or bring Tailscale up)")
        }
        var spec = "host=\(name),name=\(ZoneGateway.label("\(name)-gateway", fallback: "openclaw-gw")),display=\(name)"
        spec += addresses.map { ",ip=\($0)" }.joined()
        spec += ",port=\(config.gatewayPort ?? Endpoint.defaultGatewayPort)"
        if config.tlsEnabled == true {
            let path = certificatePath(environment: environment)
            if let pem = AtomicFile.read(path), let fingerprint = fingerprint(pem: pem) {
                spec += ",tls=\(fingerprint.hex)"
            } else {
                spec += ",tls=yes"
                notes.append("TLS is on but \(path) has no readable certificate: gatewayTlsSha256 is left out")
            }
        }
        return (try GatewaySpec.parse(spec.replacingAll("\\", with: "\\\\")), notes)
    }
}
