import Avahi
import DNSClient
import DNSSD
import DNSWire
import Host
import Probes

/// A named host's addresses, and when it gives none, why: what the lookup said, read further
/// where doctor can tell more (nss-mdns missing, a MagicDNS name only Tailscale's resolver knows).
extension Doctor {
    /// `deadline` bounds the lookup and the explanation of a failed one together.
    static func endpointTarget(
        _ endpoint: Endpoint, label: String, tls: Bool, until deadline: ContinuousClock.Instant, facts: MachineFacts
    ) async -> Target {
        var addresses: [IPAddress] = []
        var problem: DNSProblem?
        if let address = endpoint.address {
            addresses = [address]
        } else {
            switch await HostLookup.addresses(of: endpoint.host, timeout: left(until: deadline)) {
            case .success(let found): addresses = found
            case .failure(let failure) where HostNameKind(endpoint.host) == .multicastDNS:
                (addresses, problem) = await askAvahi(failure, host: endpoint.host, facts: facts, until: deadline)
            case .failure(let failure):
                problem = await explain(failure, host: endpoint.host, facts: facts, timeout: left(until: deadline))
            }
        }
        return Target(
            probe: ProbeTarget(label: label, host: endpoint.host, addresses: addresses, port: endpoint.port, tls: tls), dnsProblem: problem)
    }

    /// A `.local` name nsswitch did not resolve, asked of avahi-daemon as a node's mDNS stack
    /// would ask it: its addresses (with what nsswitch said, a warning), or why there are none.
    static func askAvahi(_ failure: HostLookup.Failure, host: String, facts: MachineFacts, until deadline: ContinuousClock.Instant)
        async -> ([IPAddress], DNSProblem)
    {
        switch await AvahiHostLookup.addresses(of: host, timeout: left(until: deadline)) {
        case .found(let addresses): return (addresses, DNSProblem(failure.message, kind: .onlyAvahi(nssMdns: facts.nssMdns)))
        case .noAnswer: return ([], DNSProblem(failure.message, kind: .noMDNSAnswer))
        case .unavailable(let why) where facts.nssMdns:
            return ([], DNSProblem("\(failure.message); avahi-daemon could not be asked: \(why)", kind: .other))
        case .unavailable: return ([], await explain(failure, host: host, facts: facts, timeout: left(until: deadline)))
        }
    }

    /// Why a name gave no address: it does not exist, a `.local` name without nss-mdns, or a
    /// MagicDNS name that only Tailscale's resolver knows (asked directly to tell).
    static func explain(_ failure: HostLookup.Failure, host: String, facts: MachineFacts, timeout: Duration) async -> DNSProblem {
        let hostName = DomainName(host: host)
        let kind = hostName.map(HostNameKind.init) ?? .other
        if kind == .multicastDNS && !facts.nssMdns {
            return DNSProblem(failure.message, kind: .localWithoutNSS)
        }
        if kind == .magicDNS, let hostName, let name = try? DNSName(instance: nil, type: nil, domain: hostName) {
            let client = DNSClient(options: magicDNSOptions(timeout))
            async let v4 = client.query(name, .a, server: .tailscale)
            async let v6 = client.query(name, .aaaa, server: .tailscale)
            let answers = [try? await v4, try? await v6].compactMap { $0 }
            await client.shutdown()
            let found = answers.flatMap { response in
                response.message.answers.compactMap { record -> IPAddress? in
                    switch record.data {
                    case .a(let address), .aaaa(let address): address
                    default: nil
                    }
                }
            }
            if !found.isEmpty { return DNSProblem(failure.message, kind: .magicDNSOnly(Array(Set(found)).sorted())) }
        }
        switch failure.kind {
        case .notFound: return DNSProblem(failure.message, kind: .notFound)
        case .noAnswer: return DNSProblem(failure.message, kind: .noAnswer)
        case .other: return DNSProblem(failure.message, kind: .other)
        }
    }

    /// One quick question to Tailscale's resolver: it answers at once or not at all.
    static func magicDNSOptions(_ timeout: Duration) -> DNSClient.Options {
        var options = DNSClient.Options()
        options.attemptTimeout = min(timeout, .milliseconds(800))
        options.attempts = 1
        return options
    }
}
