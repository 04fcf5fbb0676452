import Avahi
import DNSSD
import Host
import Probes

/// A named host's addresses, and when it gives none, why: what the lookup said, read further
/// where doctor can tell more (nss-mdns missing, a MagicDNS name only Tailscale's resolver knows).
extension Doctor {
    /// `deadline` bounds the lookup and the explanation of a failed one together.
    func endpointTarget(_ endpoint: Endpoint, label: String, tls: Bool, until deadline: Deadline) async -> Target {
        var addresses: [IPAddress] = []
        var problem: DNSProblem?
        if let address = endpoint.address {
            addresses = [address]
        } else {
            switch await io.hostAddresses(endpoint.host, deadline.remaining) {
            case .success(let found): addresses = found
            case .failure(let failure) where HostNameKind(endpoint.host) == .multicastDNS:
                (addresses, problem) = await askAvahi(failure, host: endpoint.host, until: deadline)
            case .failure(let failure):
                problem = await explain(failure, host: endpoint.host, until: deadline)
            }
        }
        return Target(
            probe: ProbeTarget(label: label, host: endpoint.host, addresses: addresses, port: endpoint.port, tls: tls), dnsProblem: problem)
    }

    /// A `.local` name nsswitch did not resolve, asked of avahi-daemon as a node's mDNS stack
    /// would ask it: its addresses (with what nsswitch said, a warning), or why there are none.
    func askAvahi(_ failure: HostLookup.Failure, host: String, until deadline: Deadline) async -> ([IPAddress], DNSProblem) {
        switch await io.mdnsAddresses(host, deadline.remaining) {
        case .found(let addresses): return (addresses, DNSProblem(failure.message, kind: .onlyAvahi(nssMdns: facts.nssMdns)))
        case .noAnswer: return ([], DNSProblem(failure.message, kind: .noMDNSAnswer))
        case .unavailable(let why) where facts.nssMdns:
            return ([], DNSProblem("\(failure.message); avahi-daemon could not be asked: \(why)", kind: .other))
        case .unavailable: return ([], await explain(failure, host: host, until: deadline))
        }
    }

    /// Why a name gave no address: it does not exist, a `.local` name without nss-mdns, or a
    /// MagicDNS name that only Tailscale's resolver knows (asked directly to tell).
    func explain(_ failure: HostLookup.Failure, host: String, until deadline: Deadline) async -> DNSProblem {
        let hostName = DomainName(host: host)
        let kind = hostName.map(HostNameKind.init) ?? .other
        if kind == .multicastDNS && !facts.nssMdns {
            return DNSProblem(failure.message, kind: .localWithoutNSS)
        }
        if kind == .magicDNS, let hostName {
            let found = await io.magicDNSAddresses(hostName, deadline.remaining)
            if !found.isEmpty { return DNSProblem(failure.message, kind: .magicDNSOnly(Array(Set(found)).sorted())) }
        }
        switch failure.kind {
        case .notFound: return DNSProblem(failure.message, kind: .notFound)
        case .noAnswer: return DNSProblem(failure.message, kind: .noAnswer)
        case .other: return DNSProblem(failure.message, kind: .other)
        }
    }
}
