import TestSupport
import Testing

@testable import DNSSD

@Suite("Service types, domains and instance names")
struct NameTests {
    @Test(
        "valid service types normalise",
        arguments: [
            ("_openclaw-gw._tcp", "_openclaw-gw._tcp"),
            ("_OpenClaw-GW._TCP.", "_openclaw-gw._tcp"),
            ("_clawdbot-bridge._tcp", "_clawdbot-bridge._tcp"),
            ("_x1._udp", "_x1._udp"),
        ])
    func acceptsServiceTypes(text: String, expected: String) throws {
        #expect(try ServiceType(validating: text).name == expected)
    }

    @Test(
        "invalid service types are refused with a reason",
        arguments: [
            "openclaw-gw._tcp", "_openclaw-gw._sctp", "_openclaw-gw", "_._tcp", "_123._tcp",
            "_-x._tcp", "_a--b._tcp", "_sixteen-chars-xx._tcp", "_a b._tcp", "_a._tcp.local",
        ])
    func rejectsServiceTypes(text: String) {
        #expect(throws: DNSSDError.self) { try ServiceType(validating: text) }
    }

    @Test("legacy types are all valid and distinct")
    func legacyTypes() throws {
        let all = [ServiceType.gateway] + ServiceType.legacy
        #expect(Set(all).count == 5)
        for type in all { #expect(try ServiceType(validating: type.name) == type) }
    }

    @Test(
        "domains normalise to lower case with a trailing dot",
        arguments: [
            ("openclaw.internal", "openclaw.internal."),
            ("OpenClaw.Internal.", "openclaw.internal."),
            ("local", "local."),
            (" corp_lab.example.com ", "corp_lab.example.com."),
        ])
    func acceptsDomains(text: String, expected: String) throws {
        #expect(try DomainName(validating: text).name == expected)
    }

    @Test(
        "invalid domains are refused",
        arguments: [
            "", ".", "a..b", "has space.com", "-lead.com", "trail-.com", String(repeating: "a", count: 64) + ".com",
            "semi;colon.com", "ünï.com",
        ])
    func rejectsDomains(text: String) {
        #expect(throws: DNSSDError.self) { try DomainName(validating: text) }
    }

    @Test("domain membership ignores case and trailing dots")
    func domainContainsHost() throws {
        let domain = try DomainName(validating: "openclaw.internal")
        #expect(domain.contains(host: "Studio.OpenClaw.Internal."))
        #expect(domain.contains(host: "openclaw.internal"))
        #expect(!domain.contains(host: "notopenclaw.internal"))
        #expect(DomainName.local.isLocal)
    }

    @Test("a host name keeps its spelling, compares without case, and knows both presentations")
    func hostNames() throws {
        let srv = try #require(DomainName(host: "Studio.OpenClaw.Internal."))
        let typed = try #require(DomainName(host: "studio.openclaw.internal"))
        #expect(srv == typed && srv.hashValue == typed.hashValue, "\(srv) and \(typed) are one name")
        #expect(srv.withRootDot == "Studio.OpenClaw.Internal." && srv.withoutTrailingDot == "Studio.OpenClaw.Internal")
        #expect(srv.isWithin(try DomainName(validating: "openclaw.internal")) && !srv.isWithin(.local))
        #expect(Set([srv, typed]).count == 1)
    }

    @Test(
        "IP literals and text that is no host name are not host names",
        arguments: ["10.0.0.1", "fe80::1%eth0", "", ".", "has space.local", "Studio (OpenClaw)", "-lead.local", "a..b"])
    func notHostNames(text: String) {
        #expect(DomainName(host: text) == nil, "'\(text)' read as a host name")
    }

    @Test("an endpoint's host is validated once, by the host-name rule")
    func endpointHosts() throws {
        #expect(try EndpointSpec(parsing: "Studio.Local.:443").host == "studio.local")
        #expect(try Endpoint.parse("studio.local", defaultPort: 1).hostName == DomainName(host: "STUDIO.local"))
        #expect(try Endpoint.parse("10.0.0.1", defaultPort: 1).hostName == nil)
        #expect(throws: DNSSDError.self) { try EndpointSpec(parsing: "bad name.local") }
        #expect(throws: DNSSDError.self) { try EndpointSpec(parsing: "-lead.local") }
    }

    @Test("instance names compare case-insensitively (NSD and Knot lower-case RDATA)")
    func instanceIdentity() throws {
        let a = try InstanceName(decoded: "Studio (OpenClaw)")
        let b = try InstanceName(presentation: #"studio\032\(openclaw\)"#)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.key == "studio (openclaw)")
        #expect(a.displayName == "Studio (OpenClaw)")
        #expect(a.presentation == #"Studio\032\(OpenClaw\)"#)
        // Non-ASCII bytes are compared exactly, as DNS does.
        #expect(try InstanceName(decoded: "Ä") != InstanceName(decoded: "ä"))
    }

    @Test("63 bytes fit in a label, 64 do not")
    func labelLimit() throws {
        #expect(try InstanceName(decoded: String(repeating: "x", count: 63)).bytes.count == 63)
        #expect(throws: DNSSDError.self) { try InstanceName(decoded: String(repeating: "x", count: 64)) }
        #expect(throws: DNSSDError.self) { try InstanceName(decoded: "") }
    }

    @Test("truncation keeps whole UTF-8 characters")
    func truncatesOnCharacterBoundary() throws {
        let name = try InstanceName.truncating(String(repeating: "🦞", count: 20))  // 4 bytes each
        #expect(name.bytes.count == 60)
        #expect(name.displayName == String(repeating: "🦞", count: 15))
        let mixed = try InstanceName.truncating(String(repeating: "a", count: 62) + "é")
        #expect(mixed.bytes.count == 62)
    }

    @Test("instance names round-trip through presentation format (property)")
    func roundTripsThroughPresentation() throws {
        var random = SeededRandom()
        let alphabet = Array("abc XYZ.()\\\";$@é🦞\t-_0")
        for _ in 0..<1000 {
            let text = String((0..<Int.random(in: 1...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            guard let name = try? InstanceName.truncating(text) else { continue }
            let back = try InstanceName(presentation: name.presentation)
            #expect(back.bytes == name.bytes, "\(text.debugDescription), \(random.seedNote)")
            #expect(back.displayName == SafeText.display(name.bytes), "\(text.debugDescription), \(random.seedNote)")
        }
    }
}

@Suite("IP networks and connect URLs")
struct NetworkTests {
    @Test("prefixes, netmasks and membership")
    func networks() throws {
        let lan = try #require(IPNetwork("192.168.1.77/24"))
        #expect(
            lan.description == "192.168.1.0/24" && lan.contains(IPAddress("192.168.1.200")!) && !lan.contains(IPAddress("192.168.2.1")!))
        #expect(IPNetwork(IPAddress("10.0.0.5")!, netmask: IPAddress("255.255.240.0")!)?.description == "10.0.0.0/20")
        #expect(IPNetwork(IPAddress("10.0.0.5")!, netmask: IPAddress("255.0.255.0")!) == nil, "not a contiguous mask")
        #expect(IPNetwork("fd7a:115c:a1e0::/48")!.contains(IPAddress("fd7a:115c:a1e0:ab12::1")!))
        #expect(IPNetwork("10.0.0.1/33") == nil && IPNetwork("0.0.0.0/0")!.isDefault)
        #expect(!IPNetwork("10.0.0.0/8")!.contains(IPAddress("fd00::1")!))
    }

    @Test("a URL's host has no trailing dot, as OpenClaw builds it")
    func urlHost() {
        #expect(ConnectURL.make(host: "studio.openclaw.internal.", port: 18789, tls: true) == "wss://studio.openclaw.internal:18789")
        #expect(ConnectURL.make(host: "studio.local.", port: 18789, tls: false) == "ws://studio.local:18789")
        #expect(ConnectURL.make(host: "Studio.Local.", port: 18789, tls: false) == "ws://Studio.Local:18789", "the spelling stays")
    }

    @Test("an address gives the URL its text would: public and private, IPv4 and IPv6, with a zone, with and without TLS")
    func urlOfAddress() throws {
        let texts = ["10.0.0.5", "100.64.1.2", "192.168.1.1", "8.8.8.8", "127.0.0.1", "fd00::1", "fe80::1%eth0", "2001:db8::1", "::1"]
        for text in texts {
            let address = try #require(IPAddress(text))
            for tls in [false, true] {
                let fromText = ConnectURL.make(host: address.description, port: 18789, tls: tls)
                #expect(ConnectURL.best(host: nil, addresses: [address], port: 18789, tls: tls) == fromText, "\(text) tls \(tls)")
                // Without TLS a public host name gives no URL: the address decides.
                let plain = ConnectURL.make(host: address.description, port: 18789, tls: false)
                #expect(ConnectURL.best(host: "gw.example.com.", addresses: [address], port: 18789, tls: false) == plain, "\(text)")
            }
        }
    }

    @Test(
        "a URL names its Gateway by scheme and authority only: user info, path, query and fragment (credentials) are dropped",
        arguments: [
            ("wss://operator:s3cret@gw.example:18789/?token=s3cret#token=s3cret", "wss://gw.example:18789"),
            ("WS://user@[fd00::1]:18789/path", "ws://[fd00::1]:18789"), ("wss://gw.example?token=s3cret", "wss://gw.example"),
            ("gw.example:18789", "gw.example:18789"), ("10.0.0.5", "10.0.0.5"),
        ])
    func urlText(typed: String, shown: String) throws {
        let spec = try EndpointSpec(parsing: typed)
        #expect(spec.text == shown && spec.description == shown, "\(spec.text)")
    }
}
