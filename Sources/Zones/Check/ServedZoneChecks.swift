import DNSSD
import DNSUpdate
import DNSWire
import Probes

/// `zone check --server`: the zone as each server serves it (by AXFR with --axfr, else its
/// service RRsets), linted like a file, compared across servers, and every served Gateway's
/// SRV target tried over TCP.
package enum ServedZoneChecks {
    /// More instances than one PTR answer carries (BIND stops between 1,200 and 2,000): a
    /// service past it cannot be browsed anyway (the linter says so), so no more are tried.
    static let maxProbed = 2_000
    /// The addresses of one host tried.
    static let maxAddresses = 16

    /// What --timeout left no time for, once the zone was read.
    package enum Skipped: Sendable, Hashable {
        /// Linting the zone as served.
        case lint
        /// Comparing the servers.
        case comparison
        /// Trying its Gateways' addresses.
        case probes
    }

    /// `timeout` bounds each server's answers; `deadline` (the command's) what comes after the
    /// reads: past it, the zone as served is not linted, compared or probed, and a failure says so.
    package static func run(
        servers: [DNSServer], zone: DNSName, key: TSIGKey?, transfer: Bool, timeout: Duration,
        deadline: ContinuousClock.Instant? = nil, today: SerialPolicy.Day
    ) async -> [Finding] {
        let service: DNSName
        do { service = try DNSName(labels: ServiceType.gateway.labels.map { Array($0.utf8) } + zone.labels) } catch { return [] }
        let results = await read(servers, zone: zone, service: service, key: key, transfer: transfer, timeout: timeout)
        var findings: [Finding] = []
        var served: [ServedRecords] = []
        for (server, result) in zip(servers, results) {
            switch result {
            case .success(let records): served.append(records)
            case .failure(let failure):
                // A server that answered a question about the zone with REFUSED, NOTAUTH...: said as such.
                let refusal = failure.rcode.flatMap { RefusingServer.finding($0, server: server, zone: zone, question: .aboutZone) }
                findings.append(refusal ?? Finding(.fail, .serverUnreadable(failure)))
            }
        }
        if let deadline, ContinuousClock.now >= deadline, !served.isEmpty {
            findings.append(ranOut(zone, served, .lint))
            return findings
        }
        if transfer, let first = served.first {
            findings += lint(first, zone: zone, today: today)
        }
        // One server has nothing to agree with; its records are not hashed for nothing (a
        // transfer of a million records at a deep name took seconds past --timeout).
        if served.count > 1 {
            if let deadline, ContinuousClock.now >= deadline {
                findings.append(ranOut(zone, served, .comparison))
                return findings
            }
            findings += ServerAgreement.compare(
                served.map { ServerAgreement.Served(server: "\($0.server)", serial: $0.serial, records: $0.records) }, zone: zone)
        }
        for records in served {
            // One question each, within what --timeout leaves.
            let left = deadline.map { $0 - ContinuousClock.now } ?? timeout
            guard left > .zero else { break }
            if let refused = await EightBitNameCheck.run(records, service: service, timeout: min(timeout, left, EightBitNameCheck.bound)) {
                findings.append(refused)
            }
        }
        if let first = served.first {
            let left = deadline.map { $0 - ContinuousClock.now } ?? timeout
            if left <= .zero {
                findings.append(ranOut(zone, served, .probes))
            } else {
                findings += await reachability(first, service: service, budget: min(timeout, left, .seconds(3)))
            }
        }
        return findings
    }

    /// Each server's zone (or its Gateways' RRsets), read at once, in the order of `servers`.
    private static func read(
        _ servers: [DNSServer], zone: DNSName, service: DNSName, key: TSIGKey?, transfer: Bool, timeout: Duration
    ) async -> [Result<ServedRecords, UpdateFailure>] {
        await withTaskGroup(of: (Int, Result<ServedRecords, UpdateFailure>).self) { group in
            for (index, server) in servers.enumerated() {
                group.addTask {
                    let registration = ServiceRegistration(zone: zone, service: service, server: server, key: key, timeout: timeout)
                    // Made first, returned after the do/catch: a tuple returned from inside `do
                    // throws(UpdateFailure)` around this `try await` came back with a garbage
                    // index in release builds (Swift 6.3), and every finding of the zone was lost:
                    // the async typed-throws return bug of swiftlang/swift#90722.
                    let result: Result<ServedRecords, UpdateFailure>
                    do throws(UpdateFailure) { result = .success(try await registration.read(for: [], transfer: transfer)) } catch {
                        result = .failure(error)
                    }
                    return (index, result)
                }
            }
            var results: [Int: Result<ServedRecords, UpdateFailure>] = [:]
            for await (index, result) in group { results[index] = result }
            return servers.indices.compactMap { results[$0] }
        }
    }

    /// The failure of a check the command's --timeout left no time for.
    private static func ranOut(_ zone: DNSName, _ served: [ServedRecords], _ skipped: Skipped) -> Finding {
        Finding(.fail, .timeoutAfterRead(zone: zone, servers: served.map(\.server), skipped: skipped))
    }

    /// The ZoneLinter on a transferred zone; a "line" is the record's place in the transfer.
    private static func lint(_ served: ServedRecords, zone: DNSName, today: SerialPolicy.Day) -> [Finding] {
        switch served.source {
        case .transfer, .ledger, .assumedEmpty:
            break
        case .queries(let refusal):
            return [Finding(.fail, .transferRefused(served.server, zone: zone, answer: refusal))]
        case .queriesPastBound(let why):
            return [Finding(.fail, .transferPastBound(why))]
        }
        guard let soa = served.serial.map({ _ in served.records.first { $0.type == .soa } }) ?? nil else { return [] }
        let file = ZoneFile(transferred: served.records, origin: soa.name)
        return ZoneLinter.check(file, domain: nil, today: today).map { finding in
            // The date form is OpenClaw's for the file it writes; a served zone that UPDATEs feed
            // (zone push, advertise) counts its serial up from whatever it was: nothing to fix.
            let severity = finding.code == .serialNotDated ? .pass : finding.severity
            return Finding(severity, .served(finding.detail, server: served.server, record: finding.line))
        }
    }

    /// Each served Gateway's SRV target and port, tried over TCP: refused means nothing runs
    /// there (a record left behind by a Gateway that stopped or crashed).
    private static func reachability(_ served: ServedRecords, service: DNSName, budget: Duration) async -> [Finding] {
        var targets: [ProbeTarget] = []
        var findings: [Finding] = []
        for (index, instance) in served.lazyInstances(of: service).enumerated() {
            guard index < maxProbed else {
                findings.append(Finding(.warn, .probesCapped(served.server, limit: maxProbed, service: service)))
                break
            }
            guard case .srv(_, _, let port, let host)? = served.rrset(instance, .srv).first?.data else { continue }
            // A node tries a few of a host's addresses, not thousands.
            let records = [served.lazyRRset(host, .a), served.lazyRRset(host, .aaaa)].joined()
            let addresses = Array(
                records.lazy.compactMap { record -> IPAddress? in
                    switch record.data {
                    case .a(let address), .aaaa(let address): address
                    default: nil
                    }
                }.prefix(maxAddresses))
            guard !addresses.isEmpty, port > 0 else { continue }
            let name = instance.first.map { SafeText.display($0) } ?? "\(instance)"
            targets.append(ProbeTarget(label: name, host: "\(host)", addresses: addresses, port: Int(port), tls: false))
        }
        guard !targets.isEmpty else { return findings }
        let reports = await GatewayProbe.runAll(targets, budget: budget, phases: [.tcp])
        var reachable = 0
        for report in reports {
            let target = report.target
            let tried = report.tcp.map { "\(Endpoint(host: "\($0.address)", port: target.port))" }

            if report.connectedAddress != nil {
                reachable += 1
            } else if !report.tcp.isEmpty, report.tcp.allSatisfy({ $0.outcome == .refused }) {
                findings.append(Finding(.fail, .gatewayRefused(target.label, host: target.host, port: target.port, tried: tried)))
            } else {
                findings.append(Finding(.warn, .gatewayUnreachable(target.label, tried: tried)))
            }
        }
        if reachable > 0 {
            findings.append(Finding(.pass, .gatewaysReachable(reachable)))
        }
        return findings
    }
}
