import DNSClient
import DNSSD
import DNSWire

/// A name and a record type: the unit DNS (and RFC 2136's prerequisites) compares.
public struct RRsetKey: Hashable, Sendable {
    public let name: DNSName
    public let type: RRType

    public init(_ name: DNSName, _ type: RRType) {
        self.name = name
        self.type = type
    }
}

/// What a server serves now, as far as one push needs to know: the whole zone (AXFR), or the
/// RRsets of the service type and its hosts (asked one by one when transfers are refused).
public struct ServedRecords: Sendable {
    public enum Source: Sendable, Hashable {
        case transfer(messages: Int)
        /// Transfers were refused (the reason says how); the RRsets were asked instead.
        case queries(transferRefused: String?)
    }

    public let zone: DNSName
    public let server: DNSServer
    public let serial: UInt32?
    public let source: Source
    public let records: [DNSRecord]
    private let rrsets: [RRsetKey: [DNSRecord]]

    public init(zone: DNSName, server: DNSServer, serial: UInt32?, source: Source, records: [DNSRecord]) {
        self.zone = zone
        self.server = server
        self.serial = serial
        self.source = source
        self.records = records
        self.rrsets = Dictionary(grouping: records) { RRsetKey($0.name, $0.type) }
    }

    public func rrset(_ name: DNSName, _ type: RRType) -> [DNSRecord] {
        rrsets[RRsetKey(name, type)] ?? []
    }

    /// The instances the service's PTR RRset lists (only those directly under it).
    public func instances(of service: DNSName) -> [DNSName] {
        rrset(service, .ptr).compactMap { record in
            if case .ptr(let target) = record.data, target.parent == service, target.labels.count == service.labels.count + 1 {
                return target
            }
            return nil
        }
    }
}

/// Reads what the server has now: AXFR first; when transfers are refused, the PTR RRset of
/// the service type, SRV and TXT of every instance listed or wanted, A and AAAA of every
/// host named, each asked as an ordinary question.
public struct ZoneReader: Sendable {
    public let server: DNSServer
    public let key: TSIGKey?
    public let timeout: Duration
    let client: DNSClient
    let clock: @Sendable () -> UInt64

    public init(server: DNSServer, key: TSIGKey?, timeout: Duration, client: DNSClient, clock: @escaping @Sendable () -> UInt64 = unixNow) {
        self.server = server
        self.key = key
        self.timeout = timeout
        self.client = client
        self.clock = clock
    }

    /// `instances` and `hosts`: names to ask for besides what the PTR RRset lists.
    public func read(zone: DNSName, service: DNSName, instances: [DNSName], hosts: [DNSName], transfer: Bool = true)
        async throws(UpdateFailure) -> ServedRecords
    {
        var refusal: String?
        if transfer {
            do {
                let zoneData = try await ZoneTransfer.run(zone: zone, server: server, key: key, timeout: timeout, clock: clock)
                return ServedRecords(
                    zone: zone, server: server, serial: zoneData.serial, source: .transfer(messages: zoneData.messages),
                    records: zoneData.records)
            } catch  where [.refused, .notAuthoritative, .notImplemented].contains(error.reason) {
                refusal = error.rcode.map { "\($0)" } ?? error.message
            }
        }
        return try await readRRsets(zone: zone, service: service, instances: instances, hosts: hosts, refusal: refusal)
    }

    private func readRRsets(zone: DNSName, service: DNSName, instances: [DNSName], hosts: [DNSName], refusal: String?)
        async throws(UpdateFailure) -> ServedRecords
    {
        var records = try await ask([RRsetKey(zone, .soa), RRsetKey(service, .ptr)])
        let serial = records.lazy.compactMap { record -> UInt32? in
            if case .soa(_, _, let serial, _, _, _, _) = record.data { return serial }
            return nil
        }.first
        let listed = ServedRecords(zone: zone, server: server, serial: serial, source: .queries(transferRefused: refusal), records: records)
            .instances(of: service)
        let names = unique(listed + instances)
        let instanceRecords = try await ask(names.flatMap { [RRsetKey($0, .srv), RRsetKey($0, .txt)] })
        records += instanceRecords
        let targets = instanceRecords.compactMap { record -> DNSName? in
            if case .srv(_, _, _, let target) = record.data, target.isSubdomain(of: zone) { return target }
            return nil
        }
        records += try await ask(unique(hosts + targets).flatMap { [RRsetKey($0, .a), RRsetKey($0, .aaaa)] })
        return ServedRecords(zone: zone, server: server, serial: serial, source: .queries(transferRefused: refusal), records: records)
    }

    private func unique(_ names: [DNSName]) -> [DNSName] {
        var seen = Set<DNSName>()
        return names.filter { seen.insert($0).inserted }
    }

    /// Asks for each RRset, at most 64 at a time. NXDOMAIN and NODATA are empty RRsets.
    private func ask(_ keys: [RRsetKey]) async throws(UpdateFailure) -> [DNSRecord] {
        let results = await withTaskGroup(of: (Int, Result<[DNSRecord], UpdateFailure>).self) { group in
            var results: [Int: Result<[DNSRecord], UpdateFailure>] = [:]
            var next = keys.enumerated().makeIterator()
            func startNext() -> Bool {
                guard let (index, key) = next.next() else { return false }
                group.addTask { (index, await askOne(key)) }
                return true
            }
            var running = 0
            while running < 64, startNext() { running += 1 }
            for await (index, result) in group {
                results[index] = result
                _ = startNext()
            }
            return results
        }
        var records: [DNSRecord] = []
        for index in keys.indices {
            switch results[index] {
            case .success(let found)?: records += found
            case .failure(let failure)?: throw failure
            case nil: break
            }
        }
        return records
    }

    private func askOne(_ key: RRsetKey) async -> Result<[DNSRecord], UpdateFailure> {
        do {
            let response = try await client.query(key.name, key.type, server: server)
            let message = response.message
            guard message.rcode == .noError || message.rcode == .nxDomain else {
                return .failure(
                    UpdateFailure(.serverFailure, rcode: message.rcode, "\(server) answered \(message.rcode) for \(key.type) \(key.name)"))
            }
            return .success(message.answers.filter { $0.name == key.name && $0.type == key.type })
        } catch {
            return .failure(.transport(error))
        }
    }
}
