import DNSSD
import Discovery
import Foundation
import Host
import Testing
import Zones

@testable import Doctor
@testable import Output
@testable import Probes

/// gw.connect from each answer a Gateway gives; the node's config check; what decides
/// advertising; zone snippets from verified facts. Recorded facts only.
@Suite("gw.connect, node config, advertising, snippets")
struct ConnectCheckTests {
    func connect(_ outcome: ConnectOutcome, credentials: ConnectCredentials = .none) -> Check {
        var target = Recorded.target()
        target.credentials = credentials
        var report = Recorded.healthyReport(target)
        report.connect = PhaseTiming(outcome: outcome, elapsed: .milliseconds(3))
        return GatewayChecks.connect(Recorded.evidence(report).connect)
    }

    static func error(
        _ code: String, _ message: String, detail: String? = nil, requestId: String? = nil, next: String? = nil, expected: Int? = nil,
        retryAfterMs: Int? = nil
    ) -> ConnectError {
        ConnectError(
            code: code, message: message, detailCode: detail, requestId: requestId, reason: nil, recommendedNextStep: next,
            canRetryWithDeviceToken: nil, expectedProtocol: expected, clientMinProtocol: 4, clientMaxProtocol: 4, retryAfterMs: retryAfterMs
        )
    }

    /// A pairing request's id as OpenClaw makes it (randomUUID in src/infra/device-pairing.ts).
    static let requestId = "6f1c2a4e-9b3d-4c8e-a1f2-0d5e7b9c3a81"

    static let close1008 = CloseFrame(code: 1008, reason: "device identity required")

    static let outcomes: [(String, ConnectOutcome, Check.Status, CheckReason)] = [
        ("hello-ok", .helloOk(HelloOk(protocolVersion: 4, serverVersion: "2026.5.1", role: "operator", scopes: [])), .pass, .ok),
        (
            "device identity required, nothing sent",
            .rejected(error("NOT_PAIRED", "device identity required", detail: "DEVICE_IDENTITY_REQUIRED"), close: close1008),
            .pass, .credentialsRequired
        ),
        (
            "pairing required",
            .rejected(error("NOT_PAIRED", "pairing required", detail: "PAIRING_REQUIRED", requestId: requestId), close: nil),
            .fail, .pairingRequired
        ),
        (
            "token mismatch",
            .rejected(error("INVALID_REQUEST", "unauthorized", detail: "AUTH_TOKEN_MISMATCH", next: "update_auth_credentials"), close: nil),
            .fail, .tokenMismatch
        ),
        (
            "token missing",
            .rejected(
                error("INVALID_REQUEST", "unauthorized", detail: "AUTH_TOKEN_MISSING", next: "update_auth_configuration"), close: nil),
            .fail, .tokenMissing
        ),
        (
            "rate limited",
            .rejected(error("INVALID_REQUEST", "too many", detail: "AUTH_RATE_LIMITED", next: "wait_then_retry"), close: nil), .fail,
            .rateLimited
        ),
        (
            "bad signature",
            .rejected(error("INVALID_REQUEST", "device signature invalid", detail: "DEVICE_AUTH_SIGNATURE_INVALID"), close: nil), .fail,
            .deviceAuthRejected
        ),
        (
            "protocol mismatch",
            .rejected(error("INVALID_REQUEST", "protocol mismatch", detail: "PROTOCOL_MISMATCH", expected: 5), close: nil),
            .fail, .protocolMismatch
        ),
        (
            "protocol mismatch without details.code",
            .rejected(error("INVALID_REQUEST", "protocol mismatch", expected: 5), close: nil), .fail, .protocolMismatch
        ),
        (
            "starting", .rejected(error("UNAVAILABLE", "gateway starting; retry shortly", retryAfterMs: 500), close: nil), .warn,
            .gatewayStarting
        ),
        ("closed", .closed(CloseFrame(code: 1008, reason: "invalid request frame")), .fail, .closedByGateway),
        ("another refusal", .rejected(error("INVALID_REQUEST", "invalid role"), close: nil), .fail, .connectRejected),
        ("silence", .timedOut, .fail, .connectTimedOut),
        ("garbage", .unexpected("<html>"), .fail, .unexpectedConnectAnswer),
        ("a broken connection", .failed("connection reset"), .fail, .connectFailed),
    ]

    @Test("each answer is one status and one reason", arguments: outcomes)
    func classified(name: String, outcome: ConnectOutcome, status: Check.Status, reason: CheckReason) {
        let check = connect(outcome)
        #expect(check.status == status && check.reason == reason, "\(name): \(check.status) \(check.reason) \(check.message)")
        if status != .pass { #expect(check.fix?.isEmpty == false, "\(name) has no fix") }
    }

    @Test("the pairing fix names the request to approve; a refused token is named by source, never by value")
    func wording() throws {
        let pairing = connect(
            .rejected(Self.error("NOT_PAIRED", "pairing required", detail: "PAIRING_REQUIRED", requestId: Self.requestId), close: nil))
        #expect(
            pairing.message.contains(Self.requestId)
                && pairing.fix == "on the Gateway host: `openclaw devices list`, then `openclaw devices approve -- \(Self.requestId)`",
            "\(pairing.message) / \(pairing.fix ?? "")")
        let token = try #require(GatewayToken("hunter2", source: "gateway.remote.token"))
        let refused = connect(
            .rejected(
                Self.error(
                    "INVALID_REQUEST", "unauthorized: gateway token mismatch", detail: "AUTH_TOKEN_MISMATCH",
                    next: "update_auth_credentials"), close: nil),
            credentials: ConnectCredentials(token: token))
        #expect(refused.message.contains("sent the token from gateway.remote.token") && refused.message.contains("update_auth_credentials"))
        #expect(!refused.message.contains("hunter2") && !(refused.fix ?? "").contains("hunter2"))
        let mismatch = connect(
            .rejected(Self.error("INVALID_REQUEST", "protocol mismatch", detail: "PROTOCOL_MISMATCH", expected: 5), close: nil))
        #expect(
            mismatch.message.contains("v5") && mismatch.message.contains("offered v4") && mismatch.message.contains("node is older")
                && mismatch.fix?.contains("on the nodes") == true, "\(mismatch.message) / \(mismatch.fix ?? "")")
    }

    // MARK: The node's config

    static func nodeConfig(url: String? = "wss://studio.openclaw.internal:18789") -> OpenClawConfig {
        var config = OpenClawConfig(path: "/n/openclaw.json")
        config.exists = true
        config.node.mode = .remote
        config.node.remoteURL = url.flatMap { try? EndpointSpec(parsing: $0) }
        return config
    }

    @Test("on a node, openclaw.config reports its Gateway and skips gateway.bind; without a URL it warns")
    func nodeCheck() {
        var system = RecordedSystem()
        system.openclaw = Self.nodeConfig()
        let facts = MachineFacts.gather(system)
        let check = MachineChecks.config(facts.config)
        #expect(check.status == .pass && check.message.contains("node of wss://studio.openclaw.internal:18789"), "\(check.message)")
        #expect(!check.message.contains("gateway.bind"))
        #expect(MachineChecks.advertising(facts).status == .skip)
        #expect(MachineChecks.config(Self.nodeConfig(url: nil)).reason == .remoteURLMissing)
    }

    @Test("a node's doctor checks gateway.remote.url and not 127.0.0.1; the same URL on a Gateway host (mode local) is not a target")
    func nodeTargets() async {
        var options = DoctorOptions()
        options.discovery.local = false
        options.timeout = .seconds(1)
        var answers = RecordedNetwork.Answers()
        answers.probes = ["ws://127.0.0.1:9": { Recorded.refusedReport($0) }, "ws://127.0.0.1:18789": { Recorded.refusedReport($0) }]
        let network = RecordedNetwork(answers)
        var node = RecordedSystem()
        node.openclaw = Self.nodeConfig(url: "ws://127.0.0.1:9")
        let asNode = await Doctor.run(options, system: node, io: network.io())
        #expect(asNode.gateways.map(\.target) == ["ws://127.0.0.1:9"], "\(asNode.gateways.map(\.target))")
        var host = node
        host.openclaw.node.mode = .local
        let asHost = await Doctor.run(options, system: host, io: network.io())
        #expect(asHost.gateways.map(\.target) == ["127.0.0.1:18789"], "\(asHost.gateways.map(\.target))")
        #expect(network.asked == [.probe("ws://127.0.0.1:9"), .probe("ws://127.0.0.1:18789")], "\(network.asked)")
    }

    static let switches: [(String, AdvertisingSettings, String?, AdvertisingSwitch?)] = {
        func settings(_ change: (inout AdvertisingSettings) -> Void) -> AdvertisingSettings {
            var value = AdvertisingSettings()
            change(&value)
            return value
        }
        return [
            ("defaults", AdvertisingSettings(), nil, nil),
            ("mdns off", settings { $0.mdnsMode = .off }, nil, .mdnsModeOff),
            ("minimal is on", settings { $0.mdnsMode = .minimal }, nil, nil),
            ("env disables", settings { $0.disableBonjour = "1" }, nil, .disabledByEnvironment("1")),
            ("plugins off", settings { $0.pluginsEnabled = false }, nil, .pluginsDisabled),
            ("denied", settings { $0.pluginsDeny = ["bonjour"] }, nil, .pluginDenied),
            ("entry off", settings { $0.bonjourEntryEnabled = false }, nil, .pluginEntryDisabled),
            ("not allowed", settings { $0.pluginsAllow = ["slack"] }, nil, .pluginNotAllowed),
            ("container", AdvertisingSettings(), "/.dockerenv", .container("/.dockerenv")),
            ("container forced on", settings { $0.disableBonjour = "0" }, "/.dockerenv", nil),
            ("env disables with Yes", settings { $0.disableBonjour = "Yes" }, nil, .disabledByEnvironment("Yes")),
            ("env disables with ON", settings { $0.disableBonjour = "ON" }, "/.dockerenv", .disabledByEnvironment("ON")),
            ("container forced on with off", settings { $0.disableBonjour = "off" }, "/.dockerenv", nil),
            ("container forced on with No", settings { $0.disableBonjour = "No" }, "/.dockerenv", nil),
            ("another word leaves it to the container", settings { $0.disableBonjour = "maybe" }, "/.dockerenv", .container("/.dockerenv")),
            ("empty leaves it to the container", settings { $0.disableBonjour = "" }, "/.dockerenv", .container("/.dockerenv")),
            (
                "mdns off wins over the env override",
                settings {
                    $0.mdnsMode = .off
                    $0.disableBonjour = "0"
                }, nil, .mdnsModeOff
            ),
        ]
    }()

    @Test("the switch that keeps a Gateway from advertising, in OpenClaw's order", arguments: switches)
    func advertisingSwitch(name: String, settings: AdvertisingSettings, container: String?, expected: AdvertisingSwitch?) {
        #expect(AdvertisingSwitch.off(settings, container: container) == expected, "\(name)")
    }

    @Test("container and WSL2 markers as OpenClaw's advertiser reads them")
    func platform() {
        #expect(PlatformFacts.cgroupMarker("0::/docker/0123abcd") == "/proc/1/cgroup (docker)")
        #expect(PlatformFacts.cgroupMarker("0::/kubepods/burstable/pod1") == "/proc/1/cgroup (kubepods)")
        #expect(PlatformFacts.cgroupMarker("0::/init.scope") == nil)
        #expect(PlatformFacts.isWSL2(osRelease: "5.15.153.1-microsoft-standard-WSL2"))
        #expect(!PlatformFacts.isWSL2(osRelease: "6.1.0-18-amd64"))
    }

    // MARK: Zone snippets

    static let domain = try! DomainName(validating: "openclaw.internal")

    static func verified(_ beacon: GatewayBeacon?, port: Int = 18789, answered: [String] = ["10.98.0.1"]) -> GatewayResult {
        var target = Recorded.target(address: answered[0])
        target.port = port
        let checks = CheckID.gateway.map { Check($0, .pass, .ok) }
        var report = Recorded.healthyReport(target)
        report.tcp = answered.compactMap(IPAddress.init).map { TCPAttempt(address: $0, outcome: .connected, elapsed: .zero) }
        return GatewayResult(evidence: Recorded.evidence(report, beacon: beacon), checks: checks)
    }

    func snippets(_ results: [GatewayResult], published: [GatewayBeacon] = []) -> [ZoneSnippet] {
        let discovery = DiscoverySummary(
            localBrowsed: true, domains: [Self.domain], beacons: results.compactMap(\.beacon) + published, issues: [])
        return ZoneSnippets.make(results, discovery: discovery, facts: MachineFacts.gather(RecordedSystem()))
    }

    @Test("a verified Gateway missing from the domain: the records OpenClaw's writer makes, from the verified facts")
    func missing() throws {
        let beacon = Recorded.beacon(txt: [("role", "gateway"), ("displayName", "Studio"), ("gatewayTlsSha256", Recorded.otherSHA.hex)])
        let found = snippets([Self.verified(beacon)])
        let snippet = try #require(found.first)
        #expect(found.count == 1 && snippet.reason == .missing)
        #expect(snippet.records.hasPrefix("; clawnet zone fragment for openclaw.internal."))
        #expect(snippet.records.contains("studio IN A 10.98.0.1"), "the address that answered, not the beacon's 192.168.1.30")
        #expect(!snippet.records.contains("192.168.1.30"))
        #expect(snippet.records.contains("gatewayTlsSha256=\(Recorded.certificateSHA.hex)"), "the fingerprint actually served")
        #expect(!snippet.records.contains(Recorded.otherSHA.hex))
        #expect(snippet.records.contains(#"Studio\032\(OpenClaw\)._openclaw-gw._tcp IN SRV 0 0 18789 studio"#))
        #expect(
            snippet.records.contains(#"IN TXT "displayName=Studio" "role=gateway" "transport=gateway" "gatewayPort=18789" "gatewayTls=1""#))
        #expect(ZoneWriter.fragmentDomain(snippet.records) == Self.domain)
    }

    @Test("published with another port: a stale snippet saying what differs; published as verified: none; a failed Gateway: none")
    func staleAndFailed() throws {
        let beacon = Recorded.beacon()
        var published = Recorded.beacon(source: .unicast, address: "10.98.0.1", port: 18790)
        published.txt = try TXTRecord(pairs: [("role", "gateway"), ("gatewayTls", "1"), ("gatewayTlsSha256", Recorded.certificateSHA.hex)])
        let stale = try #require(snippets([Self.verified(beacon)], published: [published]).first)
        let differences = SnippetJSON.words(stale.differences)
        #expect(stale.reason == .stale && differences.contains { $0.contains("port 18790") }, "\(differences)")
        var merged = Recorded.beacon(address: "10.98.0.1")
        merged.aliases = [BeaconAlias(source: .unicast, domain: Self.domain.name, instance: try InstanceName(decoded: "Studio (OpenClaw)"))]
        #expect(snippets([Self.verified(merged)]).isEmpty, "already published")
        var failed = Self.verified(beacon)
        failed.checks[failed.checks.firstIndex { $0.id == .gwPin }!] = Check(.gwPin, .fail, .pinMismatch)
        #expect(snippets([failed]).isEmpty, "a Gateway that failed a check is never put in a snippet")
        #expect(snippets([Self.verified(beacon, answered: ["127.0.0.1"])]).isEmpty, "loopback is not worth publishing")
    }

    @Test("the Corefile stanza binds the server asked (--server), else the system's resolver; never resolved's stub or Tailscale's")
    func corefileFromWhatWasAsked() throws {
        let beacon = Recorded.beacon()
        func stanza(asked: [String], resolvConf: String) -> String? {
            var discovery = DiscoverySummary(localBrowsed: true, domains: [Self.domain], beacons: [beacon], issues: [])
            discovery.askedServers = asked.compactMap { IPAddress($0).map { DNSServer(address: $0) } }
            var system = RecordedSystem()
            system.resolv = ResolvConf(path: "/etc/resolv.conf", text: resolvConf)
            return ZoneSnippets.make([Self.verified(beacon)], discovery: discovery, facts: MachineFacts.gather(system)).first?.corefile
        }
        let asked = stanza(asked: ["10.0.0.99"], resolvConf: "nameserver 192.168.1.1\n")
        #expect(asked?.contains("bind 10.0.0.99\n") == true, "\(asked ?? "no stanza")")
        #expect(asked?.contains("file /etc/coredns/openclaw.internal.db") == true, "\(asked ?? "no stanza")")
        let resolver = stanza(asked: [], resolvConf: "nameserver 10.0.0.53\n")
        #expect(resolver?.contains("bind 10.0.0.53\n") == true, "\(resolver ?? "no stanza")")
        let stubs = stanza(asked: [], resolvConf: "nameserver 127.0.0.53\nnameserver 100.100.100.100\n")
        #expect(stubs == nil, "\(stubs ?? "")")
    }

    @Test("doctor's JSON carries the snippets; the table shows the records")
    func report() throws {
        let beacon = Recorded.beacon()
        var result = DoctorResult(
            status: .pass, checks: [], gateways: [.init(target: "wss://studio.local:18789", beacon: beacon, checks: [])], diagnosis: [],
            elapsed: .milliseconds(5))
        result.snippets = snippets([Self.verified(beacon)])
        let report = DoctorReport(result)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try JSONOutput.pretty(report).utf8)) as? [String: Any])
        let snippets = try #require(json["snippets"] as? [[String: Any]])
        #expect(snippets.first?["domain"] as? String == "openclaw.internal." && snippets.first?["reason"] as? String == "missing")
        #expect((snippets.first?["records"] as? String)?.contains("IN SRV") == true)
        let lines = report.table(Terminal(color: false)).out
        #expect(lines.contains("Zone snippets") && lines.contains { $0.contains("IN PTR") }, "\(lines)")
    }
}
