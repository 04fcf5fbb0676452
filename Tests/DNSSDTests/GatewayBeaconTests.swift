import Foundation
import Testing

@testable import DNSSD

/// A full TXT as a current OpenClaw Gateway in full mode advertises it.
let fullOpenClawTXT: [(key: String, value: String?)] = [
    (key: "role", value: "gateway"), (key: "gatewayPort", value: "18789"), (key: "lanHost", value: "studio.local"),
    (key: "displayName", value: "Studio"), (key: "transport", value: "gateway"), (key: "gatewayTls", value: "1"),
    (key: "gatewayTlsSha256", value: String(repeating: "ab", count: 32)), (key: "gatewayDirectReachable", value: "1"),
    (key: "canvasPort", value: "18793"), (key: "tailnetDns", value: "studio.tail1234.ts.net"),
    (key: "sshPort", value: "22"), (key: "cliPath", value: "/usr/local/bin/openclaw"),
]

func beacon(
    _ txt: [(key: String, value: String?)], port: Int = 18789, host: String? = "studio.local.",
    addresses: [String] = ["192.168.1.20"], domain: DomainName? = .local, source: BeaconSource = .mdns
) throws -> GatewayBeacon {
    GatewayBeacon(
        instance: try InstanceName(decoded: "Studio (OpenClaw)"), serviceType: .gateway, domain: domain, source: source,
        interfaces: ["eth0"], host: host, port: port, addresses: addresses.compactMap(IPAddress.init), txt: try TXTRecord(pairs: txt)
    )
}

@Suite("GatewayBeacon: the typed OpenClaw view")
struct GatewayBeaconTests {
    @Test("every interop TXT key is decoded")
    func decodesFullTXT() throws {
        let b = try beacon(fullOpenClawTXT)
        let g = b.gateway
        #expect(g.role == "gateway")
        #expect(g.gatewayPort == 18789)
        #expect(g.lanHost == "studio.local")
        #expect(g.displayName == "Studio")
        #expect(g.transport == "gateway")
        #expect(g.tls)
        #expect(g.tlsSha256?.hex == String(repeating: "ab", count: 32))
        #expect(g.directReachable)
        #expect(g.canvasPort == 18793)
        #expect(g.tailnetDns == "studio.tail1234.ts.net")
        #expect(g.sshPort == 22)
        #expect(g.cliPath == "/usr/local/bin/openclaw")
        #expect(b.warnings.isEmpty)
        #expect(b.url == "wss://studio.local:18789", "OpenClaw strips the SRV target's trailing dot")
        #expect(b.id == .advertised(type: "_openclaw-gw._tcp", domain: "local.", instance: "studio (openclaw)"))
        #expect(b.id.description == "_openclaw-gw._tcp|local.|studio (openclaw)")
    }

    @Test("contradictions become warnings")
    func warnsOnContradictions() throws {
        let b = try beacon([
            (key: "role", value: "node"), (key: "gatewayPort", value: "18790"),
            (key: "gatewayTlsSha256", value: "nothex"),
        ])
        let warnings = b.warnings
        #expect(warnings.contains("TXT role is 'node', not 'gateway'"))
        #expect(warnings.contains("TXT gatewayPort 18790 differs from SRV port 18789"))
        #expect(warnings.contains { $0.contains("is not a SHA-256 fingerprint") })
        #expect(warnings.contains("TXT has gatewayTlsSha256 but not gatewayTls=1"))
    }

    @Test("a fingerprint in another spelling is read but flagged")
    func nonCanonicalFingerprint() throws {
        let colon = TLSFingerprint(normalizing: String(repeating: "ab", count: 32))!.openSSLStyle
        let b = try beacon([(key: "role", value: "gateway"), (key: "gatewayTls", value: "yes"), (key: "gatewayTlsSha256", value: colon)])
        #expect(b.gateway.tlsSha256?.hex == String(repeating: "ab", count: 32))
        #expect(b.gateway.tls)
        #expect(b.warnings.count == 1)
    }

    @Test("bad numbers and flags are warnings, not crashes", arguments: ["-1", "70000", "18789x", "", " 1"])
    func badPorts(text: String) throws {
        let b = try beacon([(key: "role", value: "gateway"), (key: "gatewayPort", value: text), (key: "gatewayTls", value: "maybe")])
        #expect(b.gateway.gatewayPort == nil)
        #expect(!b.gateway.tls)
        #expect(b.warnings.count == 2)
    }

    @Test("SRV port 0, missing addresses and missing role are reported")
    func discoveryProblems() throws {
        let b = try beacon([], port: 0, addresses: [])
        #expect(b.warnings.contains("SRV port is 0: the service says it is not available here"))
        #expect(b.warnings.contains("no address found for studio.local."))
        #expect(b.warnings.contains("TXT has no role key (expected role=gateway)"))
        #expect(b.url == nil)
    }

    @Test("without TLS a public host gets no URL, a private address does")
    func plainWebSocketRules() throws {
        let publicOnly = try beacon(
            [(key: "role", value: "gateway")], host: "gw.example.com.", addresses: ["203.0.113.5"],
            domain: try DomainName(validating: "example.com"), source: .unicast)
        #expect(publicOnly.url == nil)
        #expect(publicOnly.warnings.contains { $0.contains("refuse plain ws://") })
        let tailnet = try beacon(
            [(key: "role", value: "gateway")], host: "gw.openclaw.internal.", addresses: ["100.101.102.103"],
            domain: try DomainName(validating: "openclaw.internal"), source: .unicast)
        #expect(tailnet.url == "ws://100.101.102.103:18789")
    }

    @Test("manual targets carry the TLS the user asked for and no TXT warnings")
    func manualBeacon() throws {
        var b = GatewayBeacon(
            instance: try InstanceName(decoded: "gw.example.com:443"), serviceType: .gateway, domain: nil, source: .manual,
            host: "gw.example.com", port: 443, addresses: [IPAddress("203.0.113.5")!], txt: .empty, requestedTLS: true
        )
        #expect(b.gateway.tls)
        #expect(b.warnings.isEmpty)
        #expect(b.url == "wss://gw.example.com:443")
        #expect(b.id == .manual("gw.example.com:443"))
        #expect(b.id.description == "manual|gw.example.com:443")
        b.requestedTLS = false
        #expect(b.url == nil)
    }

    @Test("JSON has the clawnet.browse.v1 beacon shape and reads back")
    func jsonRoundTrip() throws {
        let original = try beacon(fullOpenClawTXT, addresses: ["192.168.1.20", "fe80::1%eth0"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(original)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["instance"] as? String == "Studio (OpenClaw)")
        #expect(object["sources"] as? [String] == ["mdns"])
        #expect(object["addresses"] as? [String] == ["192.168.1.20", "fe80::1%eth0"])
        #expect(object["url"] as? String == "wss://studio.local:18789")
        let gateway = try #require(object["gateway"] as? [String: Any])
        #expect(gateway["gatewayPort"] as? Int == 18789)
        #expect(gateway["tlsSha256"] as? String == String(repeating: "ab", count: 32))
        #expect(gateway.keys.contains("canvasPort"))
        let txt = try #require(object["txt"] as? [String: Any])
        #expect(txt.count == fullOpenClawTXT.count)
        #expect(txt["cliPath"] as? String == "/usr/local/bin/openclaw")

        let decoded = try JSONDecoder().decode(GatewayBeacon.self, from: data)
        #expect(decoded.instance == original.instance)
        #expect(decoded.addresses == original.addresses)
        #expect(decoded.gateway == original.gateway)
        #expect(decoded.url == original.url)
        // OpenClaw's writer order first.
        #expect(decoded.attributes.ordered.prefix(4).map(\.key) == ["displayName", "role", "transport", "gatewayPort"])
    }
}

@Suite("Connect URLs, endpoints and fingerprints")
struct EndpointTests {
    @Test(
        "plain ws:// only where OpenClaw clients allow it",
        arguments: [
            ("127.0.0.1", true), ("::1", true), ("localhost", true), ("10.1.2.3", true), ("172.20.0.1", true),
            ("192.168.0.9", true), ("100.100.1.1", true), ("fd7a:115c:a1e0::1", true), ("fe80::1%eth0", true),
            ("studio.local", true), ("studio.local.", true), ("gw.tail1234.ts.net", true),
            ("8.8.8.8", false), ("172.32.0.1", false), ("2001:db8::1", false), ("gw.example.com", false),
            ("studio.openclaw.internal.", false), ("local.example.com", false),
        ])
    func plainAllowed(host: String, allowed: Bool) {
        #expect(ConnectURL.allowsPlainWebSocket(host: host) == allowed)
    }

    @Test(
        "host name kinds ignore case and a trailing dot",
        arguments: [
            ("Box.LOCAL", HostNameKind.multicastDNS), ("studio.local.", .multicastDNS), ("local", .multicastDNS),
            ("gw.Tail1234.TS.NET.", .magicDNS), ("gw.tail1234.ts.net", .magicDNS), ("LocalHost.", .localhost),
            ("local.example.com", .other), ("notlocal", .other), ("ts.net.example.com", .other), ("gw.example.com.", .other),
        ] as [(String, HostNameKind)])
    func hostNameKinds(host: String, kind: HostNameKind) {
        #expect(HostNameKind(host) == kind, "\(host) read as \(HostNameKind(host))")
    }

    @Test("IPv6 goes in brackets with its zone as %25")
    func ipv6URLs() {
        #expect(ConnectURL.make(host: "fe80::1%eth0", port: 18789, tls: false) == "ws://[fe80::1%25eth0]:18789")
        #expect(ConnectURL.make(host: "2001:db8::1", port: 443, tls: true) == "wss://[2001:db8::1]:443")
        #expect(ConnectURL.make(host: "10.0.0.1", port: 0, tls: true) == nil)
    }

    @Test(
        "endpoints parse hosts, ports, brackets and URLs",
        arguments: [
            ("studio.local", "studio.local", 18789, nil),
            ("Studio.Local.:9000", "studio.local", 9000, nil),
            ("192.168.1.5:18789", "192.168.1.5", 18789, nil),
            ("[fe80::1%eth0]:18789", "fe80::1%eth0", 18789, nil),
            ("fe80:0::0001", "fe80::1", 18789, nil),
            ("2001:db8::1", "2001:db8::1", 18789, nil),
            ("wss://gw.example.com:443/ws?x=1", "gw.example.com", 443, "wss"),
            ("ws://[fe80::1%25eth0]:18789", "fe80::1%eth0", 18789, "ws"),
            ("WSS://user@10.0.0.1", "10.0.0.1", 18789, "wss"),
        ] as [(String, String, Int, String?)])
    func parsesEndpoints(text: String, host: String, port: Int, scheme: String?) throws {
        let endpoint = try Endpoint.parse(text, defaultPort: 18789)
        #expect(endpoint.host == host)
        #expect(endpoint.port == port)
        #expect(endpoint.scheme?.rawValue == scheme)
    }

    @Test(
        "bad endpoints are refused with a reason",
        arguments: [
            "", "http://x", "[::1", "[nothex]:1", "host:0", "host:65536", "host:port", "bad host", "a..b", "1:2:3:zz",
        ])
    func rejectsEndpoints(text: String) {
        #expect(throws: DNSSDError.self) { try Endpoint.parse(text, defaultPort: 18789) }
    }

    @Test(
        "a bare IPv6 address whose last group could be a port is refused as ambiguous, with both readings in brackets",
        arguments: [("::1:80", "[::1]:80"), ("fe80::0:1", "[fe80::0]:1"), ("fe80::1%eth0:443", "[fe80::1%eth0]:443")])
    func ambiguousIPv6(text: String, suggestion: String) {
        #expect {
            try Endpoint.parse(text, defaultPort: 18789)
        } throws: { error in
            let message = (error as? DNSSDError)?.message ?? ""
            return message.contains("ambiguous") && message.contains(suggestion) && message.contains("[\(text)]")
        }
    }

    @Test(
        "addresses no packet can be sent to are refused as DNS servers, each saying why",
        arguments: [
            ("0.0.0.0", "unspecified address"), ("::", "unspecified address"), ("[::]:53", "unspecified address"),
            ("::ffff:0.0.0.0", "unspecified address"), ("0.1.2.3", "0.0.0.0/8"), ("255.255.255.255", "broadcast"),
            ("224.0.0.251", "multicast"), ("ff02::fb", "multicast"), ("fe80::1", "give its interface too"),
        ])
    func unusableServers(text: String, words: String) {
        #expect {
            try DNSServer(parsing: text)
        } throws: { error in
            (error as? DNSSDError)?.message.contains(words) == true
        }
    }

    @Test("usable servers parse; resolv.conf's unspecified address is loopback, as glibc reads it")
    func usableServers() throws {
        #expect(try DNSServer(parsing: "127.0.0.1:5300").description == "127.0.0.1#5300")
        #expect(try DNSServer(parsing: "[fe80::1%eth0]:53").description == "fe80::1%eth0#53")
        #expect(try DNSServer(parsing: "::ffff:10.0.0.1").address.mappedIPv4 == IPAddress("10.0.0.1"))
        #expect(DNSServer(resolvConfAddress: IPAddress("0.0.0.0")!).description == "127.0.0.1#53")
        #expect(DNSServer(resolvConfAddress: IPAddress("::")!).description == "::1#53")
        #expect(DNSServer(resolvConfAddress: IPAddress("10.0.0.1")!).description == "10.0.0.1#53")
    }

    @Test("endpoint text puts IPv6 in brackets")
    func endpointDescription() throws {
        #expect(try Endpoint.parse("[2001:db8::1]:5", defaultPort: 1).description == "[2001:db8::1]:5")
        #expect(try Endpoint.parse("[fe80::1%eth0]:5", defaultPort: 1).description == "[fe80::1%eth0]:5")
    }

    @Test(
        "fingerprints normalise as OpenClaw's clients do",
        arguments: [
            "sha256:" + String(repeating: "AB", count: 32),
            "SHA-256 " + String(repeating: "ab:", count: 31) + "ab",
            "Sha256:" + String(repeating: "Ab", count: 32),
            String(repeating: "ab", count: 32),
        ])
    func normalisesFingerprints(text: String) {
        #expect(TLSFingerprint(normalizing: text)?.hex == String(repeating: "ab", count: 32))
    }

    @Test(
        "short or long fingerprints are refused",
        arguments: ["", "abc", String(repeating: "a", count: 63), String(repeating: "a", count: 65)])
    func rejectsFingerprints(text: String) {
        #expect(TLSFingerprint(normalizing: text) == nil)
    }

    @Test("digests print like openssl")
    func opensslStyle() {
        let fingerprint = TLSFingerprint(digest: [UInt8](0..<32))
        #expect(fingerprint.hex.hasPrefix("000102030405"))
        #expect(fingerprint.openSSLStyle.hasPrefix("00:01:02:03"))
        #expect(fingerprint.openSSLStyle.count == 95)
    }

    @Test(
        "IP addresses classify",
        arguments: [
            ("127.0.0.1", true, false, false), ("169.254.1.1", false, true, false), ("100.64.0.1", false, false, true),
            ("100.128.0.1", false, false, false), ("fe80::1", false, true, false), ("fd7a:115c:a1e0::5", false, false, true),
        ])
    func classifiesAddresses(text: String, loopback: Bool, linkLocal: Bool, tailscale: Bool) throws {
        let address = try #require(IPAddress(text))
        #expect(address.isLoopback == loopback)
        #expect(address.isLinkLocal == linkLocal)
        #expect(address.isTailscale == tailscale)
    }
}
