import Avahi
import DNSSD
import Discovery
import FoundationEssentials
import Host
import Probes

/// Everything doctor asks of the network, as functions a caller may replace (tailscale's
/// netcheck `Client` holds its I/O so): `live` for this process, or a recording
/// (`RecordedNetwork`) for tests that run doctor in-process without a socket. Doctor reaches
/// the network no other way; each function takes the time it may use, and answers within it.
package struct DoctorIO: Sendable {
    /// mDNS, unicast DNS-SD and manual targets.
    package var discovery: any Discovering
    /// A host name's addresses through nsswitch (getaddrinfo, as `HostLookup` asks it).
    package var hostAddresses: @Sendable (_ host: String, _ timeout: Duration) async -> Result<[IPAddress], HostLookup.Failure>
    /// A `.local` name's addresses, asked of avahi-daemon without nsswitch.
    package var mdnsAddresses: @Sendable (_ host: String, _ timeout: Duration) async -> AvahiHostLookup.Answer
    /// Which `.local` host answers for each address, asked of avahi-daemon (mDNS reverse look-ups).
    package var mdnsNames: @Sendable (_ addresses: [IPAddress], _ timeout: Duration) async -> [IPAddress: AvahiAddressLookup.Answer]
    /// A MagicDNS name's addresses as Tailscale's resolver (100.100.100.100) gives them; none
    /// when it does not answer.
    package var magicDNSAddresses: @Sendable (_ host: DomainName, _ timeout: Duration) async -> [IPAddress]
    /// The Gateways probed at once, within one budget (`GatewayProbe.runAll`); reports in the
    /// targets' order.
    package var probe:
        @Sendable (_ targets: [ProbeTarget], _ budget: Duration, _ limit: Int, _ phases: GatewayProbe.Phases) async -> [ProbeReport]
    /// The calendar, which certificates' validity is judged against.
    package var now: @Sendable () -> Date

    package init(
        discovery: any Discovering,
        hostAddresses: @escaping @Sendable (String, Duration) async -> Result<[IPAddress], HostLookup.Failure>,
        mdnsAddresses: @escaping @Sendable (String, Duration) async -> AvahiHostLookup.Answer,
        mdnsNames: @escaping @Sendable ([IPAddress], Duration) async -> [IPAddress: AvahiAddressLookup.Answer],
        magicDNSAddresses: @escaping @Sendable (DomainName, Duration) async -> [IPAddress],
        probe: @escaping @Sendable ([ProbeTarget], Duration, Int, GatewayProbe.Phases) async -> [ProbeReport],
        now: @escaping @Sendable () -> Date
    ) {
        self.discovery = discovery
        self.hostAddresses = hostAddresses
        self.mdnsAddresses = mdnsAddresses
        self.mdnsNames = mdnsNames
        self.magicDNSAddresses = magicDNSAddresses
        self.probe = probe
        self.now = now
    }
}
