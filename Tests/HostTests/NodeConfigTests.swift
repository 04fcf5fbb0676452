import DNSSD
import FoundationEssentials
import Testing

@testable import Host

/// The node's side of the config, what decides advertising, routes and the tailnet's ranges.
@Suite("Node config, advertising switches, routes, tailnet")
struct NodeConfigTests {
    func parse(_ text: String, environment: [String: String] = [:]) -> OpenClawConfig {
        var config = OpenClawConfig.parse(Data(text.utf8), path: "/n/openclaw.json")
        config.readEnvironment(environment)
        return config
    }

    @Test("a node: gateway.mode remote, its URL, pin and token; the token prints as its source only")
    func node() throws {
        let config = parse(
            """
            { gateway: { mode: 'remote', remote: { url: 'wss://studio.openclaw.internal:18789', transport: 'direct',
                tlsFingerprint: 'SHA256:' + 'ab', token: 'the-secret' } } }
            """.replacing("'SHA256:' + 'ab'", with: "'SHA256:\(String(repeating: "AB:", count: 31))AB'"))
        #expect(config.warnings.isEmpty, "\(config.warnings)")
        #expect(config.node.isRemote)
        #expect(config.node.remoteURL?.host == "studio.openclaw.internal" && config.node.remoteURL?.scheme == .wss)
        #expect(config.node.remoteTLSFingerprint?.hex == String(repeating: "ab", count: 32))
        let token = try #require(config.node.token)
        #expect(token.forConnectRequest == "the-secret")
        #expect("\(token)" == "the token from gateway.remote.token")
        #expect(!"\(config)".contains("the-secret"), "the config's description never shows the token")
    }

    @Test("token order: OPENCLAW_GATEWAY_TOKEN, then gateway.remote.token on a node or gateway.auth.token on the Gateway host")
    func tokenOrder() {
        let text = "{ gateway: { mode: 'MODE', remote: { token: 'remote' }, auth: { token: 'auth' } } }"
        #expect(parse(text.replacing("MODE", with: "remote")).node.token?.forConnectRequest == "remote")
        #expect(parse(text.replacing("MODE", with: "local")).node.token?.forConnectRequest == "auth")
        let env = parse(text.replacing("MODE", with: "remote"), environment: ["OPENCLAW_GATEWAY_TOKEN": " env "])
        #expect(env.node.token?.forConnectRequest == "env" && env.node.token?.source == "OPENCLAW_GATEWAY_TOKEN")
        let reference = parse(
            "{ gateway: { mode: 'remote', remote: { token: { source: 'env', provider: 'default', id: 'GW_TOKEN' } } } }",
            environment: ["GW_TOKEN": "from-env"])
        #expect(reference.node.token?.forConnectRequest == "from-env")
        let file = parse("{ gateway: { mode: 'remote', remote: { token: { source: 'file', provider: 'f', id: '/x' } } } }")
        #expect(file.node.token == nil && file.node.unresolvedToken?.contains("\"file\"") == true)
        #expect(file.warnings.isEmpty)
    }

    @Test(
        "a wrong type is a warning that names the field; unknown keys are ignored quietly",
        arguments: [
            ("{ gateway: { mode: 'sideways' } }", "gateway.mode"),
            ("{ gateway: { remote: { url: 'http://x' } } }", "gateway.remote.url"),
            ("{ gateway: { remote: { tlsFingerprint: 'abc' } } }", "gateway.remote.tlsFingerprint"),
            ("{ gateway: { remote: { token: 42 } } }", "gateway.remote.token"),
            ("{ discovery: { mdns: { mode: 'loud' } } }", "discovery.mdns.mode"),
            ("{ plugins: { enabled: 'yes' } }", "plugins.enabled"),
            ("{ plugins: { deny: 'bonjour' } }", "plugins.deny"),
            ("{ plugins: { entries: { bonjour: { enabled: 1 } } } }", "plugins.entries.bonjour.enabled"),
        ])
    func wrongTypes(text: String, field: String) {
        let config = parse(text)
        #expect(config.warnings.count == 1 && config.warnings.first?.contains(field) == true, "\(config.warnings)")
        #expect(parse("{ agents: { list: [] }, gateway: { unknownKey: 1, remote: { fancy: true } } }").warnings.isEmpty)
    }

    @Test("advertising switches from config and environment")
    func advertising() {
        let config = parse(
            "{ discovery: { mdns: { mode: 'off' } }, plugins: { enabled: true, allow: ['bonjour'], deny: [], entries: { bonjour: { enabled: false } } } }",
            environment: ["OPENCLAW_DISABLE_BONJOUR": "0", "OPENCLAW_MDNS_HOSTNAME": "studio"])
        #expect(config.warnings.isEmpty, "\(config.warnings)")
        #expect(config.advertising.mdnsMode == .off && config.advertising.pluginsEnabled == true)
        #expect(config.advertising.pluginsAllow == ["bonjour"] && config.advertising.bonjourEntryEnabled == false)
        #expect(config.advertising.disableBonjourOverride == false && config.advertising.mdnsHostname == "studio")
    }

    /// As extensions/bonjour/src/advertiser.ts reads it (src/utils/boolean.ts parseBooleanValue).
    @Test(
        "OPENCLAW_DISABLE_BONJOUR: 1/true/yes/on in any case disable, 0/false/no/off force on, empty and other words leave it to the rest",
        arguments: [
            ("1", true), ("true", true), ("TRUE", true), ("True", true), ("yes", true), ("YES", true), ("on", true), ("On", true),
            (" 1 ", true), ("\tyes\n", true), ("\u{A0}on\u{FEFF}", true), ("0", false), ("false", false), ("FALSE", false),
            ("no", false), ("No", false), ("off", false), ("OFF", false), (" off\r\n", false), ("", nil), ("   ", nil),
            ("2", nil), ("y", nil), ("enabled", nil), ("disable", nil), ("1 1", nil), ("ja", nil),
        ] as [(String, Bool?)])
    func disableBonjour(value: String, expected: Bool?) {
        var settings = AdvertisingSettings()
        settings.disableBonjour = value
        #expect(settings.disableBonjourOverride == expected, "\(value.debugDescription)")
        let config = parse("{}", environment: ["OPENCLAW_DISABLE_BONJOUR": value])
        #expect(config.advertising.disableBonjourOverride == expected, "read from the environment: \(value.debugDescription)")
    }

    @Test("routes from /proc/net/route and /proc/net/ipv6_route; the most specific non-default one wins")
    func routes() throws {
        let v4 = RoutingTable.parseIPv4(
            """
            Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
            eth0\t00000000\t0101A8C0\t0003\t0\t0\t0\t00000000\t0\t0\t0
            eth0\t0001A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
            docker0\t000011AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0
            """)
        #expect(v4.map(\.network.description) == ["0.0.0.0/0", "192.168.1.0/24", "172.17.0.0/16"])
        let v6 = RoutingTable.parseIPv6(
            "fd980000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0\n"
        )
        #expect(v6.first?.network.description == "fd98::/64" && v6.first?.interface == "eth0")
        #expect(RoutingTable.specificRoute(to: IPAddress("192.168.1.20")!, in: v4)?.interface == "eth0")
        #expect(RoutingTable.specificRoute(to: IPAddress("10.0.0.1")!, in: v4) == nil, "only the default route covers it")
    }

    @Test("tailnet ranges: Tailscale's defaults, tailscale0's subnets (Headscale), and routes through it")
    func tailnet() {
        let interfaces = [
            NetworkInterface(name: "eth0", addresses: [IPAddress("192.168.1.20")!], isUp: true, isLoopback: false, supportsMulticast: true),
            NetworkInterface(
                name: "tailscale0", addresses: [IPAddress("10.77.0.5")!], isUp: true, isLoopback: false, supportsMulticast: false,
                networks: [IPNetwork("10.77.0.0/16")!]),
        ]
        let tailnet = Tailnet(interfaces: interfaces, routes: [Route(network: IPNetwork("10.88.0.0/16")!, interface: "tailscale0")])
        #expect(tailnet.isJoined && tailnet.addresses == [IPAddress("10.77.0.5")!] && tailnet.interfaces == ["tailscale0"])
        #expect(tailnet.contains(IPAddress("10.77.3.4")!) && tailnet.contains(IPAddress("10.88.0.1")!))
        #expect(tailnet.contains(IPAddress("100.100.1.1")!), "Tailscale's own range always counts")
        #expect(!tailnet.contains(IPAddress("192.168.1.30")!))
        let off = Tailnet(interfaces: [interfaces[0]], routes: [])
        #expect(!off.isJoined && off.contains(IPAddress("100.101.102.7")!) && !off.contains(IPAddress("10.77.0.9")!))
    }

    @Test("--token-file: the first line of a small regular file; a directory, a big file or an empty line are refused")
    func tokenFile() throws {
        let path = "/tmp/clawnet-token-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("  tok-1 \nsecond line\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try TokenFile.read(path).forConnectRequest == "tok-1")
        try Data("\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: TokenFile.Failure.self) { try TokenFile.read(path) }
        try Data(repeating: 65, count: 5000).write(to: URL(fileURLWithPath: path))
        #expect(throws: TokenFile.Failure.self) { try TokenFile.read(path) }
        #expect(throws: TokenFile.Failure.self) { try TokenFile.read("/tmp") }
    }
}
