import DNSSD
import DNSWire

/// Checks a zone file the way a DNS-SD client will use it, beyond what named-checkzone,
/// kzonecheck and ldns-read-zone look at: every PTR leads to an SRV and a TXT, every SRV
/// target has an address, OpenClaw's TXT keys agree with the SRV, sizes fit the servers.
public enum ZoneLinter {
    /// A `fragment` (records to add to a zone, from `doctor --emit-zone`) has no SOA or NS of
    /// its own; everything else is checked the same way.
    public static func check(_ zone: ZoneFile, domain requested: DomainName?, today: SerialPolicy.Day, fragment: Bool = false)
        -> [Finding]
    {
        var findings: [Finding] = zone.problems.map {
            Finding(
                .fail, .syntax, line: $0.line, "syntax: \($0.message)",
                fix: "this line does not parse (named-checkzone and kzonecheck will refuse it too)")
        }
        findings += zone.warnings.map { Finding(.warn, .syntaxWarning, line: $0.line, $0.message) }
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
            outside.append(
                Finding(
                    .fail, .outsideZone, line: zone.line(of: position), "\(records.name(at: position)) is outside the zone \(apex)",
                    fix: "check $ORIGIN and trailing dots"))
        }
        findings += outside.findings

        if fragment {
            findings.append(Finding(.pass, .fragment, "a fragment: records to add to the zone \(apex) (its SOA and NS are the zone's)"))
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
            findings.append(
                Finding(
                    .fail, apexSOA.isEmpty ? .soaMissing : .soaDuplicate, line: soas.dropFirst().first.map { zone.line(of: $0) },
                    apexSOA.isEmpty ? "no SOA record at \(apex)" : "\(apexSOA.count) SOA records at \(apex); a zone has exactly one",
                    fix: "keep one `@ IN SOA ns1 hostmaster <serial> 7200 3600 1209600 60`"))
        }
        if let soa = apexSOA.first.map({ zone.entries[$0] }), case .soa(_, _, let serial, _, _, _, let minimum) = soa.record.data {
            if SerialPolicy.isDateSerial(serial) {
                let date = Int(serial / 100)
                let todayNumber = today.year * 10_000 + today.month * 100 + today.day
                if date > todayNumber + 1 {
                    findings.append(
                        Finding(
                            .warn, .serialInFuture, line: soa.line, "serial \(serial) is dated in the future",
                            fix: "harmless, but `zone generate` can only count up from it"))
                } else {
                    findings.append(Finding(.pass, .serialDated, line: soa.line, "SOA serial \(serial) (YYYYMMDDnn)"))
                }
            } else {
                findings.append(
                    Finding(
                        .warn, .serialNotDated, line: soa.line, "serial \(serial) is not in OpenClaw's YYYYMMDDnn form",
                        fix: "fine for DNS; `zone generate` moves it to the date form, never lower"))
            }
            if minimum > 3600 {
                findings.append(
                    Finding(
                        .warn, .soaMinimumLong, line: soa.line, "SOA minimum \(minimum) s: resolvers remember a missing name that long",
                        fix: "OpenClaw uses 60"))
            }
        }
        let nameServers = index.entries(apex, .ns)
        if nameServers.isEmpty {
            findings.append(Finding(.fail, .nsMissing, "no NS record at \(apex)", fix: "add `@ IN NS ns1` and `ns1 IN A <address>`"))
        }
        for entry in nameServers {
            guard case .ns(let target) = entry.record.data, target.isSubdomain(of: apex) else { continue }
            if !index.hasAddress(target) {
                findings.append(
                    Finding(
                        .fail, .nsWithoutAddress, line: entry.line, "name server \(target) is in the zone but has no A or AAAA record",
                        fix: "add `\(target.labels.first.map { Presentation.escapeLabel($0) } ?? "ns1") IN A <address>`"))
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
                    findings.append(
                        Finding(
                            .fail, .ptrNotInstance, line: line,
                            "PTR \(service) points to \(target), which is not an instance of \(service)",
                            fix: "PTR targets must be <instance>.\(service)"))
                    continue
                }
                if let first = listed[target.hashValue], ptrTarget(first) == target {
                    findings.append(
                        Finding(
                            .warn, .instanceListedTwice, line: line,
                            "instance \(target) is listed twice (first on line \(zone.line(of: first))); names compare without case",
                            fix: "keep one PTR per instance"))
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
                perService.append(
                    Finding(.pass, .instancesComplete, "\(Plural.counted(complete, "instance")) of \(service) with SRV, TXT and addresses"))
            }
        }
        unlistedInstances(zone, apex: apex, listed: { listed[$0.hashValue].flatMap(ptrTarget) == $0 }, into: &findings)
        if services.isEmpty {
            perService.append(
                Finding(
                    .warn, .noServices, "no service PTR records: the zone publishes no Gateway",
                    fix: "`clawnet zone generate` writes `_openclaw-gw._tcp IN PTR <instance>._openclaw-gw._tcp`"))
        }
        return perService + findings.findings
    }

    /// Instance records (SRV, TXT) nothing points to: invisible to browsing nodes.
    private static func unlistedInstances(_ zone: ZoneFile, apex: DNSName, listed: (DNSName) -> Bool, into findings: inout FindingList) {
        for position in zone.records.indices where [.srv, .txt].contains(zone.records.type(at: position)) {
            let name = zone.records.name(at: position)
            guard isInstance(name, apex: apex), !listed(name) else { continue }
            findings.append(
                Finding(
                    .warn, .instanceUnlisted, line: zone.line(of: position),
                    "\(name) has \(zone.records.type(at: position)) but no PTR lists it: nodes will not see it",
                    fix: "add `\(name.parent) IN PTR \(name)` or remove it"))
        }
    }

    /// Checks one instance; true when it is complete (SRV, TXT, an address).
    private static func checkInstance(
        _ name: DNSName, ptrLine: Int, index: ZoneIndex, apex: DNSName, openClaw: Bool, into findings: inout [Finding]
    ) -> Bool {
        let display = name.labels.first.map { SafeText.display($0) } ?? "?"
        let srvs = index.entries(name, .srv)
        let txts = index.entries(name, .txt)
        guard let srv = srvs.first, case .srv(_, _, let port, let target) = srv.record.data else {
            findings.append(
                Finding(
                    .fail, .srvMissing, line: ptrLine, "'\(display)' is listed by PTR but has no SRV record",
                    fix: "add `\(name) IN SRV 0 0 <port> <host>`"))
            return false
        }
        var complete = true
        if port == 0 {
            findings.append(
                Finding(
                    .warn, .srvPortZero, line: srv.line, "'\(display)' has SRV port 0: it says it is not available",
                    fix: "use the gateway port (18789)"))
        }
        if !checkSRVTarget(target, of: display, line: srv.line, index: index, apex: apex, into: &findings) { complete = false }
        guard let txt = txts.first, case .txt(let record) = txt.record.data else {
            findings.append(
                Finding(
                    .fail, .txtMissing, line: ptrLine,
                    "'\(display)' has no TXT record (RFC 6763 requires one; OpenClaw nodes read their hints from it)",
                    fix: openClaw ? "add `\(name) IN TXT \"role=gateway\" \"gatewayPort=\(port)\" ...`" : "add `\(name) IN TXT \"\"`"))
            return false
        }
        if !checkTXT(txts, record, of: display, srvPort: port, openClaw: openClaw, into: &findings) { complete = false }
        return complete
    }

    /// The SRV target of an instance: in the zone, a host with an address (not a CNAME);
    /// outside it, unchecked. False when a node could not reach it.
    private static func checkSRVTarget(
        _ target: DNSName, of display: String, line: Int, index: ZoneIndex, apex: DNSName, into findings: inout [Finding]
    ) -> Bool {
        if target.isSubdomain(of: apex) {
            if index.has(target, .cname) {
                findings.append(
                    Finding(
                        .fail, .srvTargetCNAME, line: line,
                        "SRV target \(target) of '\(display)' is a CNAME; RFC 2782 wants the real host name",
                        fix: "point the SRV at the host's own name"))
                return false
            }
            if !index.hasAddress(target) {
                findings.append(
                    Finding(
                        .fail, .srvTargetWithoutAddress, line: line,
                        "SRV target \(target) of '\(display)' has no A or AAAA record in the zone",
                        fix: "add `\(target.labels.first.map { Presentation.escapeLabel($0) } ?? "host") IN A <address>`"))
                return false
            }
        } else if !target.isRoot {
            findings.append(
                Finding(
                    .warn, .srvTargetOutside, line: line,
                    "SRV target \(target) of '\(display)' is outside the zone: its address cannot be checked here"))
        }
        return true
    }

    /// An instance's TXT records (the first is `record`): one, values a node can use, its
    /// gatewayPort the SRV's. False when a node would be misled.
    private static func checkTXT(
        _ txts: LazyMapCollection<[Int], ZoneFile.Entry>, _ record: TXTRecord, of display: String, srvPort port: UInt16,
        openClaw: Bool, into findings: inout [Finding]
    ) -> Bool {
        let line = txts[0].line
        if txts.count > 1 {
            findings.append(
                Finding(
                    .warn, .txtMultiple, line: txts[1].line, "'\(display)' has \(txts.count) TXT records; clients read one",
                    fix: "merge them into one"))
        }
        // Another service's TXT (an `_http._tcp` beside the Gateways) follows its own rules.
        guard openClaw else { return true }
        let reading = TXTReading(record)
        for issue in reading.issues {
            findings.append(
                Finding(
                    issue.severity == .error ? .fail : .warn, FindingCode(issue.kind), line: line, "'\(display)': \(issue.message)",
                    fix: fix(for: issue)))
        }
        if let advertised = reading.info.gatewayPort, advertised != Int(port) {
            findings.append(
                Finding(
                    .fail, .txtPortMismatch, line: line, "'\(display)': TXT gatewayPort \(advertised) differs from SRV port \(port)",
                    fix: "make them equal; nodes connect to the SRV port"))
            return false
        }
        return true
    }

    /// How to repair a TXT value a node cannot use; warnings need no fix.
    private static func fix(for issue: TXTIssue) -> String? {
        switch issue.kind {
        case .fingerprintMalformed:
            "gatewayTlsSha256 is 64 lower-case hex digits, the SHA-256 of the certificate's DER: `openssl x509 -in cert.pem -outform DER | "
                + "sha256sum`"
        case .notAPort:
            "write the port as a number (1-65535)"
        default:
            nil
        }
    }

    /// `size`: how many instances the service's PTR RRset lists, the bytes of the answer that
    /// carries it (header, question, and per record a compressed owner, fixed fields and the
    /// instance label followed by a pointer) and of BIND's uncompressed copy.
    private static func sizeFindings(service: DNSName, size: (instances: Int, answer: Int, slab: Int), line: Int?) -> [Finding] {
        let count = size.instances
        let bytes = 12 + service.wire.count + 4 + size.answer
        let slab = size.slab
        if bytes > ZoneWriter.maxMessageBytes {
            return [
                Finding(
                    .fail, .ptrTooLarge, line: line,
                    "\(count) instances of \(service): the PTR RRset may not fit in one DNS message (\(ZoneWriter.maxMessageBytes) bytes)",
                    fix: "split the Gateways across several domains (at most about 1,000 per domain)")
            ]
        }
        if slab > ZoneWriter.maxMessageBytes {
            return [
                Finding(
                    .warn, .bindSlabTooLarge, line: line, ZoneWriter.bindSlabNote(count: count, bytes: slab),
                    fix: "serve the zone with CoreDNS, or split the Gateways across more domains")
            ]
        }
        if count > ZoneWriter.bindRecordsPerType {
            return [
                Finding(
                    .warn, .bindRecordsPerType, line: line,
                    "\(count) instances of \(service): BIND 9.18.28+ refuses more than \(ZoneWriter.bindRecordsPerType) records of one "
                        + "type at one name by default",
                    fix: "in named.conf options: `max-records-per-type 0;` (CoreDNS has no such limit)")
            ]
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
                findings.append(
                    Finding(
                        .warn, .ttlZero, line: zone.line(of: position),
                        "\(records.name(at: position)) \(type) has TTL 0: every lookup goes to the server",
                        fix: "OpenClaw uses 60"))
            } else if [.ptr, .srv, .txt].contains(type), ttl > 86_400 {
                findings.append(
                    Finding(
                        .warn, .ttlLong, line: zone.line(of: position),
                        "\(records.name(at: position)) \(type) has TTL \(ttl): nodes keep a Gateway that moved for that long",
                        fix: "OpenClaw uses 60"))
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
                findings.append(
                    Finding(
                        .fail, .txtTooLarge, line: entry.line,
                        "TXT of \(entry.record.name) has \(rdata) bytes of RDATA: BIND refuses more than \(ZoneFile.bindMaxTXTRDATA)",
                        fix: "keep the TXT small: OpenClaw's keys take a few hundred bytes"))
            } else if answer > ZoneWriter.maxMessageBytes {
                findings.append(
                    Finding(
                        .warn, .txtAnswerTooLarge, line: entry.line,
                        "TXT of \(entry.record.name) has \(rdata) bytes of RDATA: its answer (\(answer) bytes) does not fit in one DNS "
                            + "message, so no server can send it",
                        fix: "keep the TXT small: OpenClaw's keys take a few hundred bytes"))
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
