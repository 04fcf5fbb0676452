import DNSSD
import DNSUpdate
import DNSWire
import Zones

/// What `zone push` prints: what it read, what it changes, and how it went.
package enum ZonePushLines {
    /// What was read and what will change, or that nothing needs sending; BIND's limit when it
    /// is passed. All on stderr, like every command's status lines: stdout is a dry run's script.
    package static func plan(_ push: Registrar.Push, server: DNSServer, zone: DNSName) -> Transcript {
        var transcript = Transcript()
        transcript.err(lines: basis(push))
        guard !push.plan.isEmpty else {
            let serves = push.gateways == 1 ? "this Gateway as it is" : "these \(push.gateways) Gateways as they are"
            transcript.err("unchanged: \(server) serves \(serves); nothing sent")
            return transcript
        }
        transcript.err(lines: push.plan.changes.map(describe))
        if push.exceedsBINDLimit {
            transcript.notes([
                "\(push.instancesAfter) instances of \(ServiceType.gateway.name) in \(zone) after this push: BIND 9.18.28+ refuses more "
                    + "than \(ZoneWriter.bindRecordsPerType) records of one type at one name unless `max-records-per-type 0;` is set "
                    + "in its options"
            ])
        }
        return transcript
    }

    /// The UPDATE in nsupdate syntax on stdout, and what it holds on stderr.
    package static func dryRun(_ push: Registrar.Push, server: DNSServer, zone: DNSName, key: TSIGKey?) -> Transcript {
        var transcript = Transcript()
        let plan = push.plan
        transcript.out(linesOf: plan.nsupdateScript(server: server, zone: zone, key: key))
        transcript.err(
            "dry run: \(Plural.counted(plan.changes.count, "change")) in \(Plural.counted(plan.changeSets.count, "UPDATE")) "
                + "for \(zone), nothing sent")
        return transcript
    }

    package static func pushed(_ push: Registrar.Push, server: DNSServer, applied: Int) -> String {
        "pushed \(Plural.counted(push.plan.changes.count, "change")) to \(server) in \(Plural.counted(applied, "UPDATE"))"
    }

    /// What the plan was made from, and why the zone was read when it was.
    static func basis(_ push: Registrar.Push) -> [String] {
        let served = push.served
        switch served.source {
        case .ledger:
            return [
                "planned from the ledger of the last push of \(served.zone) to \(served.server) "
                    + "(serial \(served.serial.map(String.init) ?? "?"), which it still serves): nothing read"
            ]
        case .assumedEmpty:
            return [
                "no ledger of a push of \(served.zone) to \(served.server): planned without reading, on the prerequisites that none of "
                    + "these records is there yet"
            ]
        case .transfer, .queries, .queriesPastBound:
            return readBecause(push.readBecause, served: served) + [read(served)]
        }
    }

    static func readBecause(_ cause: Registrar.ReadCause?, served: ServedRecords) -> [String] {
        switch cause {
        case nil, .noLedger?: return []
        case .serialMoved(let ledger, let now)?:
            return ["\(served.zone) changed since the last push (serial \(ledger) then, \(now) now): reading it"]
        case .noSerial(let failure)?:
            return ["no serial to compare the ledger of the last push with (\(failure.message)): reading \(served.zone)"]
        case .prerequisiteFailed(let failure)?:
            return [
                "\(served.server) answered \(failure.rcode.map { "\($0)" } ?? "a failed prerequisite") to the UPDATE planned without "
                    + "reading: \(served.zone) is not as clawnet knew it; reading it"
            ]
        }
    }

    /// A ledger problem, as a warning.
    package static func ledger(_ problem: ZonePush.LedgerProblem) -> String {
        switch problem {
        case .ignored(let reason):
            return "warning: ignoring the ledger of the last push: \(reason); clawnet reads back only a file this user alone could have "
                + "written, and plans as for a first push"
        case .notKept(let path, let error):
            return "warning: cannot keep the ledger of this push in \(path) (\(error)): the next push reads the zone"
        }
    }

    static func read(_ served: ServedRecords) -> String {
        let serial = served.serial.map { "serial \($0), " } ?? ""
        switch served.source {
        case .transfer(let messages):
            return
                "read \(served.zone) from \(served.server) by AXFR (\(serial)\(Plural.counted(served.records.count, "record")) in "
                + "\(Plural.counted(messages, "message")))"
        case .queries(let refused):
            let why = refused.map { "AXFR refused (\($0)); " } ?? ""
            return
                "read \(served.zone) from \(served.server): \(why)asked the RRsets of the service type (\(serial)"
                + "\(Plural.counted(served.records.count, "record")))"
        case .queriesPastBound(let why):
            return
                "read \(served.zone) from \(served.server): \(why); asked the RRsets of the service type (\(serial)"
                + "\(Plural.counted(served.records.count, "record")))"
        case .ledger, .assumedEmpty:
            return "planned \(served.zone) for \(served.server) without reading it"
        }
    }

    static func describe(_ change: PlannedChange) -> String {
        let name = change.name.first.map { SafeText.display($0) } ?? "\(change.name)"
        // TXT strings the server held that this push does not write again (another writer's key,
        // a value it replaces): named, as a host's replaced addresses are.
        let values = change.txtRemoved.map { "\"\(SafeText.display($0))\"" }
        let removed = values.isEmpty ? "" : "; removes TXT " + values.joined(separator: ", ")
        switch change.kind {
        case .added: return "+ \(name)\(removed)"
        case .changed(let types): return "~ \(name): \(types.map(\.description).joined(separator: ", "))\(removed)"
        case .removed: return "- \(name)"
        case .host(let sets): return "~ host \(name): \(sets.map(\.description).joined(separator: "; "))"
        }
    }
}
