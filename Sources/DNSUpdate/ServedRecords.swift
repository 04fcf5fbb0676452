import DNSClient
import DNSSD
import DNSWire

/// A name and a record type: the unit DNS (and RFC 2136's prerequisites) compares.
package struct RRsetKey: Hashable, Sendable {
    package let name: DNSName
    package let type: RRType

    package init(_ name: DNSName, _ type: RRType) {
        self.name = name
        self.type = type
    }
}

/// What a server serves now, as far as one push needs to know: the whole zone (AXFR), or the
/// RRsets of the service type and its hosts (asked one by one when transfers are refused or
/// the zone is too large to hold). The records are held compactly and within
/// `RecordStore.Bounds.zone`, indexed by name.
package struct ServedRecords: Sendable {
    package enum Source: Sendable, Hashable {
        case transfer(messages: Int)
        /// Transfers were refused (the reason says how) or not asked for; the RRsets were asked instead.
        case queries(transferRefused: String?)
        /// The transfer was larger than clawnet holds of one zone (what passed which bound); the
        /// RRsets were asked instead.
        case queriesPastBound(String)
        /// Not read: the ledger of clawnet's last push, while the server still serves the serial
        /// it was written at (`PushLedger`).
        case ledger
        /// Not read, and nothing known (no ledger): the RRsets are taken to be absent, which the
        /// UPDATE's prerequisites assert.
        case assumedEmpty
    }

    /// True when the records were asked of the server (AXFR or queries), not taken from a ledger.
    package var wasRead: Bool {
        switch source {
        case .transfer, .queries, .queriesPastBound: true
        case .ledger, .assumedEmpty: false
        }
    }

    package let zone: DNSName
    package let server: DNSServer
    package let serial: UInt32?
    package let source: Source
    package let records: RecordStore
    private let index: OwnerIndex

    package init(zone: DNSName, server: DNSServer, serial: UInt32?, source: Source, records: RecordStore) {
        self.zone = zone
        self.server = server
        self.serial = serial
        self.source = source
        self.records = records
        self.index = OwnerIndex(records)
    }

    /// From a few records (a test, a plan's own view); more than a zone's bound is a failure.
    package init(zone: DNSName, server: DNSServer, serial: UInt32?, source: Source, records: [DNSRecord]) throws(RecordStore.Full) {
        self.init(zone: zone, server: server, serial: serial, source: source, records: try RecordStore(records))
    }

    package func rrset(_ name: DNSName, _ type: RRType) -> [DNSRecord] {
        Array(lazyRRset(name, type))
    }

    /// The records of one RRset, each made when it is read: an RRset of a transferred zone
    /// can hold as many records as the zone.
    package func lazyRRset(_ name: DNSName, _ type: RRType) -> LazyMapCollection<[Int], DNSRecord> {
        index.positions(of: name, in: records).filter { records.type(at: $0) == type }.lazy.map { records[$0] }
    }

    /// The instances the service's PTR RRset lists (only those directly under it).
    package func instances(of service: DNSName) -> [DNSName] {
        Array(lazyInstances(of: service))
    }

    /// `instances(of:)`, each made when it is read.
    package func lazyInstances(of service: DNSName) -> some Sequence<DNSName> {
        lazyRRset(service, .ptr).compactMap { Self.instance(listedBy: $0, of: service) }
    }

    /// The instance a PTR record of `service` lists, when it is directly under the service.
    static func instance(listedBy record: DNSRecord, of service: DNSName) -> DNSName? {
        guard case .ptr(let target) = record.data, target.parent == service, target.labels.count == service.labels.count + 1 else {
            return nil
        }
        return target
    }
}

/// Reads what the server has now: AXFR first; when transfers are refused, the PTR RRset of
/// the service type, SRV and TXT of every instance listed or wanted, A and AAAA of every
/// host named, each asked as an ordinary question.
package struct ZoneReader: Sendable {
    package let server: DNSServer
    package let key: TSIGKey?
    package let timeout: Duration
    /// What the records read may hold together (a transfer past it falls back to the RRsets).
    package let bounds: RecordStore.Bounds
    let client: DNSClient
    let clock: @Sendable () -> UInt64

    package init(
        server: DNSServer, key: TSIGKey?, timeout: Duration, bounds: RecordStore.Bounds = .zone, client: DNSClient,
        clock: @escaping @Sendable () -> UInt64 = unixNow
    ) {
        self.server = server
        self.key = key
        self.timeout = timeout
        self.bounds = bounds
        self.client = client
        self.clock = clock
    }

    /// `instances` and `hosts`: names to ask for besides what the PTR RRset lists.
    package func read(zone: DNSName, service: DNSName, instances: [DNSName], hosts: [DNSName], transfer: Bool = true)
        async throws(UpdateFailure) -> ServedRecords
    {
        var source = ServedRecords.Source.queries(transferRefused: nil)
        if transfer {
            do {
                let zoneData = try await ZoneTransfer.run(
                    zone: zone, server: server, key: key, timeout: timeout, bounds: bounds, clock: clock)
                return ServedRecords(
                    zone: zone, server: server, serial: zoneData.serial, source: .transfer(messages: zoneData.messages),
                    records: zoneData.records)
            } catch  where [.refused, .notAuthoritative, .notImplemented, .transferDenied].contains(error.reason) {
                source = .queries(
                    transferRefused: error.rcode.map { error.reason == .transferDenied ? "\($0) (BADKEY)" : "\($0)" } ?? error.message)
            } catch  where error.reason == .tooLarge {
                source = .queriesPastBound(error.message)
            }
        }
        return try await readRRsets(zone: zone, service: service, instances: instances, hosts: hosts, source: source)
    }

    private func readRRsets(zone: DNSName, service: DNSName, instances: [DNSName], hosts: [DNSName], source: ServedRecords.Source)
        async throws(UpdateFailure) -> ServedRecords
    {
        var records = try await ask([RRsetKey(zone, .soa), RRsetKey(service, .ptr)])
        let serial = records.lazy.compactMap { record -> UInt32? in
            if case .soa(_, _, let serial, _, _, _, _) = record.data { return serial }
            return nil
        }.first
        let listed = ServedRecords(zone: zone, server: server, serial: serial, source: source, records: records).instances(of: service)
        let names = unique(listed + instances)
        let instanceRecords = try await ask(names.flatMap { [RRsetKey($0, .srv), RRsetKey($0, .txt)] })
        try append(instanceRecords, to: &records)
        let targets = instanceRecords.compactMap { record -> DNSName? in
            if case .srv(_, _, _, let target) = record.data, target.isSubdomain(of: zone) { return target }
            return nil
        }
        try append(try await ask(unique(hosts + targets).flatMap { [RRsetKey($0, .a), RRsetKey($0, .aaaa)] }), to: &records)
        return ServedRecords(zone: zone, server: server, serial: serial, source: source, records: records)
    }

    private func unique(_ names: [DNSName]) -> [DNSName] {
        var seen = Set<DNSName>()
        return names.filter { seen.insert($0).inserted }
    }

    private func append(_ more: RecordStore, to records: inout RecordStore) throws(UpdateFailure) {
        do { try records.append(contentsOf: more) } catch { throw tooLarge(error) }
    }

    private func tooLarge(_ full: RecordStore.Full) -> UpdateFailure {
        UpdateFailure(
            .tooLarge,
            "the RRsets \(server) serves for the service type hold \(full): more than clawnet holds of one zone; it stopped asking")
    }

    /// Asks for each RRset, at most 64 at a time. NXDOMAIN and NODATA are empty RRsets. What
    /// the answers hold together stays within a zone's bounds, as they arrive.
    private func ask(_ keys: [RRsetKey]) async throws(UpdateFailure) -> RecordStore {
        typealias Answers = [Int: Result<RecordStore, UpdateFailure>]
        let results = await withTaskGroup(of: (Int, Result<RecordStore, UpdateFailure>).self, returning: Answers.self) { group in
            var results: Answers = [:]
            var next = keys.enumerated().makeIterator()
            func startNext() -> Bool {
                guard let (index, key) = next.next() else { return false }
                group.addTask { (index, await askOne(key)) }
                return true
            }
            var running = 0
            var held = (records: 0, bytes: 0)
            while running < 64, startNext() { running += 1 }
            for await (index, result) in group {
                results[index] = result
                if case .success(let found) = result {
                    held = (held.records + found.count, held.bytes + found.byteCount)
                    if held.records > bounds.records || held.bytes > bounds.bytes {
                        group.cancelAll()
                        let bound = RecordStore.Full(bound: held.records > bounds.records ? .records : .bytes, bounds: bounds)
                        return [index: .failure(tooLarge(bound))]
                    }
                }
                _ = startNext()
            }
            return results
        }
        var records = RecordStore(bounds: bounds)
        for index in keys.indices {
            switch results[index] {
            case .success(let found)?: try append(found, to: &records)
            case .failure(let failure)?: throw failure
            case nil: break
            }
        }
        return records
    }

    private func askOne(_ key: RRsetKey) async -> Result<RecordStore, UpdateFailure> {
        do {
            let response = try await client.query(key.name, key.type, server: server)
            let message = response.message
            guard message.rcode == .noError || message.rcode == .nxDomain else {
                return .failure(
                    UpdateFailure(.serverFailure, rcode: message.rcode, "\(server) answered \(message.rcode) for \(key.type) \(key.name)"))
            }
            // One message's records: far within a zone's bounds.
            return .success((try? RecordStore(message.answers.filter { $0.name == key.name && $0.type == key.type })) ?? RecordStore())
        } catch {
            return .failure(.transport(error))
        }
    }
}
