import DNSSD
import Discovery
import Host
import Testing

@testable import Doctor
@testable import Output

/// Split DNS through systemd-resolved, from recorded `resolvectl status` output (systemd 252's
/// layout): resolved does not run in the test bed, so its answers are recorded, and the rule
/// that reads them is checked against them.
@Suite("split DNS through systemd-resolved (recorded resolvectl)")
struct SplitDNSResolvedTests {
    /// A laptop on Wi-Fi and a tailnet, Tailscale not managing DNS for the wide-area domain: the
    /// tailnet link has MagicDNS's server but only the tailnet's own domain.
    static let laptop = """
        Global
               Protocols: +LLMNR +mDNS -DNSOverTLS DNSSEC=no/unsupported
        resolv.conf mode: stub

        Link 2 (wlp2s0)
            Current Scopes: DNS LLMNR/IPv4 LLMNR/IPv6
                 Protocols: +DefaultRoute +LLMNR -mDNS -DNSOverTLS DNSSEC=no/unsupported
        Current DNS Server: 192.168.1.1
               DNS Servers: 192.168.1.1
                             fd00::1
                DNS Domain: lan

        Link 5 (tailscale0)
            Current Scopes: DNS
                 Protocols: -DefaultRoute -LLMNR -mDNS -DNSOverTLS DNSSEC=no/unsupported
        Current DNS Server: 100.100.100.100
               DNS Servers: 100.100.100.100
                DNS Domain: tail4e2f1.ts.net ~0.e.1.a.c.5.1.1.a.7.d.f.ip6.arpa
        """

    @Test("resolvectl status is read per link: servers (with continuation lines) and domains")
    func parses() throws {
        let status = ResolvedStatus(text: Self.laptop)
        #expect(status.links.map(\.name) == ["wlp2s0", "tailscale0"])
        let wifi = try #require(status.links.first)
        #expect(wifi.servers == ["192.168.1.1", "fd00::1"] && wifi.domains == ["lan"], "\(wifi)")
        let tailnet = try #require(status.links.last)
        #expect(tailnet.servers == ["100.100.100.100"], "\(tailnet)")
        let domain = try DomainName(validating: "openclaw.internal")
        #expect(status.routing(domain).isEmpty)
        #expect(ResolvedStatus.Link(name: "tailscale0", domains: ["~openclaw.internal"]).routes(domain))
        #expect(ResolvedStatus.Link(name: "x", domains: ["~."]).routes(domain), "~. routes every name")
        #expect(!ResolvedStatus.Link(name: "x", domains: ["~internal.example"]).routes(domain))
    }

    @Test("openclaw#2371 (recorded: systemd-resolved cannot run here): resolv.conf at 127.0.0.53, no ~openclaw.internal on tailscale0")
    func openclaw2371RoutingDomain() throws {
        var system = RecordedSystem()
        system.resolved = true
        system.resolv = ResolvConf(path: "/etc/resolv.conf", text: "nameserver 127.0.0.53\noptions edns0 trust-ad\n")
        system.resolvedLinks = ResolvedStatus(text: Self.laptop)
        system.networkInterfaces.append(
            NetworkInterface(
                name: "tailscale0", addresses: [IPAddress("100.101.102.103")!], isUp: true, isLoopback: false, supportsMulticast: false))
        let issue = DiscoveryIssue(
            source: .unicast, kind: .splitDNS, .splitDNS(tailscale: "100.100.100.100", system: ["192.168.1.1#53"]),
            domain: "openclaw.internal.")
        let discovery = DiscoverySummary(localBrowsed: false, domains: [Recorded.domain], beacons: [], issues: [issue])
        let facts = MachineFacts.gather(system)
        let checks = MachineChecks.run(facts, discovery: discovery, multicast: false)
        let causes = DiagnosisRules.diagnose(MachineResult(checks: checks, facts: facts, discovery: discovery), gateways: [])
        #expect(causes.map(\.id) == [.resolvedRoutingDomain], "one cause, not also split-dns: \(causes.map(\.id))")
        let cause = try #require(causes.first)
        #expect(cause.cause.contains("no link routes ~openclaw.internal") && cause.cause.contains("tailscale0"), "\(cause.cause)")
        #expect(cause.fix.contains("sudo resolvectl domain tailscale0 '~openclaw.internal'"), "\(cause.fix)")
        #expect(cause.fix.contains("sudo resolvectl dns tailscale0 100.100.100.100"), "\(cause.fix)")
        let resolver = try #require(checks.first { $0.id == .dnsResolver })
        #expect(resolver.message.contains("tailscale0 100.100.100.100"), "\(resolver.message)")
    }
}
