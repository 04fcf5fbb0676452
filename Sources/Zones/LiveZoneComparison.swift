import DNSClient
import DNSSD
import DNSWire

/// Compares a zone file with what a DNS server serves for it: a lower served serial means
/// the server has not loaded the file; the same serial with other content means the file
/// changed without a serial bump, which CoreDNS (and BIND on reload) will never pick up.
public enum LiveZoneComparison {
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

        // Same serial: the content must be the same too.
        let services = Set(zone.records.filter { $0.type == .ptr && ZoneLinter.isServiceType($0.name, apex: apex) }.map(\.name))
        var differences: [String] = []
        var instanceCount = 0
        for service in services.sorted(by: { $0.description < $1.description }) {
            let inFile = Set(
                zone.records.compactMap { record -> DNSName? in
                    if record.name == service, case .ptr(let target) = record.data { return target }
                    return nil
                })
            let lookup = await resolver.lookup(service, .ptr)
            let onServer = Set(
                lookup.records.compactMap { record -> DNSName? in
                    if case .ptr(let target) = record.data { return target }
                    return nil
                })
            instanceCount += inFile.count
            let missing = inFile.subtracting(onServer)
            let extra = onServer.subtracting(inFile)
            if !missing.isEmpty {
                differences.append(
                    "\(missing.count) instance(s) of \(service) in the file are not served (e.g. "
                        + "\(missing.map(\.description).sorted().first!))"
                )
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
        return findings
    }
}
