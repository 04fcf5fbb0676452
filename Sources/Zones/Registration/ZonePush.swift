import DNSSD
import DNSUpdate
import DNSWire

/// `zone push` of one zone: it plans from what it knows, and reads the zone only when what it
/// knows may be wrong.
///
/// 1. It asks the zone's SOA serial. With a ledger of its last push written at that serial
///    (`PushLedgerFile`), nothing has changed since: it plans from the ledger. With no ledger
///    it plans as if none of the records were there (the UPDATE's prerequisites say so: the
///    PTR, SRV, TXT, A and AAAA RRsets it fills do not exist). Otherwise (the serial moved, no
///    SOA answer, or a dry run without a ledger) it reads the zone, as it always did.
/// 2. It sends the plan: UPDATEs whose prerequisites say every RRset they change is what the
///    plan was made from. When one of a plan that was not read fails (YXRRSET, NXRRSET,
///    YXDOMAIN, NXDOMAIN), it reads the zone, plans again, and sends that.
/// 3. It keeps the ledger of the zone as the plan left it, at the serial the plan was made at
///    plus one per UPDATE applied: what the server serves unless someone else changed the zone
///    in between (or the server moves serials by more), and then the next push reads.
package struct ZonePush: Sendable {
    package let registrar: Registrar
    package let records: [DNSRecord]
    package let keeping: Set<DNSName>
    /// Where the ledger is kept; nil: none is (every push plans as a first push, or reads).
    package let ledgerFile: PushLedgerFile?

    package init(registrar: Registrar, records: [DNSRecord], keeping: Set<DNSName>, ledgerFile: PushLedgerFile?) {
        self.registrar = registrar
        self.records = records
        self.keeping = keeping
        self.ledgerFile = ledgerFile
    }

    /// How the zone went: the push that was (or, in a dry run, would be) sent, the UPDATEs
    /// applied, the failure that stopped it (which says how many were applied before it).
    package struct Outcome: Sendable {
        package var push: Registrar.Push?
        package var applied = 0
        package var failure: UpdateFailure?
        package var ledgerProblems: [LedgerProblem] = []
    }

    package enum LedgerProblem: Sendable, Equatable {
        /// The ledger file is not one this user alone could have written: not used.
        case ignored(reason: String)
        /// The ledger could not be written: the next push reads the zone.
        case notKept(path: String, error: String)
    }

    /// Plans and, unless `send` is false (a dry run), sends; see the type's steps.
    package func run(prune: Bool, send: Bool, until deadline: ContinuousClock.Instant) async -> Outcome {
        var outcome = Outcome()
        do throws(UpdateFailure) {
            var push = try await plan(prune: prune, send: send, until: deadline, problems: &outcome.ledgerProblems)
            outcome.push = push
            guard send else { return outcome }
            var (applied, failure) = await self.send(push, until: deadline)
            if let refused = failure, refused.reason == .prerequisiteFailed, !push.served.wasRead {
                outcome.applied = applied
                push = try await read(prune: prune, because: .prerequisiteFailed(refused), until: deadline)
                outcome.push = push
                (applied, failure) = await self.send(push, until: deadline)
            }
            outcome.applied += applied
            if let failure { throw registrar.failure(failure, applied: applied, of: push.plan.changeSets.count) }
            if let problem = keepLedger(push, applied: applied) { outcome.ledgerProblems.append(problem) }
        } catch {
            outcome.failure = error
        }
        return outcome
    }

    /// Sends the push's UPDATEs (none when its plan is empty).
    package func send(_ push: Registrar.Push, until deadline: ContinuousClock.Instant) async -> (applied: Int, failure: UpdateFailure?) {
        push.plan.isEmpty ? (0, nil) : await registrar.send(push.plan, until: deadline)
    }

    /// The plan from the ledger, from nothing known, or from a read (step 1).
    package func plan(prune: Bool, send: Bool, until deadline: ContinuousClock.Instant, problems: inout [LedgerProblem])
        async throws(UpdateFailure) -> Registrar.Push
    {
        let serial: UInt32
        do { serial = try await registrar.serial(until: deadline) } catch {
            return try await read(prune: prune, because: .noSerial(error), until: deadline)
        }
        var ledger: PushLedger?
        do { ledger = try ledgerFile?.load() } catch { problems.append(.ignored(reason: "\(error)")) }
        if let ledger, let known = try? ledger.served(by: registrar.server) {
            guard ledger.serial == serial else {
                return try await read(prune: prune, because: .serialMoved(ledger: ledger.serial, served: serial), until: deadline)
            }
            return try registrar.planPush(records, served: known, prune: prune, keeping: keeping, readBecause: nil)
        }
        guard send else { return try await read(prune: prune, because: .noLedger, until: deadline) }
        let nothing = ServedRecords(
            zone: registrar.zone, server: registrar.server, serial: serial, source: .assumedEmpty, records: RecordStore())
        return try registrar.planPush(records, served: nothing, prune: prune, keeping: keeping, readBecause: nil)
    }

    /// The plan from the zone as read now, and why it was read.
    package func read(prune: Bool, because cause: Registrar.ReadCause, until deadline: ContinuousClock.Instant)
        async throws(UpdateFailure) -> Registrar.Push
    {
        let served = try await registrar.read(for: records, until: deadline)
        return try registrar.planPush(records, served: served, prune: prune, keeping: keeping, readBecause: cause)
    }

    /// Step 3: the ledger of the zone as the push left it, at the serial the server serves once
    /// its UPDATEs are applied if no one else changed the zone since the plan was made (each
    /// UPDATE moves the serial up by one; another change moves it further, and the next push
    /// finds a serial other than the ledger's and reads). A plan from the ledger that sent
    /// nothing leaves it as it is.
    package func keepLedger(_ push: Registrar.Push, applied: Int) -> LedgerProblem? {
        guard let ledgerFile, push.served.wasRead || applied > 0, let basis = push.served.serial else { return nil }
        let serial = basis &+ UInt32(applied)
        do {
            try ledgerFile.save(
                PushLedger(after: push.plan, over: push.served, desired: records, service: registrar.service, serial: serial))
        } catch {
            return .notKept(path: ledgerFile.path, error: "\(error)")
        }
        return nil
    }
}
