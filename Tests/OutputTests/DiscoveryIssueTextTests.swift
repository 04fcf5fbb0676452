import Avahi
import DNSSD
import Foundation
import Testing

@testable import Output

/// The words of discovery issues (DiscoveryIssueText) and their JSON (DiscoveryIssueJSON): the
/// discovery tests assert codes and values, these the English a person reads.
@Suite("discovery issues: the words of each code, and their JSON")
struct DiscoveryIssueTextTests {
    static let bus = "unix:path=/run/dbus/system_bus_socket"
    static let domain = "openclaw.internal."
    static let service = "_openclaw-gw._tcp.openclaw.internal."

    static func words(_ code: DiscoveryIssue.Code, source: DiscoveryIssue.Source = .mdns) -> DiscoveryIssueText {
        DiscoveryIssueText(DiscoveryIssue(source: source, kind: .dnsError, code, domain: source == .unicast ? domain : nil))
    }

    @Test("Avahi's codes: the cause, and a fix that starts or installs avahi-daemon and names what works meanwhile")
    func avahi() {
        let noBus = Self.words(.busNotRunning(socket: "/run/dbus/system_bus_socket", installed: true, meanwhile: .otherPaths))
        #expect(
            noBus.message == "the D-Bus system bus is not running (no socket at /run/dbus/system_bus_socket); Avahi is reached over D-Bus")
        #expect(noBus.fix?.hasPrefix("start D-Bus: `sudo systemctl start dbus`") == true, "\(noBus)")
        #expect(noBus.fix?.hasSuffix("manual targets (--manual) work without Avahi.") == true, "\(noBus)")
        let notInstalled = Self.words(.daemonNotRunning(bus: Self.bus, installed: false, meanwhile: .serveOnly))
        #expect(notInstalled.message == "avahi-daemon is not running (nothing answers for org.freedesktop.Avahi on \(Self.bus))")
        #expect(
            notInstalled.fix
                == AvahiDaemonFix.install
                + ". Meanwhile, `clawnet advertise --serve-only` answers like a Gateway without publishing a beacon.")
        #expect(Self.words(.daemonDisconnected(installed: true)).fix == "check `systemctl status avahi-daemon`; \(AvahiDaemonFix.start)")
        #expect(
            Self.words(.daemonUnreachable(bus: Self.bus, error: "Access denied", installed: true, meanwhile: .otherPaths)).message
                == "cannot talk to avahi-daemon over D-Bus at \(Self.bus): Access denied")
        #expect(Self.words(.eventLoopFailed) == DiscoveryIssueText("could not create an Avahi event loop"))
        #expect(
            Self.words(.publishRefused(name: "Studio", error: "Not permitted")).message
                == "Avahi refused to publish 'Studio': Not permitted")
        #expect(
            Self.words(.unresolved(instances: 1, examples: ["Studio"])).message
                == "1 instance announced by mDNS could not be resolved (no SRV, TXT or address answered in time): 'Studio'")
        let flood = Self.words(.unresolved(instances: 500, examples: ["Flood 0", "Flood 1", "Flood 10"]))
        #expect(flood.message.hasPrefix("500 instances announced by mDNS could not be resolved"), "\(flood)")
        #expect(flood.message.hasSuffix(": 'Flood 0', 'Flood 1', 'Flood 10' and 497 more"), "\(flood)")
        #expect(flood.fix?.contains("avahi-browse -at") == true, "\(flood)")
        #expect(Self.words(.fellBehind(events: 4096)).message.hasPrefix("clawnet fell 4096 events behind avahi-daemon"))
    }

    @Test("a browse of a domain: the message starts with the domain; the PTR fix follows the answer")
    func unicast() {
        let missing = Self.words(
            .srvMissing(instance: "ghost", presentation: "ghost", type: "_openclaw-gw._tcp", explanation: "NXDOMAIN from 127.0.0.1#5303"),
            source: .unicast)
        #expect(missing.message == "openclaw.internal.: 'ghost' is listed by PTR but has no SRV record: NXDOMAIN from 127.0.0.1#5303")
        #expect(missing.fix == "add `ghost._openclaw-gw._tcp IN SRV 0 0 <port> <host>` to the openclaw.internal. zone, or remove its PTR")
        let nx = Self.words(
            .ptrUnanswered(
                service: Self.service, type: "_openclaw-gw._tcp", explanation: "NXDOMAIN from 127.0.0.1#5303",
                answer: .noSuchDomain(server: "127.0.0.1#5303", dig: "@127.0.0.1 -p 5303")),
            source: .unicast)
        #expect(nx.message == "openclaw.internal.: PTR \(Self.service): NXDOMAIN from 127.0.0.1#5303")
        #expect(nx.fix?.contains("dig SOA openclaw.internal @127.0.0.1 -p 5303") == true && nx.fix?.contains("--domain") == true, "\(nx)")
        let truncated = Self.words(.ptrTruncated(service: Self.service, server: "127.0.0.1#5303", records: 0), source: .unicast)
        #expect(truncated.message.contains("truncated even over TCP (0 records arrived)"))
        #expect(truncated.fix?.contains("split the Gateways across several domains") == true)
        let many = Self.words(.tooManyInstances(service: Self.service, count: 1_200, limit: 1_000), source: .unicast)
        #expect(many.message == "openclaw.internal.: \(Self.service) lists 1200 instances; only the first 1000 are resolved")
        let split = Self.words(.splitDNS(tailscale: "100.100.100.100", system: ["192.168.1.1#53"]), source: .unicast)
        #expect(
            split.message
                == "openclaw.internal. answers at Tailscale's resolver 100.100.100.100 but not through this machine's resolver "
                + "(192.168.1.1#53): split DNS is not applied here", "split DNS names the domain itself, once")
        #expect(split.fix?.contains("list openclaw.internal as a split-DNS domain") == true, "\(split)")
        #expect(
            Self.words(.resolvConf(problem: "/etc/resolv.conf: cannot read 'x'"), source: .unicast).message
                == "/etc/resolv.conf: cannot read 'x'")
    }

    @Test("an outage the path waits out says so")
    func waiting() {
        var issue = DiscoveryIssue(source: .mdns, kind: .daemonLost, .daemonDisconnected(installed: true))
        issue.waitsForReturn = true
        #expect(
            DiscoveryIssueText(issue).message
                == "lost the connection to avahi-daemon (it stopped or restarted); waiting for it to come back")
    }

    @Test("the JSON: source, kind, code, the words, the domain and doctor's id for the kind")
    func json() throws {
        let issue = DiscoveryIssue(
            source: .unicast, kind: .splitDNS, .splitDNS(tailscale: "100.100.100.100", system: ["192.168.1.1#53"]), domain: Self.domain)
        let object = try #require(
            try JSONSerialization.jsonObject(with: try JSONEncoder().encode(DiscoveryIssueJSON(issue))) as? [String: Any])
        let text = DiscoveryIssueText(issue)
        #expect(object["source"] as? String == "unicast" && object["kind"] as? String == "splitDNS", "\(object)")
        #expect(object["code"] as? String == "splitDNS" && object["diagnosis"] as? String == "split-dns", "\(object)")
        #expect(object["message"] as? String == text.message && object["fix"] as? String == text.fix, "\(object)")
        #expect(object["domain"] as? String == Self.domain)
        let bare = try #require(
            try JSONSerialization.jsonObject(
                with: try JSONEncoder().encode(DiscoveryIssueJSON(DiscoveryIssue(source: .mdns, kind: .browseFailed, .eventLoopFailed))))
                as? [String: Any])
        #expect(bare["fix"] is NSNull && bare["domain"] == nil && bare["diagnosis"] == nil, "no fix is null, as the schema has it: \(bare)")
    }
}
