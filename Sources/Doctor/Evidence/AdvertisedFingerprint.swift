import DNSSD
import Probes

/// A certificate fingerprint one of a Gateway's beacons advertises (TXT gatewayTlsSha256), and
/// where: the path, the record's owner name, the DNS servers that served it. Since 2026.9 a
/// Gateway reloads a renewed certificate and republishes the new fingerprint in its own beacon
/// (openclaw/openclaw PR #146267); a wide-area record someone else keeps can stay behind.
package struct AdvertisedFingerprint: Sendable, Equatable {
    package let fingerprint: TLSFingerprint
    package let source: BeaconSource
    /// The wide-area domain (nil for mDNS's `local.`).
    package let domain: DomainName?
    /// `Instance._openclaw-gw._tcp.domain.`, the owner of the TXT record.
    package let owner: String
    /// The DNS servers that answered with it, as `address#port` (unicast only).
    package let servers: [String]

    /// Every fingerprint `beacon`'s Gateway advertises, one per path (its sightings after a merge).
    static func all(_ beacon: GatewayBeacon?) -> [AdvertisedFingerprint] {
        guard let beacon else { return [] }
        let sightings = beacon.sightings.isEmpty ? [beacon] : beacon.sightings
        return sightings.compactMap { sighting in
            guard !sighting.isManualOnly, let fingerprint = sighting.reading.info.tlsSha256 else { return nil }
            let domain = sighting.domain ?? .local
            return AdvertisedFingerprint(
                fingerprint: fingerprint, source: sighting.domain == .local ? .mdns : .unicast,
                domain: sighting.domain == .local ? nil : sighting.domain,
                owner: "\(sighting.instance.presentation).\(sighting.serviceType.name).\(domain.name)", servers: sighting.resolvers)
        }
    }
}

extension PinEvidence {
    /// The Gateway's own beacons advertise the certificate it presents: a pin that differs is
    /// older than a renewal, not an interception.
    package var renewalAdvertised: Bool { records.contains { $0.fingerprint == observed } }

    /// The Gateway's records that advertise another certificate than the one presented.
    package var staleRecords: [AdvertisedFingerprint] { records.filter { $0.fingerprint != observed } }
}
