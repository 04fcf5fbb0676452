import DNSClient
import DNSSD
import DNSWire

/// Compares a zone file with what a DNS server serves for it: a lower served serial means
/// the server has not loaded the file; the same serial with other content means the file
/// changed without a serial bump, which CoreDNS (and BIND on reload) will never pick up.
package enum LiveZoneComparison {
    /// Service types compared, one question each: OpenClaw's zones have one or a few.
    static let maxServices = 100

    /// What one server said about the file, and whether it answered at all: a server that did not
    /// is one failure, and nothing more is asked of it.
    package struct Comparison: Sendable {
        package let findings: [Finding]
        package let answered: Bool
    }

    package static func compare(_ zone: ZoneFile, apex: DNSName, server: DNSServer, client: DNSClient) async -> Comparison {
        let resolver = StubResolver(client: client, servers: [server])
        let fileSerial = zone.records.lazy.compactMap { record -> UInt32? in
            if record.name == apex, case .soa(_, _, let serial, _, _, _, _) = record.data { return serial }
            return nil
        }.first
        let soa = await resolver.lookup(apex, .soa)
        guard
            let served = soa.records.lazy.compactMap({ record -> UInt32? in
                if case .soa(_, _, let serial, _, _, _, _) = record.data { return serial }
                return nil
            }).first
        else {
            // It answered, refusing: one finding that says so, and nothing more is asked of it.
            if case .negative(let rcode, _, _) = soa,
                let refusal = RefusingServer.finding(rcode, server: server, zone: apex, question: "SOA \(apex)")
            {
                return Comparison(findings: [refusal], answered: false)
            }
            if let failure = soa.failure {
                return Comparison(
                    findings: [Finding(.fail, .serverUnreadable, "\(server) cannot be asked about \(apex): \(failure)", fix: failure.fix)],
                    answered: false)
            }
            return Comparison(
                findings: [
                    Finding(
                        .fail, .zoneNotServed, "\(server) does not serve \(apex): SOA \(soa.explanation)",
                        fix: "check that the server is running, listens there, and loaded the zone (its log says why not)")
                ], answered: true)
        }
        guard let fileSerial else { return Comparison(findings: [], answered: true) }

        var findings = serialFindings(file: fileSerial, served: served, server: server, apex: apex)
        // Same serial: the content must be the same too.
        let index = ZoneIndex(zone)
        let services = index.serviceTypes(apex: apex)
        var differences: [String] = []
        var instanceCount = 0
        for head in services.prefix(maxServices) {
            let compared = await compareInstances(of: zone.records.name(at: head), zone: zone, index: index, resolver: resolver)
            differences += compared.differences
            instanceCount += compared.instances
        }
        if served == fileSerial && !differences.isEmpty {
            findings.append(
                Finding(
                    .fail, .contentWithoutSerialBump,
                    "\(server) serves serial \(served) like the file, but other content: \(differences.joined(separator: "; ")). The file "
                        + "changed without a serial bump, so the server keeps the old zone",
                    fix: "bump the SOA serial (`clawnet zone generate --out` does it) and let the server reload"))
        } else if !differences.isEmpty && findings.isEmpty {
            findings.append(Finding(.warn, .contentDiffers, "\(server): \(differences.joined(separator: "; "))"))
        } else if findings.isEmpty {
            let same = Plural.counted(instanceCount, "instance")
            findings.append(Finding(.pass, .serverMatchesFile, "\(server) serves serial \(served) and the same \(same) as the file"))
        }
        if services.count > maxServices {
            findings.append(
                Finding(
                    .warn, .servicesNotCompared,
                    "the file has \(services.count) service types; the first \(maxServices) were compared with \(server)"))
        }
        return Comparison(findings: findings, answered: true)
    }

    /// A served serial behind the file's (not loaded) or ahead of it (another file?).
    private static func serialFindings(file: UInt32, served: UInt32, server: DNSServer, apex: DNSName) -> [Finding] {
        if SerialPolicy.isNewer(file, than: served) {
            return [
                Finding(
                    .fail, .serverBehindFile,
                    "\(server) serves serial \(served), the file has \(file): the server has not loaded this file",
                    fix:
                        "CoreDNS's file plugin reloads within its `reload` interval once the serial changes; BIND needs `rndc reload "
                        + "\(ShellWord.quoted(apex.description))`; otherwise the server's log says why the file did not load"
                )
            ]
        }
        if SerialPolicy.isNewer(served, than: file) {
            return [
                Finding(
                    .warn, .serverAheadOfFile,
                    "\(server) serves serial \(served), newer than the file's \(file): is it serving another file?")
            ]
        }
        return []
    }

    /// One service type's instances, the file's against the server's PTR answer; the file's
    /// held as hashes of their names.
    private static func compareInstances(of service: DNSName, zone: ZoneFile, index: ZoneIndex, resolver: StubResolver) async -> (
        differences: [String], instances: Int
    ) {
        let lookup = await resolver.lookup(service, .ptr)
        let onServer = Set(
            lookup.records.compactMap { record -> DNSName? in
                if case .ptr(let target) = record.data { return target }
                return nil
            })
        var inFile = Set<Int>()
        var missing: (count: Int, first: String?) = (0, nil)
        for position in index.positions(service, .ptr) {
            guard case .ptr(let target) = zone.records[position].data, inFile.insert(target.hashValue).inserted else { continue }
            guard !onServer.contains(target) else { continue }
            missing = (missing.count + 1, min(missing.first ?? target.description, target.description))
        }
        var differences: [String] = []
        if let first = missing.first {
            let are = missing.count == 1 ? "is" : "are"
            differences.append("\(Plural.counted(missing.count, "instance")) of \(service) in the file \(are) not served (e.g. \(first))")
        }
        let extra = onServer.filter { !inFile.contains($0.hashValue) }
        if !extra.isEmpty {
            let (are, first) = (extra.count == 1 ? "is" : "are", extra.map(\.description).sorted().first!)
            differences.append("\(Plural.counted(extra.count, "served instance")) of \(service) \(are) not in the file (e.g. \(first))")
        }
        return (differences, inFile.count)
    }
}
