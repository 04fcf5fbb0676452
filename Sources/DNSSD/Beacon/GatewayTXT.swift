/// The TXT record of a Gateway beacon, built the way OpenClaw's Gateway builds it. OpenClaw
/// orders the keys differently in its two writers, so the layout names which one to follow.
package struct GatewayTXT: Sendable, Hashable {
    package enum Layout: Sendable {
        /// The mDNS advertiser (extensions/bonjour/src/advertiser.ts): role, gatewayPort,
        /// lanHost, displayName, TLS, then the optional hints, transport, sshPort.
        case multicast
        /// The wide-area zone writer (src/infra/widearea-dns.ts): displayName, role, transport,
        /// gatewayPort, then TLS and the optional hints.
        case wideAreaZone

        package var keys: [String] {
            switch self {
            case .multicast:
                [
                    "role", "gatewayPort", "lanHost", "displayName", "gatewayTls", "gatewayTlsSha256", "gatewayDirectReachable",
                    "canvasPort", "tailnetDns", "cliPath", "transport", "sshPort",
                ]
            case .wideAreaZone:
                [
                    "displayName", "role", "transport", "gatewayPort", "gatewayTls", "gatewayTlsSha256", "gatewayDirectReachable",
                    "tailnetDns", "sshPort", "cliPath",
                ]
            }
        }
    }

    package var displayName: String
    package var gatewayPort: Int
    package var lanHost: String?
    package var tls = false
    package var fingerprint: TLSFingerprint?
    package var directReachable = false
    package var canvasPort: Int?
    package var tailnetDns: String?
    package var sshPort: Int?
    package var cliPath: String?

    package init(displayName: String, gatewayPort: Int) {
        self.displayName = displayName
        self.gatewayPort = gatewayPort
    }

    /// OpenClaw's display name for an instance name: without a trailing " (OpenClaw)".
    package static func displayName(ofInstance name: String) -> String {
        name.hasSuffix(" (OpenClaw)") ? String(name.dropLast(" (OpenClaw)".count)) : name
    }

    /// Every key this beacon sets, in `layout`'s order. A key the layout does not place
    /// (lanHost in a zone, canvasPort in a zone) is left out.
    package func pairs(_ layout: Layout) -> [(key: String, value: String?)] {
        var values: [String: String] = [
            "role": "gateway", "transport": "gateway", "displayName": displayName, "gatewayPort": String(gatewayPort),
        ]
        values["lanHost"] = lanHost
        if tls {
            values["gatewayTls"] = "1"
            values["gatewayTlsSha256"] = fingerprint?.hex
        }
        if directReachable { values["gatewayDirectReachable"] = "1" }
        values["canvasPort"] = canvasPort.map(String.init)
        values["tailnetDns"] = tailnetDns
        values["sshPort"] = sshPort.map(String.init)
        values["cliPath"] = cliPath
        return layout.keys.compactMap { key in values[key].map { (key: key, value: Optional($0)) } }
    }

    /// The record in `layout`'s order; `extra` entries replace a key of the same name (any
    /// case) in place, or follow at the end.
    package func record(_ layout: Layout, extra: [(key: String, value: String?)] = []) throws(DNSSDError) -> TXTRecord {
        var pairs = pairs(layout)
        for entry in extra {
            try TXTRecord.validate(key: entry.key)
            if let index = pairs.firstIndex(where: { $0.key.lowercased() == entry.key.lowercased() }) {
                pairs[index] = entry
            } else {
                pairs.append(entry)
            }
        }
        return try TXTRecord(pairs: pairs)
    }
}
