import DNSSD
import Foundation
import Host
import Testing

@testable import Doctor
@testable import Output

/// The Gateway host as OpenClaw 2026.9 runs it (issue 32 case 7), from recorded facts (systemd
/// and its journal cannot run here): a gateway.bind that 2026.9 refuses, and an advertiser that
/// stopped with no watchdog to restart it.
@Suite("the Gateway host under OpenClaw 2026.9 (recorded)")
struct GatewayHostOpenClaw2Tests {
    @Test(
        "legacy-config-migrations.runtime.gateway.ts: gateway.bind as a host address is refused: gateway-bind-alias, and the mode to write",
        arguments: [("0.0.0.0", "lan"), ("::", "lan"), ("*", "lan"), ("localhost", "loopback"), ("127.0.0.1", "loopback")])
    func bindHostAlias(_ word: String, _ mode: String) throws {
        var system = RecordedSystem()
        system.openclaw.exists = true
        system.openclaw.bind = GatewayBind(word: word)
        let (checks, causes) = GatewayHostTests.diagnose(system)
        let config = try #require(checks.first { $0.id == .openclawConfig })
        #expect(config.status == .fail && config.reason == .bindHostAlias, "\(word): \(config)")
        #expect(config.message.contains("\"\(word)\"") && config.message.contains("does not start"), "\(config.message)")
        let cause = try #require(causes.first { $0.id == .gatewayBindAlias }, "\(causes.map(\.id))")
        #expect(cause.fix.contains("openclaw doctor --fix") && cause.fix.contains("\"\(mode)\""), "\(cause.fix)")
    }

    @Test("a bind mode is no alias, and neither is a word OpenClaw does not know")
    func notAliases() {
        for word in ["lan", "loopback", "tailnet", "auto", "custom", "10.0.0.5", "everywhere"] {
            #expect(GatewayBind(word: word).aliasReplacement == nil, "\(word)")
        }
    }

    static let running = "NRestarts=0\nActiveState=active\nSubState=running\nResult=success\n"

    @Test(
        "advertiser.ts, no watchdog since 2026-07-14: an advertiser stopped under a running Gateway: gateway-not-advertising names it",
        arguments: [
            (
                "Nov 29 02:10:01 gw node[811]: bonjour: disabling mDNS — networkInterfaces() unavailable in this environment: EPERM",
                "RestrictAddressFamilies"
            ),
            ("Nov 29 02:10:01 gw node[811]: [bonjour] bonjour: advertise failed with ciao netmask", "openclaw gateway restart"),
        ])
    func advertiserStopped(_ line: String, _ fix: String) throws {
        let journal = "Nov 29 02:10:00 gw node[811]: [gateway] listening on ws://0.0.0.0:18789\n" + line
        let system = GatewayHostTests.gatewayHost(GatewayService(show: Self.running, journal: journal))
        let (checks, causes) = GatewayHostTests.diagnose(system, local: true)
        let advertising = try #require(checks.first { $0.id == .openclawAdvertising })
        #expect(advertising.status == .warn && advertising.reason == .advertisingOff, "\(advertising)")
        #expect(checks.first { $0.id == .openclawConfig }?.reason != .restartLoop)
        let cause = try #require(causes.first { $0.id == .gatewayNotAdvertising }, "\(causes.map(\.id))")
        #expect(cause.cause.contains("its journal") && cause.fix.contains(fix), "\(cause.cause)\n\(cause.fix)")
    }

    @Test("a looping Gateway is the restart loop's to explain, not a stopped advertiser; a quiet journal stops nothing")
    func advertiserStopNeedsARunningGateway() {
        let looping = GatewayService(
            show: "NRestarts=9\nActiveState=activating\nSubState=auto-restart\n", journal: "bonjour: advertise failed with ciao x")
        #expect(looping.advertiserStop == nil)
        #expect(GatewayService(show: Self.running, journal: "[gateway] listening").advertiserStop == nil)
    }

    @Test("advertiser.ts isContainerEnvironment: Fly.io is FLY_MACHINE_ID with FLY_APP_NAME, both set; one alone is not Fly")
    func flyMachine() {
        let fly = LiveSystem(environment: ["FLY_MACHINE_ID": "d8901e0", "FLY_APP_NAME": "gw"]).platform()
        #expect(fly.container == "FLY_MACHINE_ID and FLY_APP_NAME", "\(fly)")
        let half = LiveSystem(environment: ["FLY_MACHINE_ID": "d8901e0", "FLY_APP_NAME": " "]).platform()
        #expect(half.container != "FLY_MACHINE_ID and FLY_APP_NAME", "\(half)")
    }

    @Test(
        "2026.9's \"bonjour: suppressing ciao ...\" lines are caught errors: a restart loop with only those does not blame the advertiser")
    func suppressedCiaoIsNoCrash() throws {
        let journal = """
            Nov 29 02:10:01 gw node[811]: bonjour: suppressing ciao netmask assertion: AssertionError: Could not find valid addresses
            Nov 29 02:10:02 gw node[811]: Error: listen EADDRINUSE: address already in use 127.0.0.1:18789
            """
        let looping = GatewayService(
            show: "NRestarts=12\nActiveState=activating\nSubState=auto-restart\nExecMainStatus=1\n", journal: journal)
        let (_, causes) = GatewayHostTests.diagnose(GatewayHostTests.gatewayHost(looping))
        let loop = try #require(causes.first { $0.id == .gatewayRestartLoop }, "\(causes.map(\.id))")
        #expect(loop.cause.contains("EADDRINUSE") && !loop.fix.contains("plugins disable bonjour"), "\(loop.cause)\n\(loop.fix)")
    }

    @Test(
        "a tailnet or custom bind needs 127.0.0.1:PORT too: nothing there is loopback-listener-missing with the restart; a listener passes",
        arguments: [GatewayBind.tailnet, .custom])
    func loopbackListener(_ bind: GatewayBind) throws {
        var system = RecordedSystem()
        system.openclaw.exists = true
        system.openclaw.bind = bind
        system.openclaw.gatewayPort = 18790
        system.loopback = false
        let config = try #require(GatewayHostTests.diagnose(system).0.first { $0.id == .openclawConfig })
        #expect(config.status == .warn && config.reason == .loopbackListenerMissing, "\(bind): \(config)")
        #expect(config.message.contains("127.0.0.1:18790") && config.fix?.contains("openclaw gateway restart") == true, "\(config)")
        system.loopback = true
        #expect(GatewayHostTests.diagnose(system).0.first { $0.id == .openclawConfig }?.status == .pass)
        // Not known (no connect possible): not a warning.
        system.loopback = nil
        #expect(GatewayHostTests.diagnose(system).0.first { $0.id == .openclawConfig }?.status == .pass)
    }

    @Test("lan, loopback and auto binds are not asked about 127.0.0.1 at all, nor is a node")
    func loopbackListenerOnlyForTailnetAndCustom() {
        for bind in [GatewayBind.lan, .loopback, .auto] {
            var system = RecordedSystem()
            system.openclaw.exists = true
            system.openclaw.bind = bind
            system.loopback = false
            let facts = MachineFacts.gather(system)
            #expect(facts.loopbackListener == nil, "\(bind)")
        }
        var node = RecordedSystem()
        node.openclaw.exists = true
        node.openclaw.bind = .tailnet
        node.openclaw.node.mode = .remote
        node.loopback = false
        #expect(MachineFacts.gather(node).loopbackListener == nil)
    }
}
