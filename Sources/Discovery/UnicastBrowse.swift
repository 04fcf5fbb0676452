import DNSClient
import DNSSD
import DNSWire
import Synchronization

/// One DNS-SD browse of a service type in a unicast domain (RFC 6763): PTR, then SRV and TXT
/// of every instance, then A and AAAA of every SRV target. Records the server already put in
/// the additional section are used instead of asking again. Each step asks its questions for
/// every instance at once, so a large domain takes a round trip per record type, not thousands.
struct UnicastBrowse: Sendable {
    struct Result: Sendable {
        var beacons: [GatewayBeacon] = []
        var issues: [DiscoveryIssue] = []
        /// TTL of the PTR RRset, for how often a watch asks again.
        var ttl: UInt32?
        /// Whether the PTR query got any answer at all (for the Tailscale fallback).
        var ptrAnswered = false
        /// The PTR question got no answer at all (no reply, refused, unreachable): nothing can
        /// be concluded about the domain's instances, so a watch keeps what it knew.
        var unreachable = false
    }

    let resolver: any DNSResolving
    let type: ServiceType
    let domain: DomainName
    /// The most of one TXT record a beacon keeps: a server may send 64 KiB for each of
    /// thousands of instances, which would make a browse hold gigabytes.
    static let txtLimit = 8 * 1024
    /// The most instances of one domain a browse resolves: a PTR RRset holds up to ~3,600
    /// (one 64 KiB message), BIND serves 100 unless told otherwise, and a fleet splits its
    /// Gateways across domains long before this. With `txtLimit` it bounds what one domain can
    /// make a browse hold (about 50 MB).
    static let instanceLimit = 1_000
    /// Added to every beacon's warnings (e.g. "found only via Tailscale's resolver").
    var beaconNote: String?

    func run(onBeacon: @Sendable (GatewayBeacon) async -> Void = { _ in }) async -> Result {
        var result = Result()
        let serviceName: DNSName
        do { serviceName = try DNSName(instance: nil, type: type, domain: domain) } catch {
            result.issues.append(issue(.serviceNameInvalid(error: error.message)))
            return result
        }

        let ptr = await resolver.lookup(serviceName, .ptr)
        if case .failed = ptr { result.unreachable = true }
        guard case .records(let records, let response) = ptr else {
            result.issues.append(
                issue(.ptrUnanswered(service: "\(serviceName)", type: type.name, explanation: ptr.explanation, answer: Self.ptrAnswer(ptr)))
            )
            return result
        }
        result.ptrAnswered = true
        result.ttl = records.map(\.ttl).min()
        if response.message.truncated {
            result.issues.append(issue(.ptrTruncated(service: "\(serviceName)", server: "\(response.server)", records: records.count)))
        }
        let known = KnownRecords(inBailiwick: domain)
        known.add(response.message.additional)

        var instances = self.instances(listedBy: records, under: serviceName, issues: &result.issues)
        if instances.count > Self.instanceLimit {
            result.issues.append(issue(.tooManyInstances(service: "\(serviceName)", count: instances.count, limit: Self.instanceLimit)))
            instances = Array(instances.prefix(Self.instanceLimit))
        }
        await resolveAll(instances, known: known, answeredBy: response.server, into: &result, onBeacon: onBeacon)
        return result
    }

    /// The PTR targets that are instances of the type in the domain, each once.
    private func instances(listedBy records: [DNSRecord], under serviceName: DNSName, issues: inout [DiscoveryIssue]) -> [DNSName] {
        var instances: [DNSName] = []
        var seen = Set<DNSName>()
        for record in records {
            guard case .ptr(let target) = record.data else { continue }
            guard target.labels.count == serviceName.labels.count + 1, target.parent == serviceName else {
                issues.append(issue(.ptrNotInstance(service: "\(serviceName)", target: "\(target)", type: type.name)))
                continue
            }
            if seen.insert(target).inserted { instances.append(target) }
        }
        return instances
    }

    /// Resolves the instances a record type at a time: SRV and TXT of every instance in one
    /// batch, then A and AAAA of every SRV target in another (each asked once, and only when an
    /// additional section has not given it), so the round trips do not grow with the instances.
    private func resolveAll(
        _ instances: [DNSName], known: KnownRecords, answeredBy: DNSServer, into result: inout Result,
        onBeacon: @Sendable (GatewayBeacon) async -> Void
    ) async {
        let questions = instances.flatMap { name -> [DNSQuestionKey] in [(name, .srv), (name, .txt)] }
        let answers = await known.lookup(questions, resolver: resolver)
        var services: [Service] = []
        for (index, name) in instances.enumerated() {
            switch service(name, srv: answers[2 * index], txt: answers[2 * index + 1], known: known) {
            case .success(let service): services.append(service)
            case .failure(let issue): result.issues.append(issue)
            }
        }
        // A browse whose time is up (its task cancelled) asks nothing more.
        guard !Task.isCancelled else { return }
        let addresses = await self.addresses(of: services.compactMap(\.target), known: known)
        for service in services {
            let beacon = service.beacon(addresses: service.target.map { addresses[$0] ?? ([], nil) } ?? ([], nil), answeredBy: answeredBy)
            result.beacons.append(beacon)
            await onBeacon(beacon)
        }
    }

    /// What SRV and TXT say of one instance, before its addresses are known.
    private struct Service {
        var beacon: GatewayBeacon
        /// The SRV target to look up; nil for '.'.
        var target: DNSName?

        func beacon(addresses: ([IPAddress], note: String?), answeredBy: DNSServer) -> GatewayBeacon {
            var beacon = self.beacon
            beacon.addresses = addresses.0
            if let note = addresses.note { beacon.discoveryWarnings.append(note) }
            beacon.resolvers = [answeredBy.description]
            return beacon
        }
    }

    private func service(_ name: DNSName, srv: DNSLookup, txt: DNSLookup, known: KnownRecords) -> Swift.Result<Service, DiscoveryIssue> {
        guard let label = name.first, let instance = try? InstanceName(bytes: label) else {
            return .failure(issue(.instanceLabelInvalid(name: "\(name)")))
        }
        let services: [(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)] = srv.records.compactMap {
            if case .srv(let priority, let weight, let port, let target) = $0.data { return (priority, weight, port, target) }
            return nil
        }.sorted { ($0.priority, UInt16.max - $0.weight) < ($1.priority, UInt16.max - $1.weight) }
        guard let best = services.first else { return .failure(missingSRV(name, instance, srv)) }
        if case .records(_, let response) = srv { known.add(response.message.additional) }

        var notes: [String] = beaconNote.map { [$0] } ?? []
        if services.count > 1 {
            notes.append(
                "\(services.count) SRV records; using priority \(best.priority) weight \(best.weight) (\(best.target):\(best.port))")
        }
        let txtRecord = Self.firstTXT(of: txt, notes: &notes)
        if best.target.isRoot { notes.append("SRV target is '.': the service is decidedly not available (RFC 2782)") }
        var beacon = GatewayBeacon(
            instance: instance, serviceType: type, domain: domain, source: .unicast,
            host: best.target.description, port: Int(best.port), addresses: [], txt: txtRecord)
        beacon.discoveryWarnings = notes
        return .success(Service(beacon: beacon, target: best.target.isRoot ? nil : best.target))
    }

    /// A and AAAA of every host in one batch, each host once; a note for a host with none.
    private func addresses(of hosts: [DNSName], known: KnownRecords) async -> [DNSName: ([IPAddress], note: String?)] {
        var seen = Set<DNSName>()
        let unique = hosts.filter { seen.insert($0).inserted }
        let answers = await known.lookup(unique.flatMap { host -> [DNSQuestionKey] in [(host, .a), (host, .aaaa)] }, resolver: resolver)
        var addresses: [DNSName: ([IPAddress], note: String?)] = [:]
        for (index, host) in unique.enumerated() {
            let (a, aaaa) = (answers[2 * index], answers[2 * index + 1])
            let found = (a.records + aaaa.records).compactMap { record -> IPAddress? in
                switch record.data {
                case .a(let address), .aaaa(let address): address
                default: nil
                }
            }
            addresses[host] = (found, found.isEmpty ? "address lookup for \(host): A \(a.explanation); AAAA \(aaaa.explanation)" : nil)
        }
        return addresses
    }

    /// An instance listed by PTR whose SRV question got no record: a PowerDNS without
    /// 8bit-dns (SERVFAIL on names with such bytes) or a record left out.
    private func missingSRV(_ name: DNSName, _ instance: InstanceName, _ srv: DNSLookup) -> DiscoveryIssue {
        if case .negative(.servFail, _, _) = srv, PowerDNSNames.needEightBitDNS(name.labels) {
            return issue(.eightBitNamesRefused(instance: instance.displayName, explanation: srv.explanation), kind: .eightBitNames)
        }
        return issue(
            .srvMissing(instance: instance.displayName, presentation: instance.presentation, type: type.name, explanation: srv.explanation))
    }

    /// The instance's first TXT record, at most `txtLimit` bytes of it; what is odd about its
    /// TXT records (none, several, too long) goes into `notes`.
    private static func firstTXT(of txt: DNSLookup, notes: inout [String]) -> TXTRecord {
        let txtRecords: [TXTRecord] = txt.records.compactMap { if case .txt(let record) = $0.data { return record } else { return nil } }
        if txtRecords.isEmpty {
            notes.append("no TXT record (\(txt.explanation)); RFC 6763 requires one")
        } else if txtRecords.count > 1 {
            notes.append("\(txtRecords.count) TXT records; the first is used")
        }
        let txtRecord = txtRecords.first ?? .empty
        let kept = txtRecord.prefix(wireBytes: txtLimit)
        guard kept.truncated else { return txtRecord }
        notes.append(
            "the TXT record is \(txtRecord.wire.count) bytes; only its first \(txtLimit / 1024) KiB are kept (RFC 6763 §6.2: "
                + "a TXT record over 1,300 bytes is not recommended; OpenClaw's are a few hundred)")
        return kept.record
    }

    private func issue(_ code: DiscoveryIssue.Code, kind: DiscoveryIssue.Kind = .dnsError) -> DiscoveryIssue {
        DiscoveryIssue(source: .unicast, kind: kind, code, domain: domain.name)
    }

    /// dig's words for asking `server`: `@ADDRESS`, and `-p PORT` off port 53.
    static func digServer(_ server: DNSServer) -> String {
        "@\(server.address)" + (server.port == 53 ? "" : " -p \(server.port)")
    }

    /// How the PTR question went, for the fix.
    private static func ptrAnswer(_ lookup: DNSLookup) -> DiscoveryIssue.PTRAnswer {
        switch lookup {
        case .negative(.nxDomain, let server, false): .noSuchDomain(server: "\(server)", dig: digServer(server))
        case .negative(.nxDomain, _, _), .negative(_, _, true): .noRecords
        case .negative(.refused, _, _): .refused
        case .negative(.servFail, _, _): .serverFailure
        case .failed(let failure): .failed(fix: failure.fix)
        default: .other
        }
    }
}

/// Records learnt from additional sections, used instead of asking again. Only records
/// inside the browsed domain are trusted (an additional record about another zone is not
/// the server's to give).
final class KnownRecords: Sendable {
    private let domain: DNSName?
    private let store = Mutex<[Key: [DNSRecord]]>([:])

    private struct Key: Hashable {
        let name: DNSName
        let type: RRType
    }

    init(inBailiwick domain: DomainName) {
        self.domain = try? DNSName(instance: nil, type: nil, domain: domain)
    }

    func add(_ records: [DNSRecord]) {
        store.withLock { store in
            for record in records where domain.map({ record.name.isSubdomain(of: $0) }) ?? false {
                let key = Key(name: record.name, type: record.type)
                if !(store[key]?.contains(record) ?? false) { store[key, default: []].append(record) }
            }
        }
    }

    func cached(_ name: DNSName, _ type: RRType) -> [DNSRecord]? {
        store.withLock { $0[Key(name: name, type: type)] }
    }

    /// The lookups of `questions`, in their order: records an additional section gave are
    /// used, the rest asked in one batch.
    func lookup(_ questions: [DNSQuestionKey], resolver: any DNSResolving) async -> [DNSLookup] {
        var lookups = questions.map { question -> DNSLookup? in
            guard let records = cached(question.name, question.type), !records.isEmpty else { return nil }
            return .records(records, response: .cached)
        }
        let open = lookups.indices.filter { lookups[$0] == nil }
        for (index, lookup) in zip(open, await resolver.lookup(open.map { questions[$0] })) { lookups[index] = lookup }
        return lookups.map { $0! }
    }
}

extension DNSResponse {
    /// Stands for records taken from an earlier additional section.
    static let cached = DNSResponse(
        message: DNSMessage(
            id: 0, rcode: .noError, truncated: false, authoritative: false, isResponse: true,
            question: nil, answers: [], authority: [], additional: []),
        server: DNSServer(address: IPAddress("0.0.0.0")!, port: 0), overTCP: false)
}
