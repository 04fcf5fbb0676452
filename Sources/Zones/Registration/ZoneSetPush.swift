import DNSSD
import DNSUpdate
import DNSWire
import Host

/// `zone push` into several zones of one primary in one run (`--domain` more than once), as a
/// fleet keeps its Gateways in shards. Each zone is planned and sent on its own (`ZonePush`),
/// several zones at a time, so the server applies one zone's UPDATE while the next is planned;
/// a zone that fails leaves the others theirs (each push is one UPDATE with prerequisites, so
/// a rerun converges). One process serves every zone: a run per zone pays a process start each.
package enum ZoneSetPush {
    /// How many zones are worked on at once: a primary applies several zones' UPDATEs in
    /// parallel, and a fleet of hundreds of zones must not open hundreds of connections.
    package static let zonesAtOnce = 8

    /// Plans every zone and, unless `send` is false (a dry run), sends its UPDATEs; the
    /// outcomes in the order of `zones`.
    package static func run(_ zones: [ZonePush], prune: Bool, send: Bool, until deadline: ContinuousClock.Instant) async
        -> [ZonePush.Outcome]
    {
        await zones.concurrentMap(atMost: zonesAtOnce) { zone in
            await zone.run(prune: prune, send: send, until: deadline)
        }
    }
}
