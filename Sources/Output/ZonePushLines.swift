import DNSSD
import DNSUpdate
import DNSWire
import Zones

/// What `zone push` prints: what it read, what it changes, and how it went.
public enum ZonePushLines {
    /// What was read and what will change (on stdout; on stderr for a dry run, whose stdout is
    /// the nsupdate script), or that nothing needs sending; BIND's limit when it is passed.
    public static func plan(_ push: Registrar.Push, server: DNSServer, zone: DNSName, dryRun: Bool) -> Transcript {
        var transcript = Transcript()
        let report: (inout Transcript, [String]) -> Void = dryRun ? { $0.err(lines: $1) } : { $0.out(lines: $1) }
        report(&transcript, [read(push.served)])
        guard !push.plan.isEmpty else {
            transcript.out(
                "unchanged: \(server) serves these \(push.gateways) Gateway\(push.gateways == 1 ? "" : "s") as they are; nothing sent")
            return transcript
        }
        report(&transcript, push.plan.changes.map(describe))
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
    public static func dryRun(_ push: Registrar.Push, server: DNSServer, zone: DNSName, key: TSIGKey?) -> Transcript {
        var transcript = Transcript()
        let plan = push.plan
        transcript.out(linesOf: plan.nsupdateScript(server: server, zone: zone, key: key))
        transcript.err(
            "dry run: \(plan.changes.count) change\(plan.changes.count == 1 ? "" : "s") in \(plan.changeSets.count) "
                + "UPDATE\(plan.changeSets.count == 1 ? "" : "s"), nothing sent")
        return transcript
    }

    public static func pushed(_ push: Registrar.Push, server: DNSServer, applied: Int) -> String {
        let changes = push.plan.changes.count
        return "pushed \(changes) change\(changes == 1 ? "" : "s") to \(server) in \(applied) UPDATE\(applied == 1 ? "" : "s")"
    }

    static func read(_ served: ServedRecords) -> String {
        let serial = served.serial.map { "serial \($0), " } ?? ""
        switch served.source {
        case .transfer(let messages):
            return
                "read \(served.zone) from \(served.server) by AXFR (\(serial)\(served.records.count) records in \(messages) "
                + "message\(messages == 1 ? "" : "s"))"
        case .queries(let refused):
            let why = refused.map { "AXFR refused (\($0)); " } ?? ""
            return
                "read \(served.zone) from \(served.server): \(why)asked the RRsets of the service type (\(serial)\(served.records.count) "
                + "records)"
        case .queriesPastBound(let why):
            return
                "read \(served.zone) from \(served.server): \(why); asked the RRsets of the service type (\(serial)"
                + "\(served.records.count) records)"
        }
    }

    static func describe(_ change: PlannedChange) -> String {
        let name = change.name.first.map { SafeText.display($0) } ?? "\(change.name)"
        switch change.kind {
        case .added: return "+ \(name)"
        case .changed(let types): return "~ \(name): \(types.map(\.description).joined(separator: ", "))"
        case .removed: return "- \(name)"
        case .host(let sets): return "~ host \(name): \(sets.map(\.description).joined(separator: "; "))"
        }
    }
}
