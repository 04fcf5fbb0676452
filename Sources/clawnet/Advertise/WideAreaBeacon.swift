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
/// `refresh`, withdrawn at exit. The withdrawal takes out exactly what the registration put in
/// (`RegistrationLedger`, kept in a `LedgerFile` so that a restart after a crash knows it too);
/// a record that was in the zone before stays.
final class WideAreaBeacon: Sendable {
    let registration: ServiceRegistration
    let records: [DNSRecord]
    let instance: DNSName
    let displayName: String
    let domain: DomainName
    let terminal: Terminal
    let ledgerFile: LedgerFile
    private let ledger: Mutex<RegistrationLedger>
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
        ledgerFile = LedgerFile(server: server, instance: instance, environment: ProcessInfo.processInfo.environment)
        ledger = Mutex(RegistrationLedger(instance: instance))
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
            if let holder = served.rrset(instance, .srv).first, Self.endpoint(holder) != ourEndpoint {
                terminal.error(
                    "\"\(displayName)\" is already registered in \(domain.name) for \(Self.endpoint(holder))",
                    fix: "choose another --name, or remove that record")
                return false
            }
            adopt(served)
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

    /// What an earlier run of this registration left (it crashed), as its ledger file says.
    /// Records that merely look like this registration's (the same instance, host and port,
    /// written by `zone push`) are not adopted: they were there before, and stay.
    private func adopt(_ served: ServedRecords) {
        guard let earlier = ledgerFile.load(instance: instance) else { return }
        ledger.withLock { $0.adopt(earlier, from: served) }
    }

    private func apply(_ served: ServedRecords, verb: String) async throws(UpdateFailure) {
        let plan = try registration.planner.publish(records, served: served, prune: false)
        guard !plan.isEmpty else {
            if verb == "registered" {
                save()
                terminal.out("registered \"\(displayName)\" in \(domain.name) at \(registration.server) (already there)")
            }
            return
        }
        for change in plan.changes {
            guard case .host(let sets) = change.kind else { continue }
            for set in sets where !set.before.isEmpty {
                terminal.err("note: host \(change.name) \(set) (put back when advertise stops)")
            }
        }
        let (_, failure) = await registration.send(plan)
        if let failure { throw failure }
        ledger.withLock { $0.note(records, over: served) }
        save()
        terminal.out("\(verb) \"\(displayName)\" in \(domain.name) at \(registration.server)")
    }

    private func save() {
        do { try ledgerFile.save(ledger.withLock { $0 }) } catch {
            terminal.err(
                "warning: cannot keep what was registered in \(ledgerFile.path) (\(error)): after a crash, a restart will not know "
                    + "which of the host's records this run added, and leaves them")
        }
    }

    /// Takes out what the registration put in (`RegistrationLedger`); true when the server
    /// accepted that (or nothing of it was left). Otherwise says which records remain.
    func withdraw() async -> Bool {
        await refresher.stop()
        let ledger = self.ledger.withLock { $0 }
        var remaining = ledger.added
        do throws(UpdateFailure) {
            let served = try await registration.read(for: records)
            remaining = ledger.present(in: served)
            let plan = try registration.planner.withdraw(ledger, served: served)
            if let failure = await registration.send(plan).failure { throw failure }
            ledgerFile.remove()
            let why =
                ledger.added.isEmpty
                ? " (its records were there before advertise ran: they stay)"
                : plan.isEmpty ? " (nothing of what it added was left there)" : ""
            terminal.out("withdrawn from \(domain.name): \(displayName)\(why)")
            return true
        } catch {
            let left = remaining.compactMap(LedgerFile.line).joined(separator: "; ")
            terminal.error(
                "could not withdraw \"\(displayName)\" from \(domain.name): \(error.message); still there: "
                    + (left.isEmpty ? "nothing known" : left),
                fix: (error.fix.map { "\($0); " } ?? "")
                    + "or run the same advertise again and stop it: it adopts them and withdraws them (\(ledgerFile.path) lists them)")
            return false
        }
    }

    /// The SRV's target and port: an instance whose SRV names this host and port is this
    /// registration's (an earlier run of it), whatever its priority and weight.
    private var ourEndpoint: String {
        records.first { $0.type == .srv }.map(Self.endpoint) ?? ""
    }

    private static func endpoint(_ record: DNSRecord) -> String {
        guard case .srv(_, _, let port, let target) = record.data else { return "\(record.name)" }
        return "\(target):\(port)"
    }
}

/// A task that can be started once, and stopped (cancelled and awaited) from any thread.
private final class LockedTask: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func start(_ body: @escaping @Sendable () async -> Void) {
        task.withLock { $0 = Task(operation: body) }
    }

    /// Cancels the task and waits for it, so that no refresh lands after a withdrawal's read.
    func stop() async {
        let running = task.withLock { $0 }
        running?.cancel()
        await running?.value
    }
}
