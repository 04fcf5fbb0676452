import DNSSD
import FoundationEssentials
import Testing

@testable import Host

@Suite("OpenClaw config and resolv.conf")
struct ConfigTests {
    func load(_ text: String, environment: [String: String] = [:]) throws -> OpenClawConfig {
        let path = "/tmp/clawnet-config-\(UInt32.random(in: 0...UInt32.max)).json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return OpenClawConfig.load(explicitPath: path, environment: environment)
    }

    @Test("JSON5 as OpenClaw writes it: comments, unquoted keys, single quotes, trailing commas")
    func readsJSON5() throws {
        let config = try load(
            """
            // ~/.openclaw/openclaw.json
            {
              discovery: { wideArea: { domain: 'OpenClaw.Internal', }, },
              /* the gateway */
              gateway: { port: 18790, bind: 'lan', tls: { enabled: true, }, },
            }
            """)
        #expect(config.exists)
        #expect(config.warnings.isEmpty, "\(config.warnings)")
        #expect(config.wideAreaDomain?.name == "openclaw.internal.")
        #expect(config.gatewayPort == 18790)
        #expect(config.tlsEnabled == true)
        #expect(config.bind == "lan")
    }

    @Test("a malformed file is one warning naming the file, nothing else")
    func malformedFile() throws {
        let config = try load("{ gateway: { port: ")
        #expect(config.warnings.count == 1)
        #expect(config.warnings.first?.contains("not valid JSON5") == true)
        #expect(config.warnings.first?.hasPrefix(config.path) == true)
        #expect(config.gatewayPort == nil)
    }

    @Test("wrong types are field warnings; the other fields still count")
    func wrongTypes() throws {
        let config = try load(
            #"{ "gateway": { "port": "18789", "tls": { "enabled": "yes" } }, "discovery": { "wideArea": { "domain": "bad domain!" } } }"#)
        #expect(config.gatewayPort == nil && config.tlsEnabled == nil && config.wideAreaDomain == nil)
        #expect(config.warnings.count == 3, "\(config.warnings)")
        #expect(config.warnings.contains { $0.contains("gateway.port should be a number") })
        #expect(config.warnings.contains { $0.contains("discovery.wideArea.domain 'bad domain!'") })
        let array = try load("[1, 2]")
        #expect(array.warnings.first?.contains("top level is not an object") == true)
    }

    @Test("OPENCLAW_WIDE_AREA_DOMAIN applies when the file has no domain")
    func environment() throws {
        let fromEnvironment = try load("{}", environment: ["OPENCLAW_WIDE_AREA_DOMAIN": "tailnet.example"])
        #expect(fromEnvironment.wideAreaDomain?.name == "tailnet.example.")
        let fileWins = try load(
            "{ discovery: { wideArea: { domain: 'openclaw.internal' } } }", environment: ["OPENCLAW_WIDE_AREA_DOMAIN": "tailnet.example"])
        #expect(fileWins.wideAreaDomain?.name == "openclaw.internal.")
        let missing = OpenClawConfig.load(explicitPath: "/nonexistent/openclaw.json", environment: [:])
        #expect(!missing.exists)
        #expect(missing.warnings == ["/nonexistent/openclaw.json: cannot read the file (missing or not readable); using defaults"])
        let quiet = OpenClawConfig.load(environment: ["HOME": "/nonexistent"])
        #expect(quiet.warnings.isEmpty, "no --config: a missing default file is normal")
    }

    @Test("resolv.conf: nameservers in order, at most three, IPv6 with zones, 127.0.0.1 when none")
    func resolvConf() {
        let conf = ResolvConf(
            path: "/x",
            text: """
                # comment
                search example.com
                nameserver 127.0.0.53
                nameserver fe80::1%eth0
                nameserver not-an-address
                nameserver 10.0.0.1
                nameserver 10.0.0.2
                options edns0
                """)
        #expect(conf.servers.map(\.description) == ["127.0.0.53#53", "fe80::1%eth0#53", "10.0.0.1#53"])
        #expect(conf.problems == ["/x: cannot read 'nameserver not-an-address'"])
        #expect(ResolvConf(path: "/x", text: "").servers.map(\.description) == ["127.0.0.1#53"])
        #expect(!ResolvConf(path: "/nonexistent/resolv.conf").exists)
    }
}
