import CAvahi
import DNSSD

/// What a browse says when Avahi refuses or fails it, with the cause and the fix.
extension AvahiBrowseSession {
    /// Said in the last place of the C boundary's buffer, when it is full (`bufferLimit`).
    static let fellBehind = DiscoveryIssue(
        source: .mdns, kind: .browseFailed,
        message:
            "clawnet fell \(bufferLimit) events behind avahi-daemon (is its output being read?): mDNS browsing stopped, so this list "
            + "may be incomplete")

    static func browseRefused(_ type: ServiceType, code: Int32) -> DiscoveryIssue {
        DiscoveryIssue(
            source: .mdns, kind: .browseFailed,
            message: "avahi-daemon refused to browse \(type.name): \(AvahiDiagnosis.message(for: code))",
            fix: "check the avahi-daemon log (`journalctl -u avahi-daemon`)")
    }

    static func browseFailed(_ type: ServiceType, code: Int32) -> DiscoveryIssue {
        DiscoveryIssue(source: .mdns, kind: .browseFailed, message: "browsing \(type.name) failed: \(AvahiDiagnosis.message(for: code))")
    }

    /// `objects`: the browsers and resolvers the client holds.
    static func tooManyObjects(_ key: MulticastInstanceKey, objects: Int) -> DiscoveryIssue {
        DiscoveryIssue(
            source: .mdns, kind: .resolveFailed,
            message:
                "avahi-daemon refused to resolve '\(key.name.displayName)' and the instances after it: it allows one client "
                + "\(objects) browsers and resolvers at once (Too many objects), so this list of \(key.type.name) is incomplete",
            fix:
                "more instances are announced on this LAN than a Gateway fleet has: count them with `avahi-browse -pt "
                + "\(key.type.name) | wc -l` and find the host that floods; or raise objects-per-client-max in "
                + "/etc/avahi/avahi-daemon.conf")
    }

    static func resolveFailed(_ key: MulticastInstanceKey, on link: AvahiLink, code: Int32) -> DiscoveryIssue {
        let family = link.protocolFamily == AvahiProtocol(AVAHI_PROTO_INET6) ? "IPv6" : "IPv4"
        return DiscoveryIssue(
            source: .mdns, kind: .resolveFailed,
            message:
                "could not resolve '\(key.name.displayName)' (\(key.type.name)) on "
                + "\(interfaceName(link.interface) ?? "?") over \(family): \(AvahiDiagnosis.message(for: code))",
            fix: "the Gateway host may have gone away without a goodbye, or multicast replies do not reach this host")
    }
}
