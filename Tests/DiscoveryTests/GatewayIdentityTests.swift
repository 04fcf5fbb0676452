import DNSSD
import Testing

@testable import Discovery

/// The identity rule (GatewayIdentity) case by case, false merges included, and the ids the
/// merger keeps while paths, restarts and renewals come and go.
@Suite("One Gateway: the identity rule and stable ids")
struct GatewayIdentityTests {
    static let shaA = String(repeating: "a", count: 64)
    static let shaB = String(repeating: "b", count: 64)

    static func found(
        _ instance: String, _ source: BeaconSource = .mdns, domain: String = "local", host: String, port: Int = 18789,
        addresses: [String] = [], txt: [(key: String, value: String?)] = []
    ) -> GatewayBeacon {
        makeBeacon(instance, source: source, domain: domain, host: host, port: port, addresses: addresses, txt: txt)
    }

    static func manual(_ host: String, port: Int = 18789, addresses: [String]) -> GatewayBeacon {
        makeBeacon("\(host):\(port)", source: .manual, domain: nil, host: host, port: port, addresses: addresses)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let a: GatewayBeacon
        let b: GatewayBeacon
        let same: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a TARGET by address and the beacon mDNS lists there", a: manual("10.99.0.1", addresses: ["10.99.0.1"]),
            b: found("Studio", host: "gw.local.", addresses: ["fd99::1", "10.99.0.1"]), same: true),
        Case(
            name: "a TARGET by host name that did not resolve, and the beacon naming that host",
            a: manual("gw.local", addresses: []), b: found("Studio", host: "gw.local.", addresses: ["10.99.0.1"]), same: true),
        Case(
            name: "one address, two ports: two listeners", a: found("A", host: "gw.local.", port: 18789, addresses: ["10.0.0.1"]),
            b: found("B", .unicast, domain: "openclaw.internal", host: "gw.openclaw.internal.", port: 18790, addresses: ["10.0.0.1"]),
            same: false),
        Case(
            name: "a renewal: the zone keeps the old fingerprint, mDNS says the new one, one address",
            a: found("Studio", host: "gw.local.", addresses: ["10.99.0.1"], txt: [("gatewayTlsSha256", shaA)]),
            b: found(
                "studio-gateway", .unicast, domain: "openclaw.internal", host: "gw.openclaw.internal.", addresses: ["10.99.0.1"],
                txt: [("gatewayTlsSha256", shaB)]), same: true),
        Case(
            name: "one fingerprint on two paths, no address in common (LAN and tailnet)",
            a: found("Studio", host: "studio.local.", addresses: ["192.168.1.20"], txt: [("gatewayTlsSha256", shaA)]),
            b: found(
                "elsewhere", .unicast, domain: "openclaw.internal", host: "x.openclaw.internal.", addresses: ["100.64.0.7"],
                txt: [("gatewayTlsSha256", shaA)]), same: true),
        Case(
            name: "one tailnet name (TXT tailnetDns) on two paths",
            a: found("A", host: "a.local.", addresses: ["192.168.1.20"], txt: [("tailnetDns", "studio.tail1.ts.net")]),
            b: found(
                "B", .unicast, domain: "openclaw.internal", host: "b.openclaw.internal.", addresses: ["100.64.0.7"],
                txt: [("tailnetDns", "studio.tail1.ts.net.")]), same: true),
        Case(
            name: "LAN and tailnet beacon of one Gateway without TLS: same display name and host label",
            a: found("Studio (OpenClaw)", host: "studio.local.", addresses: ["192.168.1.20"], txt: [("displayName", "Studio")]),
            b: found(
                "studio-gateway", .unicast, domain: "openclaw.internal", host: "studio.openclaw.internal.", addresses: ["100.64.0.7"],
                txt: [("displayName", "Studio (OpenClaw)")]), same: true),
        Case(
            name: "false merge: two hosts left with OpenClaw's defaults (OpenClaw, openclaw) on LAN and tailnet",
            a: found("OpenClaw", host: "openclaw.local.", addresses: ["192.168.1.20"], txt: [("displayName", "OpenClaw")]),
            b: found(
                "openclaw-gw", .unicast, domain: "openclaw.internal", host: "openclaw.openclaw.internal.", addresses: ["100.64.0.7"],
                txt: [("displayName", "OpenClaw")]), same: false),
        Case(
            name: "false merge: same names, different advertised certificates",
            a: found("Studio", host: "studio.local.", addresses: ["192.168.1.20"], txt: [("gatewayTlsSha256", shaA)]),
            b: found(
                "Studio", .unicast, domain: "openclaw.internal", host: "studio.openclaw.internal.", addresses: ["100.64.0.7"],
                txt: [("gatewayTlsSha256", shaB)]), same: false),
        Case(
            name: "false merge: the name rule needs two domains (two Studios on one LAN)",
            a: found("Studio", host: "studio.local.", addresses: ["192.168.1.20"]),
            b: found("Studio", domain: "local", host: "studio.local.", addresses: ["192.168.1.21"]), same: false),
        Case(
            name: "false merge: one mDNS host name claimed by two machines (no address in common)",
            a: found("A", host: "openclaw.local.", addresses: ["192.168.1.20"]),
            b: found("B", .unicast, domain: "openclaw.internal", host: "openclaw.local.", addresses: ["192.168.1.21"]), same: false),
        Case(
            name: "false merge: manual targets never match by name", a: manual("10.0.0.9", addresses: ["10.0.0.9"]),
            b: found("10.0.0.9:18789", host: "other.local.", addresses: ["10.0.0.1"]), same: false),
    ]

    @Test("the identity rule", arguments: cases)
    func rule(_ row: Case) {
        #expect(GatewayIdentity.same(row.a, row.b) == row.same, "\(row.name)")
        #expect(GatewayIdentity.same(row.b, row.a) == row.same, "symmetric: \(row.name)")
        if row.same {
            #expect(!Set(GatewayIdentity.keys(row.a)).isDisjoint(with: GatewayIdentity.keys(row.b)), "a key in common: \(row.name)")
        }
    }

    /// Applies `events` and returns the ids of the rows listed at the end, by beacon id.
    static func rows(_ merger: inout BeaconMerger, _ events: [DiscoveryEvent]) -> (
        listed: [String: GatewayBeacon], events: [DiscoveryEvent]
    ) {
        var collection = BeaconCollection()
        var emitted: [DiscoveryEvent] = []
        for event in events {
            for merged in merger.apply(event) {
                collection.apply(merged)
                emitted.append(merged)
            }
        }
        return (Dictionary(uniqueKeysWithValues: collection.beacons.map { ($0.gatewayID, $0) }), emitted)
    }

    @Test("a TARGET that mDNS lists too keeps its id while mDNS resolves IPv6 first, then IPv4, and when mDNS says goodbye")
    func targetKeepsItsID() {
        var merger = BeaconMerger()
        let target = Self.manual("10.99.0.1", addresses: ["10.99.0.1"])
        let early = Self.found("Studio", host: "gw.local.", addresses: ["fd99::1"])
        var settled = early
        settled.addresses = [IPAddress("10.99.0.1")!, IPAddress("fd99::1")!]
        let (listed, events) = Self.rows(&merger, [.added(target), .added(early), .updated(settled)])
        let id = target.id.description
        #expect(Array(listed.keys) == [id], "one row, the TARGET's id: \(listed.keys.sorted())")
        #expect(listed[id]?.sightings.map(\.id) == [settled.id, target.id])
        #expect(events.filter { if case .removed(let gone) = $0 { gone.gatewayID == id } else { false } }.isEmpty)
        let (after, _) = Self.rows(&merger, [.removed(settled)])
        #expect(after[id]?.sources == [.manual], "goodbye: the TARGET stays, under its id")
    }

    @Test("stop and start of a Gateway seen by mDNS and a wide-area domain: one id throughout, also when the other path comes back first")
    func restartKeepsTheID() {
        var merger = BeaconMerger()
        let lan = Self.found("Studio (OpenClaw)", host: "gw.local.", addresses: ["10.99.0.1"], txt: [("displayName", "Studio")])
        let wan = Self.found(
            "studio-gateway", .unicast, domain: "openclaw.internal", host: "gw.openclaw.internal.", addresses: ["10.99.0.1"],
            txt: [("displayName", "Studio")])
        let (first, _) = Self.rows(&merger, [.added(lan), .added(wan)])
        let id = lan.id.description
        #expect(Array(first.keys) == [id])
        let (gone, _) = Self.rows(&merger, [.removed(lan), .removed(wan)])
        #expect(gone.isEmpty)
        let (back, events) = Self.rows(&merger, [.added(wan), .added(lan)])
        #expect(Array(back.keys) == [id], "the id it had, though the wide-area path came back first: \(back.keys.sorted())")
        #expect(events.first.map { if case .added(let row) = $0 { row.gatewayID == id } else { false } } == true, "\(events)")
    }

    @Test("a renewed certificate on the same listener is the same Gateway: an update, never a second row")
    func renewalIsAnUpdate() {
        var merger = BeaconMerger()
        let before = Self.found("Studio", host: "gw.local.", addresses: ["10.99.0.1"], txt: [("gatewayTlsSha256", Self.shaA)])
        var after = before
        after.txt = try! TXTRecord(pairs: [("gatewayTlsSha256", Self.shaB)])
        let stale = Self.found(
            "studio-gateway", .unicast, domain: "openclaw.internal", host: "gw.openclaw.internal.", addresses: ["10.99.0.1"],
            txt: [("gatewayTlsSha256", Self.shaA)])
        let (listed, events) = Self.rows(&merger, [.added(before), .added(stale), .updated(after)])
        #expect(Array(listed.keys) == [before.id.description] && listed.values.first?.sightings.count == 2, "\(listed.keys.sorted())")
        #expect(events.filter { if case .removed = $0 { true } else { false } }.isEmpty, "\(events)")
    }

    @Test("a row splits when the beacon that linked it changes: the others keep the row and its id")
    func splitKeepsTheOlderPart() {
        var merger = BeaconMerger()
        let target = Self.manual("10.0.0.5", addresses: ["10.0.0.5"])
        var lan = Self.found("Studio", host: "gw.local.", addresses: ["10.0.0.5"])
        _ = Self.rows(&merger, [.added(target), .added(lan)])
        lan.addresses = [IPAddress("10.0.0.6")!]
        let (listed, _) = Self.rows(&merger, [.updated(lan)])
        #expect(Set(listed.keys) == [target.id.description, lan.id.description], "\(listed.keys.sorted())")
        #expect(listed[target.id.description]?.sources == [.manual])
    }

    @Test("a merger seeded with a roster gives a Gateway found again its id (watch after SIGHUP)")
    func seededMergerKeepsIDs() {
        var first = BeaconMerger()
        let target = Self.manual("10.99.0.1", addresses: ["10.99.0.1"])
        let lan = Self.found("Studio", host: "gw.local.", addresses: ["10.99.0.1"])
        let (roster, _) = Self.rows(&first, [.added(target), .added(lan)])
        var second = BeaconMerger(remembering: Array(roster.values))
        let (again, _) = Self.rows(&second, [.added(lan), .added(target)])
        #expect(Array(again.keys) == [target.id.description], "mDNS first this time, the id of before: \(again.keys.sorted())")
    }

    @Test("thousands of Gateways on two paths merge in linear time: identity tests grow with the Gateways, not their square")
    func linearTime() {
        for count in [500, 4_000] {
            var merger = BeaconMerger()
            var rows = 0
            for index in 0..<count {
                let address = "10.\(index / 62_500).\(index / 250 % 250).\(index % 250 + 1)"
                let lan = Self.found("G\(index)", host: "h\(index).local.", addresses: [address], txt: [("displayName", "G\(index)")])
                let wan = Self.found(
                    "g\(index)", .unicast, domain: "openclaw.internal", host: "h\(index).openclaw.internal.", addresses: [address])
                for event in merger.apply(.added(lan)) + merger.apply(.added(wan)) {
                    if case .added = event { rows += 1 }
                }
            }
            #expect(rows == count, "one row per Gateway")
            #expect(merger.comparisons <= 4 * count, "\(merger.comparisons) identity tests for \(count) Gateways")
        }
    }

    @Test("the memory of gone Gateways is bounded: the oldest is forgotten first, one remembered again counts as new")
    func memoryIsBounded() {
        var memory = GatewayMemory(capacity: 2)
        let gateways = (1...3).map { Self.found("G\($0)", host: "h\($0).local.", addresses: ["10.0.0.\($0)"]) }
        memory.remember("one", sightings: [gateways[0]])
        memory.remember("two", sightings: [gateways[1]])
        memory.remember("one", sightings: [gateways[0]])
        memory.remember("three", sightings: [gateways[2]])
        #expect(memory.count == 2)
        #expect(memory.recall(gateways[1]) { _ in false } == nil, "two was the oldest")
        #expect(memory.recall(gateways[0]) { _ in false } == "one", "remembered again after two")
        #expect(memory.recall(gateways[2]) { $0 == "three" } == nil, "an id listed now is not given twice")
        #expect(memory.recall(gateways[2]) { _ in false } == "three")
    }

    @Test("one index for every owner: grouping follows the rule, and an owner filed twice under a key stays until both leave")
    func identityIndex() {
        let beacons = [
            Self.found("Studio", host: "gw.local.", addresses: ["10.0.0.1"]),
            Self.found("Other", host: "other.local.", addresses: ["10.0.0.2"]),
            Self.manual("10.0.0.1", addresses: ["10.0.0.1"]), Self.found("Studio (2)", host: "gw.local.", addresses: ["10.0.0.1"]),
        ]
        let groups = GatewayIdentity.group(beacons).map { $0.map(\.instance.displayName) }
        #expect(groups == [["Studio", "10.0.0.1:18789", "Studio (2)"], ["Other"]], "\(groups)")
        var index = IdentityIndex<Int>()
        index.file(1, under: ["a", "b"])
        index.file(1, under: ["a"])
        index.file(2, under: ["b"])
        index.unfile(1, from: ["a", "b"])
        #expect(index.candidates(sharing: ["a"]) == [1], "filed twice under a, taken out once")
        #expect(index.candidates(sharing: ["b"]) == [2])
        index.unfile(1, from: ["a"])
        #expect(index.candidates(sharing: ["a", "b"]) == [2])
    }
}
