import Avahi
import DNSSD
import Host
import Testing

@testable import Doctor
@testable import Output

/// The Gateway host itself, from recorded systemd and container facts: systemd does not run in
/// the test bed (no `systemctl show`, no journal), so the unit's properties and journal lines
/// are recorded as `systemctl --user show` and `journalctl` print them; container markers are
/// recorded files. OpenClaw's own advertiser beside avahi-daemon runs end to end in
/// ClawnetTests' DoctorHostLabTests.
@Suite("the Gateway host: restart loops, containers (recorded)")
struct GatewayHostTests {
    static let crashLooping = """
        NRestarts=17
        ExecMainStatus=1
        ExecMainCode=1
        ActiveState=activating
        SubState=auto-restart
        Result=exit-code
        """

    static let journal = """
        Nov 26 01:02:03 gw node[4121]: [gateway] listening on ws://127.0.0.1:18789
        Nov 26 01:02:04 gw node[4121]: [bonjour] bonjour: advertise failed with ciao netmask assertion (gateway fqdn=gw (OpenClaw)._openclaw-gw._tcp.local.)
        Nov 26 01:02:04 gw node[4121]: AssertionError [ERR_ASSERTION]: Could not find valid addresses for interface 'docker0'
        Nov 26 01:02:04 gw systemd[812]: openclaw-gateway.service: Main process exited, code=exited, status=1/FAILURE
        """

    static func gatewayHost(_ service: GatewayService?) -> RecordedSystem {
        var system = RecordedSystem()
        system.openclaw.exists = true
        system.openclaw.bind = .lan
        system.service = service
        return system
    }

    static func diagnose(_ system: RecordedSystem, local: Bool = true) -> ([Check], [Diagnosis]) {
        let facts = MachineFacts.gather(system)
        let discovery = Recorded.discovery(local: local)
        let checks = MachineChecks.run(facts, discovery: discovery)
        return (checks, DiagnosisRules.diagnose(MachineResult(checks: checks, facts: facts, discovery: discovery), gateways: []))
    }

    @Test("openclaw#71879 (recorded: systemd cannot run here): 17 restarts, exit 1, ciao in the journal: gateway-restart-loop")
    func openclaw71879RestartLoop() throws {
        let (checks, causes) = Self.diagnose(Self.gatewayHost(GatewayService(show: Self.crashLooping, journal: Self.journal)))
        let config = try #require(checks.first { $0.id == .openclawConfig })
        #expect(config.status == .warn && config.reason == .restartLoop, "\(config)")
        #expect(config.message.contains("restarted 17 times") && config.message.contains("last exit status 1"), "\(config.message)")
        let loop = try #require(causes.first { $0.id == .gatewayRestartLoop }, "\(causes.map(\.id))")
        #expect(loop.cause.contains("ciao") && loop.fix.contains("openclaw plugins disable bonjour"), "\(loop.fix)")
    }

    @Test("a unit that restarted and now runs is no loop; a loop without mDNS lines points at the journal")
    func restartsThatSettled() throws {
        let settled = GatewayService(show: "NRestarts=4\nActiveState=active\nSubState=running\n")
        #expect(!settled.looping)
        let (checks, _) = Self.diagnose(Self.gatewayHost(settled))
        #expect(checks.first { $0.id == .openclawConfig }?.reason != .restartLoop)
        let other = GatewayService(show: Self.crashLooping, journal: "Nov 26 gw node[1]: Error: EADDRINUSE 127.0.0.1:18789\n")
        let (looping, _) = Self.diagnose(Self.gatewayHost(other))
        #expect(looping.first { $0.id == .openclawConfig }?.fix?.contains("journalctl --user -u openclaw-gateway.service") == true)
    }

    @Test(
        "openclaw#72303 (recorded container markers): in a container nothing answers in local.: container-multicast, host networking",
        arguments: [
            ("/proc/1/environ (container=podman)", false), ("/proc/1/environ (container=lxc)", false), ("/.dockerenv", false),
            ("", true),
        ])
    func openclaw72303Containers(_ marker: String, _ wsl2: Bool) throws {
        var system = RecordedSystem()
        system.platformFacts = PlatformFacts(container: marker.isEmpty ? nil : marker, wsl2: wsl2)
        // On the bridge's default network, as `docker run` (and WSL2's NAT) puts it.
        system.networkInterfaces[1] = NetworkInterface(
            name: "eth0", addresses: [IPAddress("172.17.0.2")!], isUp: true, isLoopback: false, supportsMulticast: true)
        let (_, causes) = Self.diagnose(system)
        let cause = try #require(causes.first { $0.id == .containerMulticast }, "\(causes.map(\.id))")
        #expect(cause.cause.contains(wsl2 ? "WSL2" : marker), "\(cause.cause)")
        #expect(cause.fix.contains("--network host"), "\(cause.fix)")
        #expect(!causes.contains { $0.id == .multicastBlocked }, "one cause: \(causes.map(\.id))")

        // The same container with host networking (a LAN address): multicast may well reach the
        // LAN, and nothing in local. is the LAN's cause, not the container's.
        system.networkInterfaces[1] = NetworkInterface(
            name: "eth0", addresses: [IPAddress("192.168.1.20")!], isUp: true, isLoopback: false, supportsMulticast: true)
        #expect(Self.diagnose(system).1.map(\.id) == [.multicastBlocked])
    }

    @Test("container markers: PID 1's container= (LXC, podman), WSL2's kernel in /proc/version")
    func markers() {
        let environ = Array("PATH=/usr/bin\u{0}container=lxc\u{0}HOME=/root\u{0}".utf8)
        #expect(PlatformFacts.environMarker(environ) == "/proc/1/environ (container=lxc)")
        #expect(PlatformFacts.environMarker(Array("PATH=/bin\u{0}".utf8)) == nil)
        #expect(PlatformFacts.isWSL2(osRelease: "Linux version 5.15.167.4-microsoft-standard-WSL2 (root@...) (gcc ...)"))
    }
}
