import DNSClient
import DNSSD
import DNSUpdate
import DNSWire
import Testing

/// Plans that were not made from a read (a push's ledger, or nothing known) and the ledger a
/// plan leaves: what the prerequisites assert, and what the next push plans from.
extension ChangePlannerTests {
    func nothingKnown() -> ServedRecords {
        ServedRecords(zone: zone, server: server, serial: 7, source: .assumedEmpty, records: RecordStore())
    }

    func prerequisites(_ plan: UpdatePlan) -> [String] {
        plan.changeSets.flatMap(\.nsupdateLines).filter { $0.hasPrefix("prereq") }
    }

    @Test("a plan from nothing known asserts every RRset it fills is absent: PTR, SRV, TXT, the host's A and its AAAA too")
    func nothingKnownAssertsAbsence() throws {
        let plan = try ChangePlanner(zone: zone, service: service).publish(
            gateway("Studio", host: "studio", address: "100.64.0.1"), served: nothingKnown(), prune: true)
        #expect(
            Set(prerequisites(plan)) == [
                "prereq nxrrset _openclaw-gw._tcp.openclaw.internal. IN PTR",
                "prereq nxrrset Studio._openclaw-gw._tcp.openclaw.internal. IN SRV",
                "prereq nxrrset Studio._openclaw-gw._tcp.openclaw.internal. IN TXT",
                "prereq nxrrset studio.openclaw.internal. IN A",
                "prereq nxrrset studio.openclaw.internal. IN AAAA",
            ], "\(prerequisites(plan))")
        #expect(plan.changes.map(\.kind).contains(.added))
    }

    @Test("a read host whose A changes and that has no AAAA: the AAAA's absence is a prerequisite too (someone's AAAA fails the UPDATE)")
    func absentAddressAsserted() throws {
        let before = gateway("Studio", host: "studio", address: "100.64.0.1")
        let plan = try ChangePlanner(zone: zone, service: service).publish(
            gateway("Studio", host: "studio", address: "100.64.0.2"), served: served(before), prune: false)
        #expect(
            prerequisites(plan) == [
                "prereq yxrrset studio.openclaw.internal. IN A 100.64.0.1", "prereq nxrrset studio.openclaw.internal. IN AAAA",
            ], "\(prerequisites(plan))")
    }

    @Test("the ledger after a plan holds what it added, replaced and kept of the type, never the zone's other names")
    func ledgerAfterPlan() throws {
        let other = [
            DNSRecord(name: name("www"), type: .a, ttl: 60, data: .a(IPAddress("100.64.0.9")!)),
            DNSRecord(name: name("_ssh._tcp"), type: .ptr, ttl: 60, data: .ptr(name("box._ssh._tcp"))),
        ]
        let theirs = gateway("theirs", host: "box", address: "100.64.0.8")
        let read = served(gateway("old", host: "old", address: "100.64.0.2") + theirs + other)
        let wanted = gateway("new", host: "studio", address: "100.64.0.1") + theirs
        let plan = try ChangePlanner(zone: zone, service: service).publish(wanted, served: read, prune: true, keeping: [])
        let ledger = PushLedger(after: plan, over: read, desired: wanted, service: service, serial: 9)
        let kept = ledger.records.compactMap { $0.data.presentation }
        #expect(ledger.serial == 9 && ledger.zone == zone)
        #expect(Set(ledger.records.map { RRsetKey($0.name, $0.type) }).isSuperset(of: wanted.map { RRsetKey($0.name, $0.type) }))
        #expect(Set(ledger.records.map(\.data)) == Set(wanted.map(\.data)), "\(kept)")
        #expect(!ledger.records.contains { $0.name == name("www") || $0.name == name("old._openclaw-gw._tcp") }, "\(ledger.records)")
        let again = try ChangePlanner(zone: zone, service: service).publish(
            wanted, served: try ledger.served(by: server), prune: true, keeping: [])
        #expect(again.isEmpty, "the ledger is the zone as the plan left it: \(again.changeSets.map(\.nsupdateLines))")
    }

    @Test("a change planned from the ledger carries the ledger's values as its prerequisites; another writer's instance stays listed")
    func changeFromLedger() throws {
        let theirs = gateway("theirs", host: "box", address: "100.64.0.8")
        let mine = gateway("mine", host: "studio", address: "100.64.0.1")
        let first = try ChangePlanner(zone: zone, service: service).publish(mine, served: served(theirs), prune: false)
        let ledger = PushLedger(after: first, over: served(theirs), desired: mine, service: service, serial: 3)
        #expect(Set(ledger.records.map(\.data)).isSuperset(of: theirs.map(\.data)), "their instance and its host: \(ledger.records)")
        let moved = gateway("mine", host: "studio", address: "100.64.0.5")
        let plan = try ChangePlanner(zone: zone, service: service).publish(moved, served: try ledger.served(by: server), prune: false)
        #expect(
            prerequisites(plan) == [
                "prereq yxrrset studio.openclaw.internal. IN A 100.64.0.1", "prereq nxrrset studio.openclaw.internal. IN AAAA",
            ], "\(prerequisites(plan))")
        let pruned = try ChangePlanner(zone: zone, service: service).publish(moved, served: try ledger.served(by: server), prune: true)
        #expect(pruned.changes.contains(PlannedChange(name: name("theirs._openclaw-gw._tcp"), kind: .removed)))
    }
}
