import DNSSD
import Probes

/// Something worth telling the operator about the zone being made, that stops nothing: a
/// Gateway skipped or renamed, an address nodes cannot reach, a size a server refuses. `code`
/// with its values is for code and tests; Output's `ZoneNoteText` says it in words.
package enum ZoneNote: Sendable, Hashable {
    // The sources (ThisHost, GatheredGateways, GatewayCollector, Inventory)
    /// `--this-host` with TLS on, but no readable certificate at `path`: no fingerprint published.
    case certificateUnreadable(path: String)
    /// What a listing source could not do (a browse error, its timeout, an inventory's saved error).
    case sourceFailed(GatheredGateways.Source, failure: SourceFailure)
    /// Beacons of an inventory that name none of a fleet push's zones (`domain` nil: no domain).
    case outsideZones(domain: DomainName?, count: Int, inventory: String)
    /// A manual target: no instance name or TXT to publish.
    case manualTargetSkipped(name: String)
    /// A beacon without a usable SRV port.
    case noPortSkipped(name: String)
    /// A beacon with only link-local or loopback addresses.
    case noRoutableAddressSkipped(name: String)
    /// A beacon a zone cannot hold.
    case unpublishableSkipped(ZoneGateway.Problem)

    // The tailnet (BrowseMirror)
    /// `--tailnet-only` and no tailnet address: skipped; `lan` are the addresses it had.
    case noTailnetAddressSkipped(name: String, lan: [IPAddress])
    /// `--tailnet-only` left out these addresses.
    case lanAddressesLeftOut(name: String, lan: [IPAddress])
    /// Published with addresses nodes on the tailnet cannot reach.
    case lanAddressesPublished(name: String, lan: [IPAddress])
    /// The timeout left no time to check that `count` Gateways answer.
    case noTimeToCheck(count: Int)
    /// No TCP connection on any published address: each attempt, by address.
    case didNotAnswer(name: String, port: Int, attempts: [TCPAttempt])

    // The zone (ZoneWriter)
    /// Two Gateways of one instance name: the second is published as `published`.
    case instanceRenamed(name: String, published: String)
    /// A host label another host with other addresses has: published as `published`.
    case hostRenamed(host: String, gateway: String, published: String)
    /// The PTR RRset is `bytes` long uncompressed: BIND refuses to load it.
    case bindSlabTooLarge(instances: Int, bytes: Int)
    /// More instances than BIND 9.18.28+ takes at one name by default.
    case bindRecordsPerType(instances: Int)
}
