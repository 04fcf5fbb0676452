import DNSSD
import Foundation
import TestSupport
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
        #expect(config.bind == .lan)
    }

    @Test("a key given twice: the last counts, as JSON5.parse (and so OpenClaw) reads it, at every depth")
    func duplicateKeysLastWins() throws {
        let config = try load(
            """
            { gateway: { port: 1111, remote: { url: "wss://first.example:1" } },
              gateway: { mode: "remote", port: 2222, remote: { url: "wss://second.example:2" } } }
            """)
        #expect(config.warnings.isEmpty, "\(config.warnings)")
        #expect(config.gatewayPort == 2222, "the second gateway object replaces the first whole")
        #expect(config.node.remoteURL?.host == "second.example", "\(String(describing: config.node.remoteURL))")
        let nested = try load("{ gateway: { port: 1111, port: 3333, 'port': 4444 } }")
        #expect(nested.gatewayPort == 4444)
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

    @Test("bytes that are not UTF-8 are the documented warning, never a trap (the 7-byte file that made every command exit 132)")
    func notUTF8() {
        let config = OpenClawConfig.parse(Data([UInt8(ascii: "{"), 0xFD] + Array(" true".utf8)), path: "/x/openclaw.json")
        #expect(config.exists)
        #expect(config.warnings == ["/x/openclaw.json: not valid JSON5 (byte 1 is not UTF-8 (0xFD)); its settings are ignored"])
        #expect(config.gatewayPort == nil && config.wideAreaDomain == nil)
    }

    @Test("3,000 mutated configs, bytes of every value: each gives a config (with warnings when it must), none traps")
    func mutatedConfigs() {
        var random = SeededRandom()
        let valid = Array(
            """
            // OpenClaw
            { discovery: { wideArea: { domain: 'openclaw.internal', }, }, gateway: { port: 18790, bind: "lan", tls: { enabled: true } }, }
            """.utf8)
        for _ in 0..<3000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0...2, using: &random) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
                default: if bytes.count > 1 { bytes.remove(at: index) }
                }
            }
            let config = OpenClawConfig.parse(Data(bytes), path: "p")
            let utf8 = String(validating: bytes, as: UTF8.self) != nil
            #expect(utf8 || config.warnings.first?.contains("is not UTF-8") == true, "\(bytes); \(random.seedNote)")
        }
    }

    @Test("resolv.conf: the unspecified address means this host, as glibc reads it; addresses no packet can go to are problems")
    func resolvConfUnusable() {
        let conf = ResolvConf(
            path: "/x",
            text: """
                nameserver 0.0.0.0
                nameserver ::
                nameserver 224.0.0.251
                nameserver 255.255.255.255
                """)
        #expect(conf.servers.map(\.description) == ["127.0.0.1#53", "::1#53"])
        #expect(conf.problems.count == 2, "\(conf.problems)")
        #expect(conf.problems.allSatisfy { $0.contains("ignored") }, "\(conf.problems)")
    }

    @Test("blocking calls run on threads of their own, all at once: twelve that wait for each other all finish")
    func blockingCallsRunTogether() async {
        let rendezvous = Rendezvous(parties: 12)
        let finished = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<rendezvous.parties {
                group.addTask { await BlockingThreads.shared.value { rendezvous.arriveAndWait(timeout: 10) } }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(finished == rendezvous.parties, "\(finished) of \(rendezvous.parties) calls saw all the others running")
    }
}

@Suite("Lookups that never end hold no thread anyone else waits for")
struct BlockingPoolTests {
    @Test("every lookup thread stuck (a silent resolver): a D-Bus-style call still runs", .timeLimit(.minutes(1)))
    func lookupsApart() async {
        let release = DispatchSemaphore(value: 0)
        let stuck = 40
        for _ in 0..<stuck { BlockingThreads.lookups.run { release.wait() } }
        let answered = await BlockingThreads.shared.value { true }
        for _ in 0..<stuck { release.signal() }
        #expect(answered, "the shared threads ran while \(stuck) lookups were stuck")
    }
}

/// Blocks each caller until `parties` callers are inside at once (or the timeout passes):
/// calls that ran one after another would never meet.
final class Rendezvous: @unchecked Sendable {
    let parties: Int
    private var arrived = 0
    private let condition = NSCondition()  // guards `arrived`

    init(parties: Int) {
        self.parties = parties
    }

    func arriveAndWait(timeout seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: seconds)
        while arrived < parties, condition.wait(until: deadline) {}
        return arrived >= parties
    }
}
