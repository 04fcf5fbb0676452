import DNSClient
import DNSSD
import DNSUpdate
import DNSWire
import Testing

/// The planner on recorded zone contents: what it changes, and what it must never touch.
@Suite("Change planning")
struct ChangePlannerTests {
    let zone = try! DNSName(presentation: "openclaw.internal.")
    let service = try! DNSName(presentation: "_openclaw-gw._tcp.openclaw.internal.")
    let server = DNSServer(address: IPAddress("127.0.0.1")!, port: 53)

    func name(_ text: String) -> DNSName { try! DNSName(presentation: text + ".openclaw.internal.") }

    func gateway(_ instance: String, host: String, port: UInt16 = 18789, address: String, txt: [String] = ["role=gateway"]) -> [DNSRecord] {
        let instanceName = name("\(instance)._openclaw-gw._tcp")
        return [
            DNSRecord(name: name(host), type: .a, ttl: 60, data: .a(IPAddress(address)!)),
            DNSRecord(name: service, type: .ptr, ttl: 60, data: .ptr(instanceName)),
            DNSRecord(name: instanceName, type: .srv, ttl: 60, data: .srv(priority: 0, weight: 0, port: port, target: name(host))),
            DNSRecord(name: instanceName, type: .txt, ttl: 60, data: .txt(try! TXTRecord(strings: txt.map { Array($0.utf8) }))),
        ]
    }

    func served(_ records: [DNSRecord]) -> ServedRecords {
        try! ServedRecords(zone: zone, server: server, serial: 1, source: .transfer(messages: 1), records: records)
    }

    @Test("nothing to do when the server has exactly these records, in any order and case")
    func unchanged() throws {
        let wanted = gateway("Studio", host: "studio", address: "100.64.0.1")
        let upper = wanted.reversed().map {
            DNSRecord(name: try! DNSName(presentation: $0.name.description.uppercased()), type: $0.type, ttl: $0.ttl, data: $0.data)
        }
        let plan = try ChangePlanner(zone: zone, service: service).publish(wanted, served: served(upper), prune: true)
        #expect(plan.isEmpty, "\(plan.changeSets.map(\.nsupdateLines))")
    }

    @Test("a changed TXT is replaced with a value prerequisite; the PTR RRset is not touched")
    func changedTXT() throws {
        let before = gateway("studio", host: "studio", address: "100.64.0.1")
        let after = gateway("studio", host: "studio", address: "100.64.0.1", txt: ["role=gateway", "gatewayTls=1"])
        let plan = try ChangePlanner(zone: zone, service: service).publish(after, served: served(before), prune: false)
        let lines = try #require(plan.changeSets.first).nsupdateLines
        #expect(plan.changeSets.count == 1)
        #expect(
            lines == [
                "prereq yxrrset studio._openclaw-gw._tcp.openclaw.internal. IN TXT \"role=gateway\"",
                "update delete studio._openclaw-gw._tcp.openclaw.internal. IN TXT",
                "update add studio._openclaw-gw._tcp.openclaw.internal. 60 IN TXT \"role=gateway\" \"gatewayTls=1\"",
            ])
        #expect(plan.changes == [PlannedChange(name: name("studio._openclaw-gw._tcp"), kind: .changed([.txt]))])
    }

    @Test("a TXT RRset replaced at an instance: each string the server held that the push does not write again is kept for naming")
    func txtRemovedIsNamed() throws {
        let before = gateway(
            "studio", host: "studio", address: "100.64.0.1",
            txt: ["role=gateway", "gatewayPort=18789", "note=\u{202E}keep", "role=gateway"])
        let after = gateway("studio", host: "studio", address: "100.64.0.1", txt: ["role=gateway", "gatewayPort=18790"])
        let plan = try ChangePlanner(zone: zone, service: service).publish(after, served: served(before), prune: false)
        let change = try #require(plan.changes.first)
        #expect(change.kind == .changed([.txt]))
        #expect(change.txtRemoved == [Array("gatewayPort=18789".utf8), Array("note=\u{202E}keep".utf8)], "\(change.txtRemoved)")
        // A TXT only added to: nothing removed, nothing to name.
        let grown = gateway("studio", host: "studio", address: "100.64.0.1", txt: ["role=gateway", "gatewayPort=18789", "x=1"])
        let small = gateway("studio", host: "studio", address: "100.64.0.1", txt: ["role=gateway", "gatewayPort=18789"])
        let more = try ChangePlanner(zone: zone, service: service).publish(grown, served: served(small), prune: false)
        #expect(more.changes.first?.txtRemoved == [], "\(more.changes)")
    }

    @Test("prune removes only instances of the type: other types, other names and shared hosts stay")
    func pruneOnlyTheType() throws {
        let other = [
            DNSRecord(name: name("_ssh._tcp"), type: .ptr, ttl: 60, data: .ptr(name("box._ssh._tcp"))),
            DNSRecord(name: name("box._ssh._tcp"), type: .srv, ttl: 60, data: .srv(priority: 0, weight: 0, port: 22, target: name("old"))),
            DNSRecord(name: name("www"), type: .a, ttl: 60, data: .a(IPAddress("100.64.0.9")!)),
        ]
        let current = gateway("keep", host: "studio", address: "100.64.0.1") + gateway("old", host: "old", address: "100.64.0.2") + other
        let plan = try ChangePlanner(zone: zone, service: service).publish(
            gateway("keep", host: "studio", address: "100.64.0.1"), served: served(current), prune: true)
        let lines = try #require(plan.changeSets.first).nsupdateLines
        #expect(
            lines.first?.hasPrefix("prereq yxrrset _openclaw-gw._tcp.openclaw.internal. IN PTR") == true,
            "the PTR RRset as read is the prerequisite")
        #expect(
            lines.filter { $0.hasPrefix("update") } == [
                "update delete _openclaw-gw._tcp.openclaw.internal. IN PTR old._openclaw-gw._tcp.openclaw.internal.",
                "update delete old._openclaw-gw._tcp.openclaw.internal. IN SRV",
                "update delete old._openclaw-gw._tcp.openclaw.internal. IN TXT",
            ])
        let withoutPrune = try ChangePlanner(zone: zone, service: service).publish(
            gateway("keep", host: "studio", address: "100.64.0.1"), served: served(current), prune: false)
        #expect(withoutPrune.isEmpty)
    }

    /// The ledger of a registration of `records` over `before` (what the server had then).
    func ledger(_ records: [DNSRecord], over before: [DNSRecord]) -> RegistrationLedger {
        var ledger = RegistrationLedger(instance: records.first { $0.type == .srv }!.name)
        ledger.note(records, over: served(before))
        return ledger
    }

    func updates(_ plan: UpdatePlan) -> [String] {
        plan.changeSets.flatMap(\.nsupdateLines).filter { $0.hasPrefix("update") }
    }

    @Test("withdraw keeps a host another instance still points to")
    func withdrawSharedHost() throws {
        let planner = ChangePlanner(zone: zone, service: service)
        let a = gateway("a", host: "shared", address: "100.64.0.1")
        let c = gateway("c", host: "alone", address: "100.64.0.3")
        let b = Array(gateway("b", host: "shared", address: "100.64.0.1").dropFirst())
        // b registered after a, on the same host: the host's address was a's, not b's.
        let now = served(a + b + c)
        let shared = updates(try planner.withdraw(ledger(a, over: []), served: now))
        #expect(!shared.contains { $0.contains("shared.openclaw.internal. IN A") }, "\(shared)")
        #expect(shared.contains("update delete a._openclaw-gw._tcp.openclaw.internal. IN SRV"), "\(shared)")
        let alone = try planner.withdraw(ledger(c, over: []), served: now).changeSets.flatMap(\.nsupdateLines)
        #expect(alone.contains("update delete alone.openclaw.internal. IN A"))
        #expect(alone.contains("prereq yxrrset alone.openclaw.internal. IN A 100.64.0.3"))
    }

    @Test("withdraw takes out only what the registration added: the host's A that was there before stays (issue 18)")
    func withdrawKeepsWhatWasThere() throws {
        let planner = ChangePlanner(zone: zone, service: service)
        let hostA = gateway("x", host: "studio", address: "100.64.0.5")[0]
        let mine = gateway("Wide", host: "studio", address: "100.64.0.5")
        let registered = ledger(mine, over: [hostA])
        #expect(!registered.holds(hostA), "the A was there before: not the registration's")
        let plan = try planner.withdraw(registered, served: served(mine))
        let lines = updates(plan)
        #expect(!lines.contains { $0.contains("studio.openclaw.internal.") }, "\(lines)")
        #expect(
            Set(lines) == [
                "update delete _openclaw-gw._tcp.openclaw.internal. IN PTR Wide._openclaw-gw._tcp.openclaw.internal.",
                "update delete Wide._openclaw-gw._tcp.openclaw.internal. IN SRV",
                "update delete Wide._openclaw-gw._tcp.openclaw.internal. IN TXT",
            ], "\(lines)")
    }

    @Test("an address the registration replaced is put back at withdrawal; the plan reads \"replaces A x with y\"")
    func replacedAddressPutBack() throws {
        let planner = ChangePlanner(zone: zone, service: service)
        let before = [gateway("x", host: "studio", address: "100.64.0.5")[0]]
        let mine = gateway("Wide", host: "studio", address: "100.64.0.7")
        let publish = try planner.publish(mine, served: served(before), prune: false)
        let hostChange = try #require(publish.changes.first { if case .host = $0.kind { true } else { false } })
        guard case .host(let sets) = hostChange.kind else { return }
        #expect(sets.map(\.description) == ["replaces A 100.64.0.5 with 100.64.0.7"])
        let plan = try planner.withdraw(ledger(mine, over: before), served: served(mine))
        let lines = plan.changeSets.flatMap(\.nsupdateLines)
        #expect(lines.contains("prereq yxrrset studio.openclaw.internal. IN A 100.64.0.7"), "\(lines)")
        #expect(lines.contains("update delete studio.openclaw.internal. IN A"), "\(lines)")
        #expect(lines.contains("update add studio.openclaw.internal. 60 IN A 100.64.0.5"), "\(lines)")
    }

    @Test(
        "an address RRset the registration removed whole (a type it did not publish) is put back at withdrawal (issue 18)",
        arguments: [["100.64.0.5", "fd00::99"], ["fd00::99"], ["100.64.0.7", "fd00::99"]])
    func removedRRsetPutBack(before addresses: [String]) throws {
        let planner = ChangePlanner(zone: zone, service: service)
        let before = addresses.map { text in
            let address = IPAddress(text)!
            return text.contains(":")
                ? DNSRecord(name: name("studio"), type: .aaaa, ttl: 60, data: .aaaa(address))
                : DNSRecord(name: name("studio"), type: .a, ttl: 60, data: .a(address))
        }
        let mine = gateway("Wide", host: "studio", address: "100.64.0.7")
        let publish = try planner.publish(mine, served: served(before), prune: false)
        let announced = publish.changes.flatMap { change -> [String] in
            if case .host(let sets) = change.kind { return sets.map(\.description) }
            return []
        }
        #expect(announced.contains("removes AAAA fd00::99"), "\(announced)")
        let registered = ledger(mine, over: before)
        #expect(registered.replaced.contains { $0.type == .aaaa }, "\(registered.replaced)")
        let lines = try planner.withdraw(registered, served: served(mine)).changeSets.flatMap(\.nsupdateLines)
        #expect(lines.contains("prereq nxrrset studio.openclaw.internal. IN AAAA"), "\(lines)")
        #expect(lines.contains("update add studio.openclaw.internal. 60 IN AAAA fd00::99"), "\(lines)")
        // Shared with another instance: the A it gave stays, the AAAA it took still comes back.
        let other = gateway("other", host: "studio", address: "100.64.0.7")
        let shared = try planner.withdraw(registered, served: served(mine + other.dropFirst()))
        let sharedLines = shared.changeSets.flatMap(\.nsupdateLines)
        #expect(sharedLines.contains("update add studio.openclaw.internal. 60 IN AAAA fd00::99"), "\(sharedLines)")
        #expect(!sharedLines.contains { $0.hasPrefix("update delete studio.") }, "\(sharedLines)")
    }

    @Test("a record someone else added beside the registration's stays: deleted value by value, the RRset as read its prerequisite")
    func othersRecordsStay() throws {
        let planner = ChangePlanner(zone: zone, service: service)
        let mine = gateway("Wide", host: "studio", address: "100.64.0.7")
        let theirs = DNSRecord(name: name("studio"), type: .a, ttl: 60, data: .a(IPAddress("100.64.0.8")!))
        let plan = try planner.withdraw(ledger(mine, over: []), served: served(mine + [theirs]))
        let lines = plan.changeSets.flatMap(\.nsupdateLines)
        #expect(lines.contains("update delete studio.openclaw.internal. IN A 100.64.0.7"), "\(lines)")
        #expect(!lines.contains("update delete studio.openclaw.internal. IN A"), "\(lines)")
        #expect(
            lines.contains("prereq yxrrset studio.openclaw.internal. IN A 100.64.0.7")
                && lines.contains("prereq yxrrset studio.openclaw.internal. IN A 100.64.0.8"), "\(lines)")
    }

    @Test("an instance whose SRV is now someone else's is left alone; nothing of it is withdrawn")
    func takenOverInstance() throws {
        let planner = ChangePlanner(zone: zone, service: service)
        let mine = gateway("Wide", host: "studio", address: "100.64.0.7")
        let theirs = gateway("Wide", host: "other", address: "100.64.0.9")
        let lines = updates(try planner.withdraw(ledger(mine, over: []), served: served(theirs)))
        #expect(!lines.contains { $0.lowercased().contains("wide._openclaw-gw") || $0.contains("other.openclaw") }, "\(lines)")
    }

    @Test("a restart adopts what its earlier run's ledger says it added, and nothing that only looks the same")
    func adoption() throws {
        let planner = ChangePlanner(zone: zone, service: service)
        let preexisting = gateway("x", host: "studio", address: "100.64.0.5")[0]
        let mine = gateway("Wide", host: "studio", address: "100.64.0.5")
        // The crashed run found the A there; the restart finds everything there.
        let earlier = ledger(mine, over: [preexisting])
        var restarted = RegistrationLedger(instance: earlier.instance)
        restarted.adopt(earlier, from: served(mine))
        restarted.note(mine, over: served(mine))
        #expect(!restarted.holds(preexisting))
        let lines = updates(try planner.withdraw(restarted, served: served(mine)))
        #expect(lines.count == 3 && !lines.contains { $0.contains("studio.openclaw.internal.") }, "\(lines)")
        // No ledger: the same records written by someone else (zone push) are not this run's.
        var fresh = RegistrationLedger(instance: earlier.instance)
        fresh.note(mine, over: served(mine))
        #expect(try planner.withdraw(fresh, served: served(mine)).isEmpty)
    }

    @Test("a plan too large for one message is split; each part's PTR prerequisite is the state the parts before leave")
    func split() throws {
        var planner = ChangePlanner(zone: zone, service: service)
        planner.maxMessageBytes = 900
        let wanted = (0..<12).flatMap { gateway("g\($0)", host: "h\($0)", address: "100.64.0.\($0 + 1)") }
        let plan = try planner.publish(wanted, served: served([]), prune: false)
        #expect(plan.changeSets.count > 2)
        var listed = 0
        for set in plan.changeSets {
            #expect(try set.wire(id: 1).count <= 900)
            let added = set.updates.filter { if case .add(let record) = $0 { record.type == .ptr } else { false } }.count
            guard added > 0 else { continue }
            let prerequisite = set.prerequisites.first {
                if case .rrsetAbsent(_, .ptr) = $0 { true } else if case .rrsetEquals(_, .ptr, _) = $0 { true } else { false }
            }
            switch prerequisite {
            case .rrsetAbsent?: #expect(listed == 0)
            case .rrsetEquals(_, _, let values)?: #expect(values.count == listed)
            case nil: Issue.record("a part that adds PTRs has no PTR prerequisite")
            }
            listed += added
        }
        #expect(listed == 12)
    }

    @Test("the length bound is never below the encoded UPDATE, and a plan that fits only with names compressed is still one UPDATE")
    func lengthBound() throws {
        var planner = ChangePlanner(zone: zone, service: service)
        let wanted = (0..<12).flatMap { gateway("g\($0)", host: "h\($0)", address: "100.64.0.\($0 + 1)") }
        let plan = try planner.publish(wanted, served: served([]), prune: false)
        let set = try #require(plan.changeSets.first)
        let encoded = try set.wire(id: 1).count
        let bound = try #require(set.wireLengthBound)
        #expect(plan.changeSets.count == 1 && encoded < bound, "encoded \(encoded), bound \(bound)")
        planner.maxMessageBytes = encoded
        #expect(try planner.publish(wanted, served: served([]), prune: false).changeSets.count == 1)
        planner.maxMessageBytes = encoded - 1
        #expect(try planner.publish(wanted, served: served([]), prune: false).changeSets.count > 1)
    }
}
