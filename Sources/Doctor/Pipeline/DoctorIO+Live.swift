import Avahi
import DNSClient
import DNSSD
import DNSWire
import Discovery
import FoundationEssentials
import Host
import Probes

/// This process's network: the only file of doctor that reaches it.
extension DoctorIO {
    /// `discovery` as the command context has it (browse and the others use the same).
    package static func live(discovery: any Discovering) -> DoctorIO {
        DoctorIO(
            discovery: discovery,
            hostAddresses: { host, timeout in await HostLookup.addresses(of: host, timeout: timeout) },
            mdnsAddresses: { host, timeout in await AvahiHostLookup.addresses(of: host, timeout: timeout) },
            mdnsNames: { addresses, timeout in await AvahiAddressLookup.names(of: addresses, timeout: timeout) },
            magicDNSAddresses: askTailscale,
            probe: { targets, budget, limit, phases in await GatewayProbe.runAll(targets, budget: budget, limit: limit, phases: phases) },
            now: { Date() })
    }

    /// A and AAAA at once, one try each: Tailscale's resolver answers at once or not at all.
    static func askTailscale(_ host: DomainName, timeout: Duration) async -> [IPAddress] {
        guard let name = try? DNSName(instance: nil, type: nil, domain: host) else { return [] }
        let client = DNSClient(options: magicDNSOptions(timeout))
        async let v4 = client.query(name, .a, server: .tailscale)
        async let v6 = client.query(name, .aaaa, server: .tailscale)
        let answers = [try? await v4, try? await v6].compactMap { $0 }
        await client.shutdown()
        return answers.flatMap { response in
            response.message.answers.compactMap { record -> IPAddress? in
                switch record.data {
                case .a(let address), .aaaa(let address): address
                default: nil
                }
            }
        }
    }

    /// One quick question: at most `timeout`, and no more than a usual attempt.
    static func magicDNSOptions(_ timeout: Duration) -> DNSClient.Options {
        var options = DNSClient.Options()
        options.attemptTimeout = min(timeout, .milliseconds(800))
        options.attempts = 1
        return options
    }
}
