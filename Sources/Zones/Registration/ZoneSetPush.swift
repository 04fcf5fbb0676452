import DNSSD
import DNSUpdate
import DNSWire
import Host

/// `zone push` into several zones of one primary in one run (`--domain` more than once), as a
/// fleet keeps its Gateways in shards. Each zone is read, planned and sent on its own, several
/// zones at a time, so the server applies one zone's UPDATE while the next is read and
/// planned; a zone that fails leaves the others theirs (each push is one UPDATE with
/// prerequisites, so a rerun converges). One process serves every zone: a run per zone pays a
/// process start each.
public enum ZoneSetPush {
    /// One zone of the run: its registrar, the records its Gateways make, the instances kept.
    public struct Zone: Sendable {
        public let registrar: Registrar
        public let records: [DNSRecord]
        public let keeping: Set<DNSName>

        public init(registrar: Registrar, records: [DNSRecord], keeping: Set<DNSName>) {
            self.registrar = registrar
            self.records = records
            self.keeping = keeping
        }
    }

    /// How one zone went: its push when it could be read and planned, the UPDATEs applied,
    /// and the failure that stopped it (which says how many were applied before it).
    public struct Outcome: Sendable {
        public var push: Registrar.Push?
        public var applied = 0
        public var failure: UpdateFailure?
    }

    /// How many zones are worked on at once: a primary applies several zones' UPDATEs in
    /// parallel, and a fleet of hundreds of zones must not open hundreds of connections.
    public static let zonesAtOnce = 8

    /// Reads and plans every zone and, unless `send` is false (a dry run), sends its UPDATEs;
    /// the outcomes in the order of `zones`.
    public static func run(_ zones: [Zone], prune: Bool, send: Bool, until deadline: ContinuousClock.Instant) async -> [Outcome] {
        await zones.concurrentMap(atMost: zonesAtOnce) { zone in
            var outcome = Outcome()
            do throws(UpdateFailure) {
                let push = try await zone.registrar.planPush(zone.records, prune: prune, keeping: zone.keeping, until: deadline)
                outcome.push = push
                if send && !push.plan.isEmpty { outcome.applied = try await zone.registrar.push(push, until: deadline) }
            } catch {
                outcome.failure = error
            }
            return outcome
        }
    }
}
