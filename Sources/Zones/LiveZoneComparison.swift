import DNSClient
import DNSSD
import DNSWire

/// Compares a zone file with what a DNS server serves for it: a lower served serial means
/// the server has not loaded the file; the same serial with other content means the file
/// changed without a serial bump, which CoreDNS (and BIND on reload) will never pick up.
public enum LiveZoneComparison {
    /// Service types compared, one question each: OpenClaw's zones have one or a few.
    static let maxServices = 100

    public static func compare(_ zone: ZoneFile, apex: DNSName, server: DNSServer, client: DNSClient) async -> [ZoneFinding] {
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
            return [
                ZoneFinding(
                    .fail, "\(server) does not serve \(apex): SOA \(soa.explanation)",
                    fix: soa.failure?.fix ?? "check that the server is running, listens there, and loaded the zone (its log says why not)")
            ]
        }
        guard let fileSerial else { return [] }

        var findings: [ZoneFinding] = []
        if SerialPolicy.isNewer(fileSerial, than: served) {
            findings.append(
                ZoneFinding(
                    .fail, "\(server) serves serial \(served), the file has \(fileSerial): the server has not loaded this file",
                    fix:
                        "CoreDNS's file plugin reloads within its `reload` interval once the serial changes; BIND needs `rndc reload "
                        + "\(apex)`; otherwise the server's log says why the file did not load"
                ))
        } else if SerialPolicy.isNewer(served, than: fileSerial) {
            findings.append(
                ZoneFinding(.warn, "\(server) serves serial \(served), newer than the file's \(fileSerial): is it serving another file?"))
        }

        // Same serial: the content must be the same too. Each service type's instances are
        // compared one at a time, the file's held as hashes of their names.
        let index = ZoneIndex(zone)
        var differences: [String] = []
        var instanceCount = 0
        let services = index.serviceTypes(apex: apex)
        for head in services.prefix(maxServices) {
            let service = zone.records.name(at: head)
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
            instanceCount += inFile.count
            let extra = onServer.filter { !inFile.contains($0.hashValue) }
            if let first = missing.first {
                differences.append("\(missing.count) instance(s) of \(service) in the file are not served (e.g. \(first))")
            }
            if !extra.isEmpty {
                differences.append(
                    "\(extra.count) served instance(s) of \(service) are not in the file (e.g. \(extra.map(\.description).sorted().first!))"
                )
            }
        }
        if served == fileSerial && !differences.isEmpty {
            findings.append(
                ZoneFinding(
                    .fail,
                    "\(server) serves serial \(served) like the file, but other content: \(differences.joined(separator: "; ")). The file "
                        + "changed without a serial bump, so the server keeps the old zone",
                    fix: "bump the SOA serial (`clawnet zone generate --out` does it) and let the server reload"))
        } else if !differences.isEmpty && findings.isEmpty {
            findings.append(ZoneFinding(.warn, "\(server): \(differences.joined(separator: "; "))"))
        } else if findings.isEmpty {
            findings.append(ZoneFinding(.pass, "\(server) serves serial \(served) and the same \(instanceCount) instance(s) as the file"))
        }
        if services.count > maxServices {
            findings.append(
                ZoneFinding(.warn, "the file has \(services.count) service types; the first \(maxServices) were compared with \(server)"))
        }
        return findings
    }
}
