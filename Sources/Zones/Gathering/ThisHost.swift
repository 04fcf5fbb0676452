import Crypto
import DNSSD
import FoundationEssentials
import Glibc
import Host

/// This machine as its OpenClaw Gateway would publish itself in a wide-area zone.
package enum ThisHost {
    /// OpenClaw's Gateway certificate, when it has made one.
    package static func certificatePath(environment: [String: String]) -> String {
        (environment["HOME"] ?? "/root") + "/.openclaw/gateway/tls/gateway-cert.pem"
    }

    /// SHA-256 over the DER of the first certificate in a PEM file.
    package static func fingerprint(pem text: String) -> TLSFingerprint? {
        guard let begin = text.firstRange(of: "-----BEGIN CERTIFICATE-----"),
            let end = text[begin.upperBound...].firstRange(of: "-----END CERTIFICATE-----")
        else { return nil }
        let base64 = text[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
        guard let der = Data(base64Encoded: String(base64)) else { return nil }
        return TLSFingerprint(digest: Array(SHA256.hash(data: der)))
    }

    /// The Gateway of this host: `<hostname>-gateway` on `<hostname>`, its Tailscale
    /// addresses, the configured port, TLS and the certificate's fingerprint.
    package static func gateway(config: OpenClawConfig, environment: [String: String], interfaces: [NetworkInterface], hostName: String)
        throws -> (ZoneGateway, [ZoneNote])
    {
        var notes: [ZoneNote] = []
        let name = HostName.labelOrFallback(of: hostName)
        let addresses = NetworkInterface.tailscaleAddresses(interfaces).map(\.withoutZone)
        guard !addresses.isEmpty else {
            throw ZoneError(.thisHostWithoutTailnet(host: name))
        }
        var spec = "host=\(name),name=\(ZoneGateway.label("\(name)-gateway", fallback: "openclaw-gw")),display=\(name)"
        spec += addresses.map { ",ip=\($0)" }.joined()
        spec += ",port=\(config.gatewayPort ?? Endpoint.defaultGatewayPort)"
        if config.tlsEnabled == true {
            let path = certificatePath(environment: environment)
            // Only a regular file of PEM size is read: the path is under the user's home.
            if let pem = try? RegularFile.read(path, limit: FileLimit.pem),
                let fingerprint = fingerprint(pem: String(decoding: pem, as: UTF8.self))
            {
                spec += ",tls=\(fingerprint.hex)"
            } else {
                spec += ",tls=yes"
                notes.append(.certificateUnreadable(path: path))
            }
        }
        return (try GatewaySpec.parse(spec.replacingAll("\\", with: "\\\\")), notes)
    }
}
