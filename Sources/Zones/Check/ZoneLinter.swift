import DNSSD
import DNSWire

/// Checks a zone file the way a DNS-SD client will use it, beyond what named-checkzone,
/// kzonecheck and ldns-read-zone look at: every PTR leads to an SRV and a TXT, every SRV
/// target has an address, OpenClaw's TXT keys agree with the SRV, sizes fit the servers.
public enum ZoneLinter {
    /// A `fragment` (records to add to a zone, from `doctor --emit-zone`) has no SOA or NS of
    /// its own; everything else is checked the same way.
    public static func check(_ zone: ZoneFile, domain requested: DomainName?, today: UTCDay, fragment: Bool = false)
        -> [Finding]
    {
        var findings: [Finding] = zone.problems.map { Finding(.fail, line: $0.line, .syntax($0.message)) }
        findings += zone.warnings.map { Finding(.warn, line: $0.line, .syntaxWarning($0.message)) }
        let index = ZoneIndex(zone)
        let records = zone.records

        // The apex: from --domain, else the SOA's owner.
        let soas = records.indices.filter { records.type(at: $0) == .soa }
        let apex: DNSName
        switch Self.apex(records, soas: soas, requested: requested) {
        case .found(let name): apex = name
        case .missing(let finding): return findings + [finding]
        }
        var outside = FindingList()
        // A run of records at one owner is one answer: the name is made and compared once.
        var inside = (position: -1, answer: true)
        for position in records.indices {
            if inside.position < 0 || !records.sameOwner(inside.position, position) {
                inside.answer = records.name(at: position).isSubdomain(of: apex)
            }
            inside.position = position
            guard !inside.answer else { continue }
            outside.append(Finding(.fail, line: zone.line(of: position), .outsideZone(records.name(at: position), apex: apex)))
        }
        findings += outside.findings

        if fragment {
            findings.append(Finding(.pass, .fragment(apex: apex)))
        } else {
            findings += checkApex(index, apex: apex, soas: soas, today: today)
        }
        findings += checkServices(index, apex: apex)
        findings += checkTTLs(zone)
        findings += checkSizes(zone)
        // Failures first, then warnings, then passes; within each, by line.
        return findings.sorted { lhs, rhs in
            lhs.severity != rhs.severity ? lhs.severity > rhs.severity : (lhs.line ?? 0) < (rhs.line ?? 0)
        }
    }

    /// `soas`: the positions of the zone's SOA records.
    private static func checkApex(_ index: ZoneIndex, apex: DNSName, soas: [Int], today: SerialPolicy.Day) -> [Finding] {
        var findings = FindingList()
        let zone = index.zone
        let apexSOA = index.positions(apex, .soa)
        if apexSOA.count != 1 {
            findings.append(Finding(.fail, line: soas.dropFirst().first.map { zone.line(of: $0) }, .soaCount(apexSOA.count, apex: apex)))
        }
        if let soa = apexSOA.first.map({ zone.entries[$0] }), case .soa(_, _, let serial, _, _, _, let minimum) = soa.record.data {
            if SerialPolicy.isDateSerial(serial) {
                let date = Int(serial / 100)
                let todayNumber = today.year * 10_000 + today.month * 100 + today.day
                if date > todayNumber + 1 {
                    findings.append(Finding(.warn, line: soa.line, .serialInFuture(serial)))
                } else {
                    findings.append(Finding(.pass, line: soa.line, .serialDated(serial)))
                }
            } else {
                findings.append(Finding(.warn, line: soa.line, .serialNotDated(serial)))
            }
            if minimum > 3600 {
                findings.append(Finding(.warn, line: soa.line, .soaMinimumLong(minimum)))
            }
        }
        let nameServers = index.entries(apex, .ns)
        if nameServers.isEmpty {
            findings.append(Finding(.fail, .nsMissing(apex: apex)))
        }
        for entry in nameServers {
            guard case .ns(let target) = entry.record.data, target.isSubdomain(of: apex) else { continue }
            if !index.hasAddress(target) {
                findings.append(Finding(.fail, line: entry.line, .nsWithoutAddress(target)))
            }
        }
        return findings.findings
    }

    /// Each service type's instances, one at a time. What is held grows by a few bytes an
    /// instance (a hash of each name listed), whatever the size of the PTR RRsets; findings of
    /// single records and instances are capped (FindingList), those of a service are not.
    private static func checkServices(_ index: ZoneIndex, apex: DNSName) -> [Finding] {
        var findings = FindingList()
        var perService: [Finding] = []
        let zone = index.zone
        // The PTR record listing each instance, by the instance name's hash (DNSName's, seeded
        // per process): a name is listed when the PTR there points to it.
        var listed: [Int: Int] = [:]
        func ptrTarget(_ position: Int) -> DNSName? {
            if case .ptr(let target) = zone.records[position].data { return target }
            return nil
        }
        let services = index.serviceTypes(apex: apex)
        for head in services {
            let service = zone.records.name(at: head)
            var size = (instances: 0, answer: 0, slab: 0)
            var complete = 0
            let openClaw = ServiceType.isOpenClaw(labels: service.labels.prefix(2))
            for position in index.positions(service, .ptr) {
                let line = zone.line(of: position)
                guard let target = ptrTarget(position) else { continue }
                guard target.labels.count == service.labels.count + 1, target.parent == service else {
                    findings.append(Finding(.fail, line: line, .ptrNotInstance(service: service, target: target)))
                    continue
                }
                if let first = listed[target.hashValue], ptrTarget(first) == target {
                    findings.append(Finding(.warn, line: line, .instanceListedTwice(target, firstLine: zone.line(of: first))))
                    continue
                }
                listed[target.hashValue] = position
                size = (size.instances + 1, size.answer + 2 + 10 + 1 + (target.first?.count ?? 0) + 2, size.slab + 2 + target.wire.count)
                var instanceFindings: [Finding] = []
                if checkInstance(target, ptrLine: line, index: index, apex: apex, openClaw: openClaw, into: &instanceFindings) {
                    complete += 1
                }
                findings += instanceFindings
            }
            perService += sizeFindings(service: service, size: size, line: zone.line(of: head))
            if complete > 0 {
                perService.append(Finding(.pass, .instancesComplete(complete, service: service)))
            }
        }
        unlistedInstances(zone, apex: apex, listed: { listed[$0.hashValue].flatMap(ptrTarget) == $0 }, into: &findings)
        if services.isEmpty {
            perService.append(Finding(.warn, .noServices))
        }
        return perService + findings.findings
    }

    /// Instance records (SRV, TXT) nothing points to: invisible to browsing nodes.
    private static func unlistedInstances(_ zone: ZoneFile, apex: DNSName, listed: (DNSName) -> Bool, into findings: inout FindingList) {
        for position in zone.records.indices where [.srv, .txt].contains(zone.records.type(at: position)) {
            let name = zone.records.name(at: position)
            guard isInstance(name, apex: apex), !listed(name) else { continue }
            findings.append(Finding(.warn, line: zone.line(of: position), .instanceUnlisted(name, type: zone.records.type(at: position))))
        }
    }

    /// Checks one instance; true when it is complete (SRV, TXT, an address).
    private static func checkInstance(
        _ name: DNSName, ptrLine: Int, index: ZoneIndex, apex: DNSName, openClaw: Bool, into findings: inout [Finding]
    ) -> Bool {
        let srvs = index.entries(name, .srv)
        let txts = index.entries(name, .txt)
        guard let srv = srvs.first, case .srv(_, _, let port, let target) = srv.record.data else {
            findings.append(Finding(.fail, line: ptrLine, .srvMissing(instance: name)))
            return false
        }
        var complete = true
        if port == 0 {
            findings.append(Finding(.warn, line: srv.line, .srvPortZero(instance: name)))
        }
        if !checkSRVTarget(target, of: name, line: srv.line, index: index, apex: apex, into: &findings) { complete = false }
        guard let txt = txts.first, case .txt(let record) = txt.record.data else {
            findings.append(Finding(.fail, line: ptrLine, .txtMissing(instance: name, port: port, openClaw: openClaw)))
            return false
        }
        if !checkTXT(txts, record, of: name, srvPort: port, openClaw: openClaw, into: &findings) { complete = false }
        return complete
    }

    /// The SRV target of an instance: in the zone, a host with an address (not a CNAME);
    /// outside it, unchecked. False when a node could not reach it.
    private static func checkSRVTarget(
        _ target: DNSName, of instance: DNSName, line: Int, index: ZoneIndex, apex: DNSName, into findings: inout [Finding]
    ) -> Bool {
        if target.isSubdomain(of: apex) {
            if index.has(target, .cname) {
                findings.append(Finding(.fail, line: line, .srvTargetCNAME(target, instance: instance)))
                return false
            }
            if !index.hasAddress(target) {
                findings.append(Finding(.fail, line: line, .srvTargetWithoutAddress(target, instance: instance)))
                return false
            }
        } else if !target.isRoot {
            findings.append(Finding(.warn, line: line, .srvTargetOutside(target, instance: instance)))
        }
        return true
    }

    /// An instance's TXT records (the first is `record`): one, values a node can use, its
    /// gatewayPort the SRV's. False when a node would be misled.
    private static func checkTXT(
        _ txts: LazyMapCollection<[Int], ZoneFile.Entry>, _ record: TXTRecord, of instance: DNSName, srvPort port: UInt16,
        openClaw: Bool, into findings: inout [Finding]
    ) -> Bool {
        let line = txts[0].line
        if txts.count > 1 {
            findings.append(Finding(.warn, line: txts[1].line, .txtMultiple(instance: instance, count: txts.count)))
        }
        // Another service's TXT (an `_http._tcp` beside the Gateways) follows its own rules.
        guard openClaw else { return true }
        let reading = TXTReading(record)
        for issue in reading.issues {
            findings.append(Finding(issue.severity == .error ? .fail : .warn, line: line, .txtIssue(instance: instance, issue)))
        }
        if let advertised = reading.info.gatewayPort, advertised != Int(port) {
            findings.append(Finding(.fail, line: line, .txtPortMismatch(instance: instance, txt: advertised, srv: port)))
            return false
        }
        return true
    }

    /// `size`: how many instances the service's PTR RRset lists, the bytes of the answer that
    /// carries it (header, question, and per record a compressed owner, fixed fields and the
    /// instance label followed by a pointer) and of BIND's uncompressed copy.
    private static func sizeFindings(service: DNSName, size: (instances: Int, answer: Int, slab: Int), line: Int?) -> [Finding] {
        let count = size.instances
        let bytes = 12 + service.wire.count + 4 + size.answer
        let slab = size.slab
        if bytes > ZoneWriter.maxMessageBytes {
            return [Finding(.fail, line: line, .ptrTooLarge(instances: count, service: service))]
        }
        if slab > ZoneWriter.maxMessageBytes {
            return [Finding(.warn, line: line, .bindSlabTooLarge(instances: count, bytes: slab))]
        }
        if count > ZoneWriter.bindRecordsPerType {
            return [Finding(.warn, line: line, .bindRecordsPerType(instances: count, service: service))]
        }
        return []
    }

    private static func checkTTLs(_ zone: ZoneFile) -> [Finding] {
        var findings = FindingList()
        let records = zone.records
        for position in records.indices where records.type(at: position) != .soa {
            let type = records.type(at: position)
            let ttl = records.ttl(at: position)
            if ttl == 0 {
                findings.append(Finding(.warn, line: zone.line(of: position), .ttlZero(records.name(at: position), type: type)))
            } else if [.ptr, .srv, .txt].contains(type), ttl > 86_400 {
                findings.append(Finding(.warn, line: zone.line(of: position), .ttlLong(records.name(at: position), type: type, ttl: ttl)))
            }
        }
        return findings.findings
    }

    /// A TXT record BIND refuses fails ("ran out of space"); one BIND loads but whose answer
    /// (header, question, record) cannot fit in one 65,535-byte message is a warning: no
    /// server can send it.
    private static func checkSizes(_ zone: ZoneFile) -> [Finding] {
        var findings = FindingList()
        for position in zone.records.indices where zone.records.type(at: position) == .txt {
            let entry = zone.entries[position]
            guard case .txt(let txt) = entry.record.data else { continue }
            let rdata = txt.wire.count
            let answer = ZoneWriter.answerBytes(owner: entry.record.name, rdata: rdata)
            if rdata > ZoneFile.bindMaxTXTRDATA {
                findings.append(Finding(.fail, line: entry.line, .txtTooLarge(entry.record.name, rdata: rdata)))
            } else if answer > ZoneWriter.maxMessageBytes {
                findings.append(Finding(.warn, line: entry.line, .txtAnswerTooLarge(entry.record.name, rdata: rdata, answer: answer)))

            }
        }
        return findings.findings
    }

    /// `_name._tcp.<apex>` or `_name._udp.<apex>`.
    static func isServiceType(_ name: DNSName, apex: DNSName) -> Bool {
        guard name.labels.count == apex.labels.count + 2, name.isSubdomain(of: apex) else { return false }
        let transport = name.labels[1].map { DNSName.lower($0) }
        return name.labels[0].first == UInt8(ascii: "_") && (transport == Array("_tcp".utf8) || transport == Array("_udp".utf8))
    }

    static func isInstance(_ name: DNSName, apex: DNSName) -> Bool {
        name.labels.count == apex.labels.count + 3 && isServiceType(name.parent, apex: apex)
    }
}
