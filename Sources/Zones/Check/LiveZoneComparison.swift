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

    /// Instances of `service` the file lists and the server does not (`inFile`), or the
    /// other way round: how many, and the first name in text order.
    package struct Difference: Sendable, Hashable {
        package let service: DNSName
        package let inFile: Bool
        package let count: Int
        package let first: String
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
                let refusal = RefusingServer.finding(rcode, server: server, zone: apex, question: .soa)
            {
                return Comparison(findings: [refusal], answered: false)
            }
            if let failure = soa.failure {
                return Comparison(
                    findings: [Finding(.fail, .serverNotAsked(server, zone: apex, failure: "\(failure)", fix: failure.fix))],
                    answered: false)
            }
            return Comparison(
                findings: [Finding(.fail, .zoneNotServed(server, zone: apex, explanation: soa.explanation))], answered: true)
        }
        guard let fileSerial else { return Comparison(findings: [], answered: true) }

        var findings = serialFindings(file: fileSerial, served: served, server: server, apex: apex)
        // Same serial: the content must be the same too.
        let index = ZoneIndex(zone)
        let services = index.serviceTypes(apex: apex)
        var differences: [Difference] = []
        var instanceCount = 0
        for head in services.prefix(maxServices) {
            let compared = await compareInstances(of: zone.records.name(at: head), zone: zone, index: index, resolver: resolver)
            differences += compared.differences
            instanceCount += compared.instances
        }
        if served == fileSerial && !differences.isEmpty {
            findings.append(Finding(.fail, .contentWithoutSerialBump(server, serial: served, differences)))
        } else if !differences.isEmpty && findings.isEmpty {
            findings.append(Finding(.warn, .contentDiffers(server, differences)))
        } else if findings.isEmpty {
            findings.append(Finding(.pass, .serverMatchesFile(server, serial: served, instances: instanceCount)))
        }
        if services.count > maxServices {
            findings.append(Finding(.warn, .servicesNotCompared(services: services.count, compared: maxServices, server)))
        }
        return Comparison(findings: findings, answered: true)
    }

    /// A served serial behind the file's (not loaded) or ahead of it (another file?).
    private static func serialFindings(file: UInt32, served: UInt32, server: DNSServer, apex: DNSName) -> [Finding] {
        if SerialPolicy.isNewer(file, than: served) {
            return [Finding(.fail, .serverBehindFile(server, served: served, file: file, zone: apex))]
        }
        if SerialPolicy.isNewer(served, than: file) {
            return [Finding(.warn, .serverAheadOfFile(server, served: served, file: file))]
        }
        return []
    }

    /// One service type's instances, the file's against the server's PTR answer; the file's
    /// held as hashes of their names.
    private static func compareInstances(of service: DNSName, zone: ZoneFile, index: ZoneIndex, resolver: StubResolver) async -> (
        differences: [Difference], instances: Int
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
        var differences: [Difference] = []
        if let first = missing.first {
            differences.append(Difference(service: service, inFile: true, count: missing.count, first: first))
        }
        let extra = onServer.filter { !inFile.contains($0.hashValue) }
        if let first = extra.map(\.description).min() {
            differences.append(Difference(service: service, inFile: false, count: extra.count, first: first))
        }

        return (differences, inFile.count)
    }
}
