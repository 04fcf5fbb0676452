import DNSSD
import DNSWire

/// Several servers of one zone (a primary and its secondaries): the same serial and the same
/// records, or which one lags behind.
package enum ServerAgreement {
    package struct Served: Sendable {
        package let server: String
        package let serial: UInt32?
        /// Every record (a transfer), or the RRsets asked one by one; the SOA is left out of
        /// every comparison.
        package let records: RecordStore
        /// A hash of each record but the SOA, sorted: two servers' records are compared in 8 bytes
        /// a record, never as sets of DNSRecord values. Hasher is seeded per process, so a
        /// server cannot choose records whose hashes collide.
        let digests: [Int]

        package init(server: String, serial: UInt32?, records: RecordStore) {
            self.server = server
            self.serial = serial
            self.records = records
            var digests: [Int] = []
            digests.reserveCapacity(records.count)
            // Each owner name is made once per run of records at it (a transfer of one deep name
            // repeats it thousands of times), not once a record.
            var owner: (position: Int, name: DNSName)?
            for position in records.indices where records.type(at: position) != .soa {
                let name = owner.flatMap { records.sameOwner($0.position, position) ? $0.name : nil } ?? records.name(at: position)
                owner = (position, name)
                digests.append(records.record(at: position, named: name).hashValue)
            }
            digests.sort()
            var unique = 0
            for digest in digests where unique == 0 || digests[unique - 1] != digest {
                digests[unique] = digest
                unique += 1
            }
            self.digests = Array(digests.prefix(unique))
        }
    }

    package static func compare(_ servers: [Served], zone: DNSName) -> [Finding] {
        guard servers.count > 1 else { return [] }
        let serials = servers.compactMap(\.serial)
        guard let newest = serials.first(where: { candidate in !serials.contains { SerialPolicy.isNewer($0, than: candidate) } }) else {
            return []
        }
        var findings: [Finding] = []
        let leaders = servers.filter { $0.serial == newest }
        for lagging in servers where lagging.serial != newest {
            findings.append(
                Finding(
                    .fail, .serverLags(lagging.server, zone: zone, serial: lagging.serial, leaders: leaders.map(\.server), newest: newest)))
        }
        if let reference = leaders.first {
            for other in leaders.dropFirst() where other.digests != reference.digests {
                let missing = lacking(reference, in: other)
                let extra = lacking(other, in: reference)
                findings.append(
                    Finding(
                        .fail,
                        .serversDiffer(
                            other.server, reference: reference.server, serial: newest, zone: zone, records: missing.count + extra.count,
                            missing: missing.first, extra: extra.first)))
            }
        }
        if findings.isEmpty {
            findings.append(
                Finding(.pass, .serversAgree(servers.map(\.server), zone: zone, serial: newest, records: servers[0].digests.count)))

        }
        return findings
    }

    /// How many of `served`'s records `other` lacks, and the first of them in text order.
    private static func lacking(_ served: Served, in other: Served) -> (count: Int, first: String?) {
        let count = served.digests.count { !contains(other.digests, $0) }
        var first: String?
        for position in served.records.indices where served.records.type(at: position) != .soa {
            let record = served.records[position]
            guard !contains(other.digests, record.hashValue) else { continue }
            let text = "\(record)"
            if first.map({ text < $0 }) ?? true { first = text }
        }
        return (count, first)
    }

    /// Binary search in sorted digests.
    private static func contains(_ digests: [Int], _ digest: Int) -> Bool {
        var low = 0
        var high = digests.count
        while low < high {
            let middle = (low + high) / 2
            if digests[middle] < digest { low = middle + 1 } else { high = middle }
        }
        return low < digests.count && digests[low] == digest
    }
}
