import DNSSD
import DNSUpdate
import DNSWire
import Host
import Synchronization

/// This host's beacon in a wide-area domain while `advertise --domain` runs, through the
/// `Registrar`: registered at start, checked and put back every `refresh` while advertise runs
/// (`keptRegistered`), withdrawn at the end. The withdrawal takes out exactly what the
/// registration put in (`RegistrationLedger`, kept in a `LedgerFile` so that a restart after a
/// crash knows it too); a record that was in the zone before stays.
package final class WideAreaRegistration: Sendable {
    /// What happened, for the command to show.
    package enum Event: Sendable {
        /// The beacon has no address to publish for its host.
        case noAddress(host: String)
        /// Registered; `alreadyThere`: the server had it as it is.
        case registered(alreadyThere: Bool)
        /// A refresh found it changed or gone and put it back.
        case reRegistered
        /// The registration replaces records of its host (they are put back at the end).
        case replacing(host: DNSName, RRsetChange)
        case refreshFailed(UpdateFailure)
        /// The ledger could not be saved: a restart after a crash will not know what was added.
        case ledgerNotKept(path: String, error: String)
        /// The ledger file is not one this user alone could have written: neither adopted nor removed.
        case ledgerIgnored(reason: String)
        case withdrawn(Withdrawal)
    }

    /// How a withdrawal that the server accepted went.
    package enum Withdrawal: Sendable, Equatable {
        /// What the registration added is taken out.
        case taken
        /// Its records were in the zone before advertise ran: they stay.
        case wereThereBefore
        /// Nothing of what it added was left there.
        case nothingLeft
    }

    package let registrar: Registrar
    package let records: [DNSRecord]
    package let instance: DNSName
    package let gateway: ZoneGateway
    package let ledgerFile: LedgerFile
    private let observer: @Sendable (WideAreaRegistration, Event) -> Void
    private let ledger: Mutex<RegistrationLedger>

    package var displayName: String { gateway.instance.displayName }
    package var domain: DomainName { registrar.domain }

    /// `environment` decides where the ledger is kept (`LedgerFile`); `observer` hears every event.
    package init(
        registrar: Registrar, gateway: ZoneGateway, environment: [String: String],
        observer: @escaping @Sendable (WideAreaRegistration, Event) -> Void
    ) throws {
        self.registrar = registrar
        self.gateway = gateway
        self.observer = observer
        records = try registrar.records(for: [gateway]).records
        instance = try DNSName(instance: gateway.instance, type: .gateway, domain: registrar.domain)
        ledgerFile = LedgerFile(server: registrar.server, instance: instance, environment: environment)
        ledger = Mutex(RegistrationLedger(instance: instance))
    }

    private func onEvent(_ event: Event) {
        observer(self, event)
    }

    /// The addresses to publish for this host: those given, else the one the stand-in listens
    /// on (when routable), else the Tailscale addresses, else every routable one.
    package static func addresses(given: [IPAddress], bound: String?, interfaces: [NetworkInterface]) -> [IPAddress] {
        if !given.isEmpty { return given }
        if let bound = bound.flatMap(IPAddress.init), !ZoneGateway.routable([bound]).isEmpty { return [bound] }
        let tailscale = NetworkInterface.tailscaleAddresses(interfaces)
        return ZoneGateway.routable(tailscale.isEmpty ? interfaces.flatMap(\.addresses) : tailscale)
    }

    /// Registers the beacon. Throws when another host holds the name or the server says no.
    package func register() async throws {
        if gateway.addresses.isEmpty { onEvent(.noAddress(host: gateway.hostLabel)) }
        let served = try await registrar.read(for: records, transfer: false)
        if let holder = served.rrset(instance, .srv).first, Self.endpoint(holder) != ourEndpoint {
            throw ZoneError(.nameTaken(name: displayName, domain: domain, holder: Self.endpoint(holder)))
        }
        adopt(served)
        try await apply(served, first: true)
    }

    /// Runs `body` while a child task checks the registration every `interval` and puts it
    /// back. The checks stop (cancelled and awaited) before this returns, however `body` ends,
    /// so that no refresh lands after a withdrawal's read.
    package func keptRegistered<Value>(refreshEvery interval: Duration, during body: () async throws -> Value) async throws -> Value {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.refresh(every: interval) }
            defer { group.cancelAll() }
            return try await body()
        }
    }

    private func refresh(every interval: Duration) async {
        while (try? await Task.sleep(for: interval)) != nil {
            do throws(UpdateFailure) {
                try await apply(try await registrar.read(for: records, transfer: false), first: false)
            } catch {
                onEvent(.refreshFailed(error))
            }
        }
    }

    /// What an earlier run of this registration left (it crashed), as its ledger file says.
    /// Records that merely look like this registration's (the same instance, host and port,
    /// written by `zone push`) are not adopted: they were there before, and stay.
    private func adopt(_ served: ServedRecords) {
        do {
            guard let earlier = try ledgerFile.load(instance: instance) else { return }
            ledger.withLock { $0.adopt(earlier, from: served) }
        } catch {
            onEvent(.ledgerIgnored(reason: "\(error)"))
        }
    }

    private func apply(_ served: ServedRecords, first: Bool) async throws(UpdateFailure) {
        let plan = try registrar.registration.planner.publish(records, served: served, prune: false)
        guard !plan.isEmpty else {
            if first {
                save()
                onEvent(.registered(alreadyThere: true))
            }
            return
        }
        try refuseMovingOthers(plan, served: served)
        for change in plan.changes {
            guard case .host(let sets) = change.kind else { continue }
            for set in sets where !set.before.isEmpty { onEvent(.replacing(host: change.name, set)) }
        }
        if let failure = await registrar.send(plan).failure { throw failure }
        ledger.withLock { $0.note(records, over: served) }
        save()
        onEvent(first ? .registered(alreadyThere: false) : .reRegistered)
    }

    /// A host another Gateway's SRV points to keeps the addresses it has: replacing them would
    /// move that Gateway too, and a withdrawal could not tell whether to put them back.
    private func refuseMovingOthers(_ plan: UpdatePlan, served: ServedRecords) throws(UpdateFailure) {
        let ours = ledger.withLock { $0 }
        for change in plan.changes {
            guard case .host(let sets) = change.kind, ChangePlanner.pointedTo(change.name, byOtherThan: ours, in: served) else { continue }
            for set in sets where !Set(set.before).isSubset(of: Set(set.after)) {
                throw UpdateFailure(
                    .sharedHost,
                    "\(change.name) is the SRV target of another Gateway in \(served.zone), and this registration would change its "
                        + "\(set.type) (\(set)): that Gateway would move too",
                    fix: "give the address the host already has (--address), or advertise from a host whose name no other Gateway uses")
            }
        }
    }

    private func save() {
        do { try ledgerFile.save(ledger.withLock { $0 }) } catch {
            onEvent(.ledgerNotKept(path: ledgerFile.path, error: "\(error)"))
        }
    }

    /// Takes out what the registration put in (`RegistrationLedger`). Throws, naming the
    /// records that remain, when the server refuses it or does not answer.
    package func withdraw() async throws {
        let ledger = self.ledger.withLock { $0 }
        var remaining = ledger.added
        do throws(UpdateFailure) {
            let served = try await registrar.read(for: records)
            remaining = ledger.present(in: served)
            let plan = try registrar.registration.planner.withdraw(ledger, served: served)
            if let failure = await registrar.send(plan).failure { throw failure }
            ledgerFile.remove()
            onEvent(.withdrawn(ledger.added.isEmpty ? .wereThereBefore : plan.isEmpty ? .nothingLeft : .taken))
        } catch {
            throw ZoneError(
                .withdrawFailed(
                    name: displayName, domain: domain, failure: error, remaining: remaining.compactMap(LedgerFile.line),
                    ledger: ledgerFile.path))
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
