import Avahi
import DNSSD
import Discovery
import FoundationEssentials
import Glibc
import Host

/// What doctor reads about the machine. The live one looks at this machine; tests give
/// recorded facts to check the diagnosis rules one by one.
package protocol SystemInspector: Sendable {
    var busAddress: String { get }
    /// True or false for a `unix:path=` bus (does the socket exist), nil otherwise.
    func busSocketExists() -> Bool?
    /// A blocking D-Bus conversation: MachineFacts.gather, its caller, runs on BlockingThreads.
    func avahi() -> AvahiStatus
    /// Whether avahi-daemon's program is on this machine (AvahiDaemonProgram): install or start it.
    func avahiInstalled() -> Bool
    func interfaces() -> [NetworkInterface]
    /// Processes holding UDP port 5353 in this network namespace.
    func udp5353Holders() -> PortHolders
    /// The `hosts:` line of /etc/nsswitch.conf.
    func nsswitchHosts() -> String?
    /// The nss-mdns services whose library is installed (`mdns4_minimal`, ...); nil when not looked at.
    func nssMDNSModules() -> Set<String>?
    func resolvConf() -> ResolvConf
    /// True when /etc/resolv.conf belongs to systemd-resolved (its stub or its list).
    func usesSystemdResolved() -> Bool
    func config() -> OpenClawConfig
    /// The main routing table (where a Gateway's addresses are reachable from here).
    func routes() -> [Route]
    /// Container and WSL2 markers.
    func platform() -> PlatformFacts
    /// systemd-resolved's links, their DNS servers and domains; nil when it does not run or
    /// cannot be asked (see `LiveSystem.resolvedStatus`).
    func resolvedStatus() -> ResolvedStatus?
    /// What Tailscale Serve proxies on this machine (`tailscale serve status --json`); nil when
    /// it cannot be asked.
    func tailscaleServe() -> TailscaleServeStatus?
    /// The Gateway's systemd unit and its recent journal; nil where systemd does not run or
    /// cannot be asked.
    func gatewayService() -> GatewayService?
    /// The device identity files a node here would read (`NodeIdentities`).
    func nodeIdentities(asDevice: String?) -> [IdentityFile]
    /// Whether 127.0.0.1:`port` accepts a TCP connection (`LoopbackPort`); nil when not known.
    func loopbackAnswers(port: Int, within timeout: Duration) -> Bool?
}

extension SystemInspector {
    package func nodeIdentities(asDevice: String?) -> [IdentityFile] { [] }
    package func routes() -> [Route] { [] }
    package func platform() -> PlatformFacts { PlatformFacts() }
    package func nssMDNSModules() -> Set<String>? { nil }
    package func resolvedStatus() -> ResolvedStatus? { nil }
    package func tailscaleServe() -> TailscaleServeStatus? { nil }
    package func gatewayService() -> GatewayService? { nil }
    package func loopbackAnswers(port: Int, within timeout: Duration) -> Bool? { nil }
}

package struct PortHolders: Sendable, Equatable {
    package struct Holder: Sendable, Equatable {
        package let pid: Int32
        package let name: String
        package init(pid: Int32, name: String) {
            self.pid = pid
            self.name = name
        }
    }

    /// Sockets bound to the port (from /proc/net/udp and udp6).
    package let sockets: Int
    /// The processes found holding them (all of them only when running as root).
    package let holders: [Holder]

    package init(sockets: Int, holders: [Holder]) {
        self.sockets = sockets
        self.holders = holders
    }
}

/// The machine clawnet runs on.
package struct LiveSystem: SystemInspector {
    let configPath: String?
    let environment: [String: String]

    package init(configPath: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.configPath = configPath
        self.environment = environment
    }

    package var busAddress: String { SystemBus.address(environment: environment) }

    package func busSocketExists() -> Bool? {
        SystemBus.socketPath(of: busAddress).map { FileManager.default.fileExists(atPath: $0) }
    }

    package func avahi() -> AvahiStatus { AvahiStatus.blockingQuery() }

    package func avahiInstalled() -> Bool { AvahiDaemonProgram.isInstalled() }

    package func interfaces() -> [NetworkInterface] { NetworkInterface.current() }

    package func udp5353Holders() -> PortHolders {
        var inodes = Set<String>()
        for table in ["/proc/net/udp", "/proc/net/udp6"] {
            guard let text = RegularFile.text(table, limit: FileLimit.kernelTable) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count > 9, fields[1].hasSuffix(":14E9") else { continue }
                inodes.insert(String(fields[9]))
            }
        }
        var holders: [PortHolders.Holder] = []
        if !inodes.isEmpty, let pids = try? FileManager.default.contentsOfDirectory(atPath: "/proc") {
            for pid in pids.compactMap(Int32.init) {
                guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { continue }
                let owns = fds.contains { fd in
                    guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)") else {
                        return false
                    }
                    return target.hasPrefix("socket:[") && inodes.contains(String(target.dropFirst(8).dropLast()))
                }
                if owns {
                    let name = RegularFile.text("/proc/\(pid)/comm", limit: FileLimit.systemFile)?.trimmingSpaces() ?? "?"
                    holders.append(PortHolders.Holder(pid: pid, name: name))
                }
            }
        }
        return PortHolders(sockets: inodes.count, holders: holders.sorted { $0.pid < $1.pid })
    }

    package func nsswitchHosts() -> String? {
        guard let text = RegularFile.text("/etc/nsswitch.conf", limit: FileLimit.systemFile) else { return nil }
        return NSSwitchHosts.parse(file: text)?.line
    }

    package func nssMDNSModules() -> Set<String>? {
        NSSwitchHosts.installedMDNSModules(in: NSSwitchHosts.libraryDirectories())
    }

    package func resolvConf() -> ResolvConf { ResolvConf() }

    package func usesSystemdResolved() -> Bool {
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/resolv.conf")) ?? ""
        return target.contains("/run/systemd/resolve/") || resolvConf().servers.contains { $0.address == IPAddress("127.0.0.53") }
    }

    package func config() -> OpenClawConfig { OpenClawConfig.load(explicitPath: configPath, environment: environment) }

    package func routes() -> [Route] { RoutingTable.current() }

    package func loopbackAnswers(port: Int, within timeout: Duration) -> Bool? { LoopbackPort.answers(port, within: timeout) }

    package func platform() -> PlatformFacts {
        var facts = PlatformFacts()
        let fly =
            environment["FLY_MACHINE_ID"].map { !$0.trimmingSpaces().isEmpty } == true
            && environment["FLY_APP_NAME"].map { !$0.trimmingSpaces().isEmpty } == true
        if fly {
            facts.container = "FLY_MACHINE_ID and FLY_APP_NAME"
        } else if let file = ["/.dockerenv", "/run/.containerenv", "/var/run/.containerenv"].first(where: {
            FileManager.default.fileExists(atPath: $0)
        }) {
            facts.container = file
        } else if let cgroup = RegularFile.text("/proc/1/cgroup", limit: FileLimit.systemFile) {
            facts.container = PlatformFacts.cgroupMarker(cgroup)
        }
        if facts.container == nil, let environ = try? RegularFile.read("/proc/1/environ", limit: FileLimit.systemFile) {
            facts.container = PlatformFacts.environMarker(environ)
        }
        let release = RegularFile.text("/proc/sys/kernel/osrelease", limit: FileLimit.systemFile) ?? ""
        let version = RegularFile.text("/proc/version", limit: FileLimit.systemFile) ?? ""
        facts.wsl2 = PlatformFacts.isWSL2(osRelease: release) || PlatformFacts.isWSL2(osRelease: version)
        return facts
    }
}
