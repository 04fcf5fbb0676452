import DNSSD

/// When two beacons are one Gateway. A Gateway is its listener: two beacons (sightings, each
/// from one path: mDNS in `local.`, unicast DNS-SD in a wide-area domain, a manual target) are
/// the same Gateway when their ports are equal and
/// 1. they have an address in common (an IPv6 zone aside): one address and port is one listener,
///    whatever names point at it and whatever certificate each says it has (a record that kept
///    the old fingerprint after a renewal is still that Gateway);
/// 2. or they name the same host, unless both have addresses and none in common (two machines
///    that claim one mDNS name are two Gateways; doctor reports the collision);
/// 3. or both advertise the same certificate (TXT gatewayTlsSha256);
/// 4. or both advertise the same Tailscale name (TXT tailnetDns): one machine, one port;
/// 5. or, seen in two different domains, they have the same display name (a trailing
///    " (OpenClaw)" and case aside) and the same SRV host label (`studio` of `studio.local.` and
///    of `studio.openclaw.internal.`), unless either is OpenClaw's default ("OpenClaw" or
///    `openclaw`: two hosts left with the defaults are two Gateways) or they advertise different
///    certificates. This rule stays for the LAN beacon and the tailnet beacon of one Gateway
///    without TLS: their addresses and host names differ, and nothing else links them; it also
///    makes the two one at once, before mDNS has resolved every address.
/// A manual target carries no TXT: rules 1 and 2 only. A certificate a probe shows is not used
/// here: discovery does not probe, and a merge must not depend on when a probe ran.
///
/// Every rule is a shared key (`keys`), so a merger finds a beacon's twins through an index
/// instead of comparing it with every other beacon.
package enum GatewayIdentity {
    /// Rule by rule, as the doc comment of the type says.
    package static func same(_ a: GatewayBeacon, _ b: GatewayBeacon) -> Bool {
        guard let port = a.port, port == b.port else { return false }
        let (left, right) = (addresses(a), addresses(b))
        if !left.isDisjoint(with: right) { return true }
        if let host = hostKey(a), host == hostKey(b), left.isEmpty || right.isEmpty { return true }
        guard !a.isManualOnly, !b.isManualOnly else { return false }
        let (leftPrint, rightPrint) = (a.reading.info.tlsSha256, b.reading.info.tlsSha256)
        if let leftPrint, leftPrint == rightPrint { return true }
        if let tailnet = tailnetKey(a), tailnet == tailnetKey(b) { return true }
        guard a.domain != b.domain, leftPrint == nil || rightPrint == nil else { return false }
        guard let name = nameKey(a) else { return false }
        return name == nameKey(b)
    }

    /// The keys a beacon is filed under, one per rule that can link it: two beacons that are
    /// the same Gateway share at least one.
    package static func keys(_ beacon: GatewayBeacon) -> [String] {
        guard let port = beacon.port else { return [] }
        var keys = addresses(beacon).map { "address|\($0)|\(port)" }
        if let host = hostKey(beacon) { keys.append("host|\(host)|\(port)") }
        guard !beacon.isManualOnly else { return keys }
        if let fingerprint = beacon.reading.info.tlsSha256 { keys.append("sha256|\(fingerprint.hex)|\(port)") }
        if let tailnet = tailnetKey(beacon) { keys.append("tailnet|\(tailnet)|\(port)") }
        if let name = nameKey(beacon) { keys.append("name|\(name)|\(port)") }
        return keys
    }

    static func addresses(_ beacon: GatewayBeacon) -> Set<IPAddress> { Set(beacon.addresses.map(\.withoutZone)) }

    /// The host name (not an IP literal) without its root dot, in lower case.
    static func hostKey(_ beacon: GatewayBeacon) -> String? {
        guard let host = beacon.host, host.name != nil, IPAddress(host.withoutRootDot) == nil else { return nil }
        return host.key
    }

    static func tailnetKey(_ beacon: GatewayBeacon) -> String? {
        beacon.reading.info.tailnetDns.map { BeaconHost($0).key }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// OpenClaw's defaults: the display name of a machine without one, the host label of a
    /// host name that is no DNS label (extensions/bonjour/src/advertiser.ts).
    static let defaultName = "openclaw"

    /// `display name|host label`, nil where either is missing or OpenClaw's default.
    static func nameKey(_ beacon: GatewayBeacon) -> String? {
        var name = (beacon.reading.info.displayName ?? beacon.instance.displayName).lowercased()
        if name.hasSuffix(" (openclaw)") { name.removeLast(" (openclaw)".count) }
        guard let label = beacon.host?.firstLabel?.lowercased(), !name.isEmpty, name != defaultName, label != defaultName else {
            return nil
        }
        return "\(name)|\(label)"
    }
}
