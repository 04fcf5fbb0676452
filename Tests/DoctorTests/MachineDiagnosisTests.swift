import Avahi
import DNSSD
import Discovery
import Host
import TestSupport
import Testing

@testable import Doctor

/// The machine checks and the diagnosis rules that read them, one recorded machine at a time.
@Suite("Machine checks and their diagnosis")
struct MachineDiagnosisTests {
    func diagnose(_ system: RecordedSystem, _ discovery: DiscoverySummary) -> ([Check], [Diagnosis]) {
        let facts = MachineFacts.gather(system)
        let checks = MachineChecks.run(facts, discovery: discovery)
        return (checks, DiagnosisRules.diagnose(MachineResult(checks: checks, facts: facts, discovery: discovery), gateways: []))
    }

    @Test("a healthy LAN machine with a Gateway in local.: every machine check passes or skips, no diagnosis")
    func healthy() {
        var system = RecordedSystem()
        system.openclaw.exists = true
        system.openclaw.bind = .lan
        let (checks, diagnosis) = diagnose(system, Recorded.discovery(beacons: [Recorded.beacon(txt: Recorded.tlsTXT)]))
        #expect(checks.allSatisfy { $0.status == .pass || $0.status == .skip }, "\(checks.filter { $0.status > .pass })")
        #expect(checks.status("mdns.browse") == .pass)
        #expect(checks["mdns.daemon"]?.detail["version"] == "avahi 0.8")
        #expect(diagnosis.isEmpty)
        #expect(checks.map(\.id) == CheckID.machine, "one check per catalog entry, in catalog order")
    }

    @Test("no D-Bus system bus: mdns.dbus fails, the daemon check is skipped, and the cause is no-mdns")
    func noBus() throws {
        var system = RecordedSystem()
        system.busExists = false
        let (checks, diagnosis) = diagnose(system, Recorded.discovery())
        #expect(checks.status("mdns.dbus") == .fail)
        #expect(checks["mdns.dbus"]?.fix?.contains("systemctl start dbus") == true)
        #expect(checks.status("mdns.daemon") == .skip)
        let cause = try #require(diagnosis.first)
        #expect(diagnosis.map(\.id) == ["no-mdns"])
        #expect(cause.cause.contains("no D-Bus system bus"))
        #expect(cause.fix.contains("systemctl start dbus"))
    }

    @Test("D-Bus but no avahi-daemon: mdns.daemon fails with Avahi's own fix; no-mdns; browse is skipped")
    func noDaemon() {
        var system = RecordedSystem()
        system.avahiStatus = .unavailable(DiscoveryIssue.noDaemon)
        let (checks, diagnosis) = diagnose(system, Recorded.discovery())
        #expect(checks.status("mdns.daemon") == .fail)
        #expect(checks.status("mdns.browse") == .skip)
        #expect(diagnosis.map(\.id) == ["no-mdns"])
        #expect(diagnosis.first?.fix.contains("sudo systemctl start avahi-daemon") == true, "\(diagnosis)")
    }

    /// One row per state of the mDNS stack: is the program installed, is the bus there, does the
    /// daemon answer; what mdns.daemon says and what no-mdns tells to do.
    static let daemonStates: [(installed: Bool, bus: Bool, running: Bool, reason: CheckReason?, fix: String?)] = [
        (true, true, true, .ok, nil),
        (true, true, false, .daemonUnavailable, "systemctl start avahi-daemon"),
        (false, true, false, .daemonNotInstalled, "apt install avahi-daemon"),
        (true, false, false, .needsBus, "systemctl start dbus"),
        (false, false, false, .needsBus, "apt install avahi-daemon"),
    ]

    @Test("install avahi-daemon when it is not installed, start it only when it is installed and not running", arguments: daemonStates)
    func daemonInstallOrStart(_ row: (installed: Bool, bus: Bool, running: Bool, reason: CheckReason?, fix: String?)) {
        var system = RecordedSystem()
        system.avahiProgram = row.installed
        system.busExists = row.bus
        // Avahi's own fix is a start line whatever the machine: doctor must not repeat it blindly.
        if !row.running {
            system.avahiStatus = .unavailable(DiscoveryIssue.noDaemon)
        }
        let (checks, diagnosis) = diagnose(system, Recorded.discovery())
        #expect(checks["mdns.daemon"]?.reason == row.reason, "mdns.daemon: \(String(describing: checks["mdns.daemon"]))")
        guard let fix = row.fix else {
            #expect(!diagnosis.map(\.id).contains("no-mdns"), "\(diagnosis)")
            return
        }
        #expect(diagnosis.map(\.id) == ["no-mdns"], "\(diagnosis)")
        #expect(diagnosis.first?.fix.contains(fix) == true, "fix: \(diagnosis.first?.fix ?? "none")")
        if !row.installed {
            #expect(diagnosis.first?.fix.contains("systemctl start avahi-daemon") == false, "fix: \(diagnosis.first?.fix ?? "none")")
            #expect(diagnosis.first?.cause.contains("not installed") == true, "cause: \(diagnosis.first?.cause ?? "none")")
        }
        if row.reason == .daemonNotInstalled {
            #expect(checks["mdns.daemon"]?.fix?.contains("apt install avahi-daemon") == true)
            #expect(checks["mdns.daemon"]?.message.contains("not installed") == true)
        }
    }

    @Test("mdns.dbus's own fix: start the bus when avahi-daemon is installed; install it first when it is not", arguments: daemonStates)
    func busFixInOrder(_ row: (installed: Bool, bus: Bool, running: Bool, reason: CheckReason?, fix: String?)) throws {
        var system = RecordedSystem()
        system.avahiProgram = row.installed
        system.busExists = row.bus
        let (checks, _) = diagnose(system, Recorded.discovery())
        let bus = try #require(checks["mdns.dbus"], "no mdns.dbus check")
        guard !row.bus else {
            #expect(bus.fix == nil, "a bus that is there needs no fix: \(bus)")
            return
        }
        let fix = try #require(bus.fix, "a missing bus has a fix: \(bus)")
        let start = try #require(fix.firstRange(of: "systemctl start dbus"), "the fix starts the bus: \(fix)")
        if row.installed {
            #expect(!fix.contains("apt install"), "avahi-daemon is installed: \(fix)")
        } else {
            let install = try #require(fix.firstRange(of: "apt install avahi-daemon"), "the fix installs avahi-daemon: \(fix)")
            #expect(install.lowerBound < start.lowerBound, "install comes before starting the bus: \(fix)")
            #expect(fix.contains("enable --now avahi-daemon"), "and the daemon is started: \(fix)")
            #expect(bus.message.contains("not installed"), "\(bus.message)")
        }
    }

    @Test("Avahi runs on a multicast interface and nothing answers in local.: multicast-blocked, with the advertise test as fix")
    func multicastBlocked() {
        let (checks, diagnosis) = diagnose(RecordedSystem(), Recorded.discovery())
        #expect(checks.status("mdns.browse") == .warn)
        #expect(diagnosis.map(\.id) == ["multicast-blocked"])
        #expect(diagnosis.first?.cause.contains("eth0") == true)
        #expect(diagnosis.first?.fix.contains("clawnet advertise") == true)
        #expect(diagnosis.first?.fix.contains("5353") == true)
    }

    @Test("nothing in local., but the Gateway's host answers mDNS: gateway-not-advertising, not multicast-blocked")
    func notAdvertising() throws {
        let host = HostAnswer(
            address: IPAddress("192.168.1.30")!, gateway: "wss://studio.openclaw.internal.:18789", answer: .name("studio.local"))
        var discovery = Recorded.discovery(domains: [Recorded.domain], beacons: [Recorded.beacon(source: .unicast, txt: Recorded.tlsTXT)])
        discovery.hostAnswers = [host]
        let (checks, diagnosis) = diagnose(RecordedSystem(), discovery)
        #expect(checks.status("mdns.browse") == .warn)
        #expect(checks["mdns.browse"]?.message.contains("192.168.1.30 is studio.local") == true)
        #expect(diagnosis.map(\.id) == ["gateway-not-advertising"])
        let cause = try #require(diagnosis.first)
        #expect(cause.cause.contains("multicast crosses the network"))
        #expect(cause.fix.contains("clawnet advertise"))
    }

    @Test("nothing in local., and the Gateway's host is silent on mDNS too: multicast-blocked names the host")
    func hostSilent() throws {
        var discovery = Recorded.discovery(domains: [Recorded.domain], beacons: [Recorded.beacon(source: .unicast, txt: Recorded.tlsTXT)])
        discovery.hostAnswers = [
            HostAnswer(address: IPAddress("192.168.1.30")!, gateway: "wss://studio.openclaw.internal.:18789", answer: .noAnswer),
            HostAnswer(address: IPAddress("fd00::30")!, gateway: "wss://studio.openclaw.internal.:18789", answer: .noAnswer),
        ]
        let (checks, diagnosis) = diagnose(RecordedSystem(), discovery)
        #expect(
            checks["mdns.browse"]?.message.contains("192.168.1.30, fd00::30 (Gateway wss://studio.openclaw.internal.:18789) do not answer")
                == true)
        #expect(diagnosis.map(\.id) == ["multicast-blocked"])
        let cause = try #require(diagnosis.first)
        #expect(cause.cause.contains("lives at 192.168.1.30"))
        #expect(cause.fix.contains("5353"))
    }

    @Test("a Gateway found only by DNS-SD still means nothing in local. (multicast-blocked); --no-local means no such claim")
    func onlyWideArea() {
        let unicast = Recorded.discovery(domains: [Recorded.domain], beacons: [Recorded.beacon(source: .unicast, txt: Recorded.tlsTXT)])
        #expect(diagnose(RecordedSystem(), unicast).1.map(\.id) == ["multicast-blocked"])
        let noLocal = Recorded.discovery(
            local: false, domains: [Recorded.domain], beacons: [Recorded.beacon(source: .unicast, txt: Recorded.tlsTXT)])
        let (checks, diagnosis) = diagnose(RecordedSystem(), noLocal)
        #expect(checks.status("mdns.browse") == .skip)
        #expect(diagnosis.isEmpty)
    }

    @Test("only loopback and a tunnel: mdns.interfaces fails, and no multicast-blocked guess on top")
    func noMulticastInterface() {
        var system = RecordedSystem()
        system.networkInterfaces = [
            NetworkInterface(name: "lo", addresses: [IPAddress("127.0.0.1")!], isUp: true, isLoopback: true, supportsMulticast: false),
            NetworkInterface(
                name: "tailscale0", addresses: [IPAddress("100.101.102.5")!], isUp: true, isLoopback: false, supportsMulticast: true),
        ]
        let (checks, diagnosis) = diagnose(system, Recorded.discovery())
        #expect(checks.status("mdns.interfaces") == .fail)
        #expect(checks["mdns.interfaces"]?.fix?.contains("wide-area") == true)
        #expect(!diagnosis.contains { $0.id == "multicast-blocked" })
        #expect(checks.status("tailscale.interface") == .pass)
    }

    @Test("a second responder on UDP 5353 besides avahi-daemon: warning and the two-mdns-stacks cause")
    func twoStacks() {
        var system = RecordedSystem()
        system.holders = PortHolders(
            sockets: 3, holders: [.init(pid: 410, name: "avahi-daemon"), .init(pid: 977, name: "openclaw-gatewa")])
        let (checks, diagnosis) = diagnose(system, Recorded.discovery(beacons: [Recorded.beacon(txt: Recorded.tlsTXT)]))
        #expect(checks.status("mdns.port5353") == .warn)
        #expect(checks["mdns.port5353"]?.message.contains("openclaw-gatewa (pid 977)") == true)
        #expect(diagnosis.map(\.id) == ["two-mdns-stacks"])
    }

    @Test("nss-mdns missing from the hosts line: a warning with the package to install")
    func nss() {
        var system = RecordedSystem()
        system.hostsLine = "hosts: files dns"
        let (checks, _) = diagnose(system, Recorded.discovery(beacons: [Recorded.beacon()]))
        #expect(checks.status("mdns.nss") == .warn)
        #expect(checks["mdns.nss"]?.fix?.contains("libnss-mdns") == true)
    }

    static let nssCases: [(String, String?, Set<String>?, Check.Status, CheckReason, String?)] = [
        ("asked and installed", "hosts: files mdns4_minimal [NOTFOUND=return] dns", ["mdns4_minimal"], .pass, .ok, nil),
        ("not asked", "hosts: files dns", ["mdns4_minimal"], .warn, .nssMdnsMissing, "libnss-mdns"),
        ("only in a comment", "hosts: files dns # mdns4_minimal", ["mdns4_minimal"], .warn, .nssMdnsMissing, "libnss-mdns"),
        ("asked, not installed", "hosts: files mdns4_minimal dns", [], .warn, .nssModuleMissing, "libnss_mdns4_minimal.so.2"),
        (
            "asked, another installed", "hosts: files mdns_minimal dns", ["mdns4_minimal"], .warn, .nssModuleMissing,
            "libnss_mdns_minimal.so.2"
        ),
        ("asked, libraries not looked at", "hosts: files mdns dns", nil, .pass, .ok, nil),
        ("no hosts line", nil, ["mdns4_minimal"], .warn, .nsswitchMissing, "libnss-mdns"),
    ]

    @Test("mdns.nss: the hosts line must ask mDNS and the module it asks must be installed", arguments: nssCases)
    func nssTable(name: String, line: String?, installed: Set<String>?, status: Check.Status, reason: CheckReason, fixNames: String?) {
        var system = RecordedSystem()
        system.hostsLine = line
        system.mdnsModules = installed
        let check = MachineChecks.nss(MachineFacts.gather(system))
        #expect(check.status == status && check.reason == reason, "\(name): \(check.status) \(check.reason) \(check.message)")
        if let fixNames { #expect(check.fix?.contains(fixNames) == true, "\(name): fix \(check.fix ?? "none")") }
        #expect(MachineFacts.gather(system).nssMdns == (status == .pass), "\(name): .local names resolve only when mdns.nss passes")
    }

    @Test("the domain answers only at 100.100.100.100: dns.widearea fails and the cause is split-dns")
    func splitDNS() {
        let issue = DiscoveryIssue(
            source: .unicast, kind: .splitDNS, .splitDNS(tailscale: "100.100.100.100", system: ["192.168.1.1#53"]),
            domain: "openclaw.internal.")
        var beacon = Recorded.beacon(source: .unicast, txt: Recorded.tlsTXT)
        beacon.resolvers = ["100.100.100.100#53"]
        let (checks, diagnosis) = diagnose(
            RecordedSystem(), Recorded.discovery(local: false, domains: [Recorded.domain], beacons: [beacon], issues: [issue]))
        #expect(checks.status("dns.widearea") == .fail)
        #expect(diagnosis.map(\.id) == ["split-dns"])
        #expect(diagnosis.first?.fix.contains("accept-dns") == true)
    }

    @Test("wide-area: found (with the resolver that answered), a DNS error, nothing published, no domain")
    func wideArea() {
        var beacon = Recorded.beacon(source: .unicast, txt: Recorded.tlsTXT)
        beacon.resolvers = ["127.0.0.1#5300"]
        let found = MachineChecks.wideArea(
            MachineFacts.gather(RecordedSystem()), Recorded.discovery(domains: [Recorded.domain], beacons: [beacon]))
        #expect(found.map(\.status) == [.pass])
        #expect(found.first?.message.contains("via 127.0.0.1#5300") == true)

        let nx = DiscoveryIssue(
            source: .unicast, kind: .dnsError,
            .ptrUnanswered(
                service: "_openclaw-gw._tcp.openclaw.internal.", type: "_openclaw-gw._tcp", explanation: "NXDOMAIN from 127.0.0.1#53",
                answer: .failed(fix: "publish the zone")),
            domain: "openclaw.internal.")
        let failing = MachineChecks.wideArea(
            MachineFacts.gather(RecordedSystem()), Recorded.discovery(domains: [Recorded.domain], issues: [nx]))
        #expect(failing.map(\.status) == [.fail])
        #expect(failing.first?.fix == "publish the zone")

        let empty = MachineChecks.wideArea(MachineFacts.gather(RecordedSystem()), Recorded.discovery(domains: [Recorded.domain]))
        #expect(empty.map(\.status) == [.warn])
        #expect(empty.first?.fix?.contains("clawnet zone generate --domain openclaw.internal") == true)
        #expect(empty.first?.fix?.contains("dig SOA openclaw.internal") == true, "a wrong --domain is checked: \(empty.first?.fix ?? "")")

        #expect(MachineChecks.wideArea(MachineFacts.gather(RecordedSystem()), Recorded.discovery()).map(\.status) == [.skip])
    }

    @Test("OpenClaw config: absent skips; loopback bind (explicit or default) warns; lan passes; a broken file warns")
    func config() {
        var config = OpenClawConfig(path: "/home/op/.openclaw/openclaw.json")
        #expect(MachineChecks.config(config).status == .skip)
        config.exists = true
        let byDefault = MachineChecks.config(config)
        #expect(byDefault.status == .warn)
        #expect(byDefault.message.contains("loopback by default"))
        #expect(byDefault.fix?.contains("gateway.bind") == true)
        config.bind = .loopback
        #expect(MachineChecks.config(config).status == .warn)
        config.bind = .lan
        #expect(MachineChecks.config(config).status == .pass)
        config.warnings = ["/home/op/.openclaw/openclaw.json: not valid JSON5 (line 3)"]
        let broken = MachineChecks.config(config)
        #expect(broken.status == .warn)
        #expect(broken.message.contains("line 3"))
    }

    @Test("resolver: a missing resolv.conf and bad nameserver lines are warnings that name the file")
    func resolver() {
        var system = RecordedSystem()
        system.resolv = ResolvConf(path: "/etc/resolv.conf", text: nil)
        #expect(MachineChecks.resolver(MachineFacts.gather(system)).status == .warn)
        system.resolv = ResolvConf(path: "/etc/resolv.conf", text: "nameserver not-an-address\nnameserver 192.168.1.1\n")
        let bad = MachineChecks.resolver(MachineFacts.gather(system))
        #expect(bad.status == .warn)
        #expect(bad.fix?.contains("/etc/resolv.conf") == true)
    }

    @Test("every warn and fail carries a fix, whatever the machine", arguments: 0..<4)
    func fixesEverywhere(variant: Int) {
        var system = RecordedSystem()
        switch variant {
        case 0: system.busExists = false
        case 1: system.avahiStatus = .unavailable(DiscoveryIssue.noDaemon)
        case 2:
            system.networkInterfaces = []
            system.hostsLine = nil
            system.resolv = ResolvConf(path: "/etc/resolv.conf", text: nil)
        default:
            system.openclaw.exists = true
            system.openclaw.warnings = ["bad"]
            system.holders = PortHolders(sockets: 1, holders: [.init(pid: 1, name: "mdnsd")])
        }
        let (checks, diagnosis) = diagnose(system, Recorded.discovery(domains: [Recorded.domain]))
        for check in checks where check.status == .warn || check.status == .fail {
            #expect(check.fix?.isEmpty == false, "\(check.id) has no fix")
        }
        #expect(diagnosis.allSatisfy { !$0.fix.isEmpty })
    }
}
