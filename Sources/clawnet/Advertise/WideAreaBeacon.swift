import ArgumentParser
import DNSSD
import DNSUpdate
import DNSWire
import FoundationEssentials
import Host
import Output
import Synchronization
import Zones

/// `advertise --wide-area DOMAIN --server HOST[:PORT] [--tsig-key FILE]`: options.
struct WideAreaOptions: ParsableArguments {
    @Option(
        name: .customLong("wide-area"),
        help: ArgumentHelp(
            "Also register the beacon in this wide-area domain (RFC 2136 UPDATE on --server) while advertise runs.", valueName: "DOMAIN"),
        transform: Arguments.domain)
    var domain: DomainName?

    @Option(
        name: .customLong("server"), help: ArgumentHelp("With --wide-area: the domain's primary DNS server.", valueName: "HOST[:PORT]"),
        transform: Arguments.server)
    var server: DNSServer?

    @Option(
        name: .customLong("tsig-key"),
        help: ArgumentHelp("With --wide-area: TSIG key file (tsig-keygen or keymgr -t output).", valueName: "FILE"),
        transform: Arguments.tsigKey)
    var tsigKey: TSIGKey?

    @Option(
        name: .customLong("address"),
        help: ArgumentHelp(
            "With --wide-area: an address to publish for this host (repeatable; default: --bind, else the Tailscale addresses, else every "
                + "routable address).",
            valueName: "IP"), transform: Arguments.address)
    var addresses: [IPAddress] = []

    @Option(
        help: ArgumentHelp(
            "With --wide-area: how often to check the record is still there and put it back (default 30s).", valueName: "DURATION"),
        transform: Arguments.duration)
    var refresh: Duration?

    @Flag(name: .customLong("no-local"), help: "With --wide-area: do not advertise by mDNS in local.")
    var noLocal = false

    func validate() throws {
        guard domain != nil else {
            if server != nil || tsigKey != nil || !addresses.isEmpty || refresh != nil || noLocal {
                throw ValidationError("--server, --tsig-key, --address, --refresh and --no-local go with --wide-area")
            }
            return
        }
        guard server != nil else { throw ValidationError("--wide-area needs --server (the domain's primary DNS server)") }
    }
}

/// This host's beacon in a wide-area domain: registered at start, checked and put back every
/// `refresh`, withdrawn at exit. A crash leaves the record; `zone check --server` then finds
/// nothing listening on its port.
final class WideAreaBeacon: Sendable {
    let registration: ServiceRegistration
    let records: [DNSRecord]
    let instance: DNSName
    let displayName: String
    let domain: DomainName
    let terminal: Terminal
    private let refresher = LockedTask()

    init(options: WideAreaOptions, name: String, port: Int, txt: TXTRecord, bindAddress: String?, terminal: Terminal) throws {
        guard let domain = options.domain, let server = options.server else {
            throw ValidationError("--wide-area needs --server (the domain's primary DNS server)")
        }
        let key = options.tsigKey
        let host = ZoneGateway.label(HostName.label(of: HostName.current()) ?? "", fallback: HostName.fallback)
        let gateway = ZoneGateway(
            instance: try InstanceName(decoded: name), hostLabel: host, addresses: Self.addresses(options, bindAddress: bindAddress),
            port: port, txt: ZoneGateway.openClawOrder(txt.attributes))
        if gateway.addresses.isEmpty {
            terminal.err("note: no routable address for \(host) in \(domain.name): give --address IP")
        }
        records = try ZoneWriter.serviceRecords(ZoneContent(domain: domain, gateways: [gateway], nameServerAddresses: [])).records
        instance = try DNSName(instance: gateway.instance, type: .gateway, domain: domain)
        registration = ServiceRegistration(
            zone: try DNSName(instance: nil, type: nil, domain: domain),
            service: try DNSName(instance: nil, type: .gateway, domain: domain),
            server: server, key: key, timeout: .seconds(5))
        displayName = gateway.instance.displayName
        self.domain = domain
        self.terminal = terminal
    }

    /// --address, else the --bind address, else Tailscale's, else every routable one.
    static func addresses(_ options: WideAreaOptions, bindAddress: String?) -> [IPAddress] {
        if !options.addresses.isEmpty { return options.addresses }
        if let bound = bindAddress.flatMap(IPAddress.init), !ZoneGateway.routable([bound]).isEmpty { return [bound] }
        let interfaces = NetworkInterface.current()
        let tailscale = NetworkInterface.tailscaleAddresses(interfaces)
        return ZoneGateway.routable(tailscale.isEmpty ? interfaces.flatMap(\.addresses) : tailscale)
    }

    /// Registers the beacon; false when another host holds the name or the server says no.
    func register(refreshEvery interval: Duration) async -> Bool {
        do throws(UpdateFailure) {
            let served = try await registration.read(for: records, transfer: false)
            if let holder = served.rrset(instance, .srv).first, let ours = records.first(where: { $0.type == .srv }),
                case .srv(_, _, let port, let target) = holder.data, case .srv(_, _, let ourPort, let ourTarget) = ours.data,
                target != ourTarget || port != ourPort
            {
                terminal.error(
                    "\"\(displayName)\" is already registered in \(domain.name) for \(target):\(port)",
                    fix: "choose another --name, or remove that record")
                return false
            }
            try await apply(served, verb: "registered")
        } catch {
            terminal.error(error.message, fix: error.fix)
            return false
        }
        refresher.start { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { return }
                do throws(UpdateFailure) {
                    try await apply(try await registration.read(for: records, transfer: false), verb: "re-registered")
                } catch {
                    terminal.err("warning: refreshing \"\(displayName)\" in \(domain.name): \(error.message)")
                }
            }
        }
        return true
    }

    private func apply(_ served: ServedRecords, verb: String) async throws(UpdateFailure) {
        let plan = try registration.planner.publish(records, served: served, prune: false)
        guard !plan.isEmpty else {
            if verb == "registered" {
                terminal.out("registered \"\(displayName)\" in \(domain.name) at \(registration.server) (already there)")
            }
            return
        }
        let (_, failure) = await registration.send(plan)
        if let failure { throw failure }
        terminal.out("\(verb) \"\(displayName)\" in \(domain.name) at \(registration.server)")
    }

    /// Removes the beacon (its PTR, SRV, TXT; the host's addresses when nothing else uses them).
    func withdraw() async {
        refresher.cancel()
        do throws(UpdateFailure) {
            let served = try await registration.read(for: records)
            let plan = try registration.planner.withdraw([instance], served: served)
            if let failure = await registration.send(plan).failure { throw failure }
            terminal.out("withdrawn from \(domain.name): \(displayName)")
        } catch {
            terminal.error("could not withdraw \"\(displayName)\" from \(domain.name): \(error.message)", fix: error.fix)
        }
    }
}

/// A task that can be started once and cancelled from any thread.
private final class LockedTask: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func start(_ body: @escaping @Sendable () async -> Void) {
        task.withLock { $0 = Task(operation: body) }
    }

    func cancel() {
        task.withLock { $0?.cancel() }
    }
}
