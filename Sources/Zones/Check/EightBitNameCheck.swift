import DNSClient
import DNSSD
import DNSUpdate
import DNSWire

/// `zone check --server`: a server that holds instance names with bytes such as `(` must also
/// answer questions for them. PowerDNS takes them by UPDATE and serves them by AXFR, yet
/// answers SERVFAIL to each question unless `8bit-dns=yes` (PowerDNSNames): one SRV question
/// for the first such instance tells.
enum EightBitNameCheck {
    /// One SRV question to a server that just answered: a few round trips at most.
    static let bound = Duration.seconds(2)

    static func run(_ served: ServedRecords, service: DNSName, timeout: Duration) async -> Finding? {
        guard let instance = served.lazyInstances(of: service).first(where: { PowerDNSNames.needEightBitDNS($0.labels) }) else {
            return nil
        }
        let client = DNSClient(options: .init(within: timeout))
        let lookup = await StubResolver(client: client, servers: [served.server]).lookup(instance, .srv)
        await client.shutdown()
        guard case .negative(.servFail, _, _) = lookup else { return nil }
        return Finding(.fail, .eightBitNamesRefused(served.server, instance: instance))

    }
}
