/// What `clawnet advertise` publishes: the TXT OpenClaw's mDNS advertiser sends in its minimal
/// mode (extensions/bonjour/src/advertiser.ts: no sshPort), then what --txt adds.
extension GatewayTXT {
    /// The served stand-in's facts that go into the TXT (`advertise --serve`).
    package struct Served: Sendable {
        package var fingerprint: TLSFingerprint?
        package var loopback: Bool

        package init(fingerprint: TLSFingerprint?, loopback: Bool) {
            self.fingerprint = fingerprint
            self.loopback = loopback
        }
    }

    /// The beacon's TXT for the instance `name` on `port`: lanHost is `<hostLabel>.local`;
    /// a served stand-in adds TLS and its fingerprint, and is directly reachable unless it
    /// listens on loopback. Each `extra` entry (`KEY=VALUE`, or `KEY` alone for a flag)
    /// replaces a default key of the same name in place, or follows at the end.
    package static func advertised(name: String, port: Int, hostLabel: String, served: Served?, extra: [String]) throws(DNSSDError)
        -> TXTRecord
    {
        var txt = GatewayTXT(displayName: displayName(ofInstance: name), gatewayPort: port)
        txt.lanHost = "\(hostLabel).local"
        if let served {
            txt.tls = served.fingerprint != nil
            txt.fingerprint = served.fingerprint
            txt.directReachable = !served.loopback
        }
        let entries = extra.map { entry -> (key: String, value: String?) in
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (key: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : nil)
        }
        return try txt.record(.multicast, extra: entries)
    }
}
