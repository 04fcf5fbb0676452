import DNSSD
import DNSWire

/// One result of `zone check`.
public struct ZoneFinding: Sendable, Hashable, Codable {
    public enum Severity: String, Sendable, Codable, Comparable {
        case pass, warn, fail

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            [pass, warn, fail].firstIndex(of: lhs)! < [pass, warn, fail].firstIndex(of: rhs)!
        }
    }

    public let severity: Severity
    /// The line in the file, when one record is to blame.
    public let line: Int?
    public let message: String
    public let fix: String?

    public init(_ severity: Severity, line: Int? = nil, _ message: String, fix: String? = nil) {
        self.severity = severity
        self.line = line
        self.message = message
        self.fix = fix
    }

    private enum CodingKeys: String, CodingKey { case severity, line, message, fix }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(severity, forKey: .severity)
        try container.encode(line, forKey: .line)
        try container.encode(message, forKey: .message)
        try container.encode(fix, forKey: .fix)
    }
}

/// Checks a zone file the way a DNS-SD client will use it, beyond what named-checkzone,
/// kzonecheck and ldns-read-zone look at: every PTR leads to an SRV and a TXT, every SRV
/// target has an address, OpenClaw's TXT keys agree with the SRV, sizes fit the servers.
public enum ZoneLinter {
    /// A `fragment` (records to add to a zone, from `doctor --emit-zone`) has no SOA or NS of
    /// its own; everything else is checked the same way.
    public static func check(_ zone: ZoneFile, domain requested: DomainName?, today: SerialPolicy.Day, fragment: Bool = false)
        -> [ZoneFinding]
    {
        var findings: [ZoneFinding] = zone.problems.map {
            ZoneFinding(
                .fail, line: $0.line, "syntax: \($0.message)",
                fix: "this line does not parse (named-checkzone and kzonecheck will refuse it too)")
        }
        findings += zone.warnings.map { ZoneFinding(.warn, line: $0.line, $0.message) }
        let entries = zone.entries
        let index = ZoneIndex(entries)

        // The apex: from --domain, else the SOA's owner.
        let soas = entries.filter { $0.record.type == .soa }
        let apex: DNSName
        if let requested, let name = try? DNSName(instance: nil, type: nil, domain: requested) {
            apex = name
        } else if let owner = soas.first?.record.name {
            apex = owner
        } else {
            findings.append(
                ZoneFinding(
                    .fail, "no SOA record, and no --domain to say which zone this is",
                    fix: "add `@ IN SOA ns1 hostmaster <serial> 7200 3600 1209600 60`"))
            return findings
        }
        for entry in entries where !entry.record.name.isSubdomain(of: apex) {
            findings.append(
                ZoneFinding(
                    .fail, line: entry.line, "\(entry.record.name) is outside the zone \(apex)", fix: "check $ORIGIN and trailing dots"))
        }

        if fragment {
            findings.append(ZoneFinding(.pass, "a fragment: records to add to the zone \(apex) (its SOA and NS are the zone's)"))
        } else {
            findings += checkApex(index, apex: apex, soas: soas, today: today)
        }
        findings += checkServices(entries, index, apex: apex)
        findings += checkTTLs(entries)
        findings += checkSizes(entries)
        // Failures first, then warnings, then passes; within each, by line.
        return findings.sorted { lhs, rhs in
            lhs.severity != rhs.severity ? lhs.severity > rhs.severity : (lhs.line ?? 0) < (rhs.line ?? 0)
        }
    }

    private static func checkApex(_ index: ZoneIndex, apex: DNSName, soas: [ZoneFile.Entry], today: SerialPolicy.Day) -> [ZoneFinding] {
        var findings: [ZoneFinding] = []
        let apexSOA = soas.filter { $0.record.name == apex }
        if apexSOA.count != 1 {
            findings.append(
                ZoneFinding(
                    .fail, line: soas.dropFirst().first?.line,
                    apexSOA.isEmpty ? "no SOA record at \(apex)" : "\(apexSOA.count) SOA records at \(apex); a zone has exactly one",
                    fix: "keep one `@ IN SOA ns1 hostmaster <serial> 7200 3600 1209600 60`"))
        }
        if let soa = apexSOA.first, case .soa(_, _, let serial, _, _, _, let minimum) = soa.record.data {
            if SerialPolicy.isDateSerial(serial) {
                let date = Int(serial / 100)
                let todayNumber = today.year * 10_000 + today.month * 100 + today.day
                if date > todayNumber + 1 {
                    findings.append(
                        ZoneFinding(
                            .warn, line: soa.line, "serial \(serial) is dated in the future",
                            fix: "harmless, but `zone generate` can only count up from it"))
                } else {
                    findings.append(ZoneFinding(.pass, line: soa.line, "SOA serial \(serial) (YYYYMMDDnn)"))
                }
            } else {
                findings.append(
                    ZoneFinding(
                        .warn, line: soa.line, "serial \(serial) is not in OpenClaw's YYYYMMDDnn form",
                        fix: "fine for DNS; `zone generate` moves it to the date form, never lower"))
            }
            if minimum > 3600 {
                findings.append(
                    ZoneFinding(
                        .warn, line: soa.line, "SOA minimum \(minimum) s: resolvers remember a missing name that long",
                        fix: "OpenClaw uses 60"))
            }
        }
        let nameServers = index.entries(apex, .ns)
        if nameServers.isEmpty {
            findings.append(ZoneFinding(.fail, "no NS record at \(apex)", fix: "add `@ IN NS ns1` and `ns1 IN A <address>`"))
        }
        for entry in nameServers {
            guard case .ns(let target) = entry.record.data, target.isSubdomain(of: apex) else { continue }
            if !index.hasAddress(target) {
                findings.append(
                    ZoneFinding(
                        .fail, line: entry.line, "name server \(target) is in the zone but has no A or AAAA record",
                        fix: "add `\(target.labels.first.map { Presentation.escapeLabel($0) } ?? "ns1") IN A <address>`"))
            }
        }
        return findings
    }

    private static func checkServices(_ entries: [ZoneFile.Entry], _ index: ZoneIndex, apex: DNSName) -> [ZoneFinding] {
        var findings: [ZoneFinding] = []
        let ptrs = entries.filter { $0.record.type == .ptr && isServiceType($0.record.name, apex: apex) }
        var listed = Set<DNSName>()
        for (service, group) in Dictionary(grouping: ptrs, by: { $0.record.name }).sorted(by: { $0.key.description < $1.key.description }) {
            var seen: [DNSName: Int] = [:]
            var complete = 0
            for entry in group {
                guard case .ptr(let target) = entry.record.data else { continue }
                guard target.labels.count == service.labels.count + 1, target.parent == service else {
                    findings.append(
                        ZoneFinding(
                            .fail, line: entry.line, "PTR \(service) points to \(target), which is not an instance of \(service)",
                            fix: "PTR targets must be <instance>.\(service)"))
                    continue
                }
                if let first = seen[target] {
                    findings.append(
                        ZoneFinding(
                            .warn, line: entry.line,
                            "instance \(target) is listed twice (first on line \(first)); names compare without case",
                            fix: "keep one PTR per instance"))
                    continue
                }
                seen[target] = entry.line
                listed.insert(target)
                if checkInstance(target, ptrLine: entry.line, index: index, apex: apex, into: &findings) { complete += 1 }
            }
            findings += sizeFindings(service: service, instances: Array(seen.keys), line: group.first?.line)
            if complete > 0 {
                findings.append(ZoneFinding(.pass, "\(complete) instance(s) of \(service) with SRV, TXT and addresses"))
            }
        }
        // Instance records nothing points to: invisible to browsing nodes.
        for entry in entries
        where [.srv, .txt].contains(entry.record.type) && isInstance(entry.record.name, apex: apex) && !listed.contains(entry.record.name) {
            findings.append(
                ZoneFinding(
                    .warn, line: entry.line, "\(entry.record.name) has \(entry.record.type) but no PTR lists it: nodes will not see it",
                    fix: "add `\(entry.record.name.parent) IN PTR \(entry.record.name)` or remove it"))
        }
        if ptrs.isEmpty {
            findings.append(
                ZoneFinding(
                    .warn, "no service PTR records: the zone publishes no Gateway",
                    fix: "`clawnet zone generate` writes `_openclaw-gw._tcp IN PTR <instance>._openclaw-gw._tcp`"))
        }
        return findings
    }

    /// Checks one instance; true when it is complete (SRV, TXT, an address).
    private static func checkInstance(
        _ name: DNSName, ptrLine: Int, index: ZoneIndex, apex: DNSName, into findings: inout [ZoneFinding]
    ) -> Bool {
        let display = name.labels.first.map { SafeText.display($0) } ?? "?"
        let srvs = index.entries(name, .srv)
        let txts = index.entries(name, .txt)
        guard let srv = srvs.first, case .srv(_, _, let port, let target) = srv.record.data else {
            findings.append(
                ZoneFinding(
                    .fail, line: ptrLine, "'\(display)' is listed by PTR but has no SRV record",
                    fix: "add `\(name) IN SRV 0 0 <port> <host>`"))
            return false
        }
        var complete = true
        if port == 0 {
            findings.append(
                ZoneFinding(
                    .warn, line: srv.line, "'\(display)' has SRV port 0: it says it is not available", fix: "use the gateway port (18789)"))
        }
        if target.isSubdomain(of: apex) {
            if index.has(target, .cname) {
                findings.append(
                    ZoneFinding(
                        .fail, line: srv.line, "SRV target \(target) of '\(display)' is a CNAME; RFC 2782 wants the real host name",
                        fix: "point the SRV at the host's own name"))
                complete = false
            } else if !index.hasAddress(target) {
                findings.append(
                    ZoneFinding(
                        .fail, line: srv.line, "SRV target \(target) of '\(display)' has no A or AAAA record in the zone",
                        fix: "add `\(target.labels.first.map { Presentation.escapeLabel($0) } ?? "host") IN A <address>`"))
                complete = false
            }
        } else if !target.isRoot {
            findings.append(
                ZoneFinding(
                    .warn, line: srv.line, "SRV target \(target) of '\(display)' is outside the zone: its address cannot be checked here"))
        }
        guard let txt = txts.first, case .txt(let record) = txt.record.data else {
            findings.append(
                ZoneFinding(
                    .fail, line: ptrLine, "'\(display)' has no TXT record (RFC 6763 requires one; OpenClaw nodes read their hints from it)",
                    fix: "add `\(name) IN TXT \"role=gateway\" \"gatewayPort=\(port)\" ...`"))
            return false
        }
        if txts.count > 1 {
            findings.append(
                ZoneFinding(
                    .warn, line: txts[1].line, "'\(display)' has \(txts.count) TXT records; clients read one", fix: "merge them into one"))
        }
        let reading = TXTReading(record)
        for issue in reading.issues {
            findings.append(
                ZoneFinding(
                    issue.severity == .error ? .fail : .warn, line: txt.line, "'\(display)': \(issue.message)", fix: fix(for: issue)))
        }
        if let advertised = reading.info.gatewayPort, advertised != Int(port) {
            findings.append(
                ZoneFinding(
                    .fail, line: txt.line, "'\(display)': TXT gatewayPort \(advertised) differs from SRV port \(port)",
                    fix: "make them equal; nodes connect to the SRV port"))
            complete = false
        }
        return complete
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

    private static func sizeFindings(service: DNSName, instances: [DNSName], line: Int?) -> [ZoneFinding] {
        let count = instances.count
        // The answer: header, question, and per record a compressed owner, fixed fields and
        // the instance label followed by a pointer.
        let bytes = 12 + service.wire.count + 4 + instances.reduce(0) { $0 + 2 + 10 + 1 + ($1.labels.first?.count ?? 0) + 2 }
        let slab = instances.reduce(0) { $0 + 2 + $1.wire.count }
        if bytes > ZoneWriter.maxMessageBytes {
            return [
                ZoneFinding(
                    .fail, line: line,
                    "\(count) instances of \(service): the PTR RRset may not fit in one DNS message (\(ZoneWriter.maxMessageBytes) bytes)",
                    fix: "split the Gateways across several domains (at most about 1,000 per domain)")
            ]
        }
        if slab > ZoneWriter.maxMessageBytes {
            return [
                ZoneFinding(
                    .warn, line: line, ZoneWriter.bindSlabNote(count: count, bytes: slab),
                    fix: "serve the zone with CoreDNS, or split the Gateways across more domains")
            ]
        }
        if count > ZoneWriter.bindRecordsPerType {
            return [
                ZoneFinding(
                    .warn, line: line,
                    "\(count) instances of \(service): BIND 9.18.28+ refuses more than \(ZoneWriter.bindRecordsPerType) records of one "
                        + "type at one name by default",
                    fix: "in named.conf options: `max-records-per-type 0;` (CoreDNS has no such limit)")
            ]
        }
        return []
    }

    private static func checkTTLs(_ entries: [ZoneFile.Entry]) -> [ZoneFinding] {
        var findings: [ZoneFinding] = []
        for entry in entries where entry.record.type != .soa {
            if entry.record.ttl == 0 {
                findings.append(
                    ZoneFinding(
                        .warn, line: entry.line, "\(entry.record.name) \(entry.record.type) has TTL 0: every lookup goes to the server",
                        fix: "OpenClaw uses 60"))
            } else if [.ptr, .srv, .txt].contains(entry.record.type), entry.record.ttl > 86_400 {
                findings.append(
                    ZoneFinding(
                        .warn, line: entry.line,
                        "\(entry.record.name) \(entry.record.type) has TTL \(entry.record.ttl): nodes keep a Gateway that moved for that "
                            + "long",
                        fix: "OpenClaw uses 60"))
            }
        }
        return findings
    }

    /// A TXT record BIND refuses fails ("ran out of space"); one BIND loads but whose answer
    /// (header, question, record) cannot fit in one 65,535-byte message is a warning: no
    /// server can send it.
    private static func checkSizes(_ entries: [ZoneFile.Entry]) -> [ZoneFinding] {
        entries.compactMap { entry in
            guard case .txt(let txt) = entry.record.data else { return nil }
            let rdata = txt.wire.count
            let answer = ZoneWriter.answerBytes(owner: entry.record.name, rdata: rdata)
            if rdata > ZoneFile.bindMaxTXTRDATA {
                return ZoneFinding(
                    .fail, line: entry.line,
                    "TXT of \(entry.record.name) has \(rdata) bytes of RDATA: BIND refuses more than \(ZoneFile.bindMaxTXTRDATA)",
                    fix: "keep the TXT small: OpenClaw's keys take a few hundred bytes")
            }
            guard answer > ZoneWriter.maxMessageBytes else { return nil }
            return ZoneFinding(
                .warn, line: entry.line,
                "TXT of \(entry.record.name) has \(rdata) bytes of RDATA: its answer (\(answer) bytes) does not fit in one DNS message, "
                    + "so no server can send it",
                fix: "keep the TXT small: OpenClaw's keys take a few hundred bytes")
        }
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
