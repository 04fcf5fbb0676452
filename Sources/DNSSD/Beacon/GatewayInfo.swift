/// The typed OpenClaw view of a Gateway's TXT record. Every value is an unauthenticated hint:
/// routing uses SRV and addresses, and an advertised fingerprint never overrides a user's pin.
public struct GatewayInfo: Hashable, Sendable {
    package var role: String?
    package var displayName: String?
    package var lanHost: String?
    package var gatewayPort: Int?
    package var tls: Bool = false
    /// Canonical (64 lower-case hex) even when the TXT carried another spelling.
    package var tlsSha256: TLSFingerprint?
    package var canvasPort: Int?
    package var sshPort: Int?
    package var tailnetDns: String?
    package var cliPath: String?
    package var transport: String?
    package var directReachable: Bool = false

    package init() {}

    /// The beacon asks for wss://: gatewayTls (1, true, yes) or a gatewayTlsSha256, as OpenClaw's
    /// Android node reads it (ConnectionManager.kt resolveTlsParamsForEndpoint).
    package var advertisesTLS: Bool { tls || tlsSha256 != nil }

    /// The keys in the order OpenClaw's zone writer emits them; other keys follow in their own order.
    package static var keyOrder: [String] { GatewayTXT.Layout.wideAreaZone.keys }

    /// Decode the keys of the interop notes; return the problems found.
    public static func decode(_ attributes: TXTAttributes) -> (info: GatewayInfo, issues: [TXTIssue]) {
        var info = GatewayInfo()
        var issues: [TXTIssue] = []

        info.role = attributes.text("role")
        switch info.role {
        case nil: issues.append(TXTIssue(.roleMissing, "TXT has no role key (expected role=gateway)"))
        case let role? where role.lowercased() != "gateway":
            issues.append(TXTIssue(.roleNotGateway, "TXT role is '\(role)', not 'gateway'"))
        default: break
        }
        info.displayName = attributes.text("displayName")
        info.lanHost = attributes.text("lanHost")
        info.transport = attributes.text("transport")
        info.tailnetDns = attributes.text("tailnetDns")
        info.cliPath = attributes.text("cliPath")
        info.gatewayPort = port("gatewayPort", attributes, &issues)
        info.canvasPort = port("canvasPort", attributes, &issues)
        info.sshPort = port("sshPort", attributes, &issues)
        info.tls = flag("gatewayTls", attributes, &issues)
        info.directReachable = flag("gatewayDirectReachable", attributes, &issues)

        if let raw = attributes.text("gatewayTlsSha256") {
            if let fingerprint = TLSFingerprint(normalizing: raw) {
                info.tlsSha256 = fingerprint
                if !TLSFingerprint.isCanonical(raw) {
                    issues.append(
                        TXTIssue(
                            .fingerprintNotCanonical, "TXT gatewayTlsSha256 is not 64 lower-case hex digits; read as \(fingerprint.hex)"))
                }
            } else {
                issues.append(TXTIssue(.fingerprintMalformed, "TXT gatewayTlsSha256 '\(raw)' is not a SHA-256 fingerprint (64 hex digits)"))
            }
            if !info.tls {
                issues.append(TXTIssue(.fingerprintWithoutTLS, "TXT has gatewayTlsSha256 but not gatewayTls=1"))
            }
        }
        return (info, issues)
    }

    private static func port(_ key: String, _ attributes: TXTAttributes, _ issues: inout [TXTIssue]) -> Int? {
        guard let text = attributes.text(key) else { return nil }
        guard let value = Int(text), (1...65535).contains(value), text.allSatisfy(\.isNumber) else {
            issues.append(TXTIssue(.notAPort(key: key), "TXT \(key) '\(text)' is not a port number"))
            return nil
        }
        return value
    }

    /// OpenClaw writes `1`; `true` and `yes` are accepted too.
    private static func flag(_ key: String, _ attributes: TXTAttributes, _ issues: inout [TXTIssue]) -> Bool {
        guard let attribute = attributes[key] else { return false }
        guard let text = attribute.string?.lowercased() else { return true }
        switch text {
        case "1", "true", "yes": return true
        case "0", "false", "no", "": return false
        default:
            issues.append(TXTIssue(.notAFlag(key: key), "TXT \(key) '\(text)' is not 1 or 0; read as off"))
            return false
        }
    }
}
