import DNSSD
import Testing

@testable import Discovery

func makeBeacon(
    _ instance: String, source: BeaconSource, domain: String?, host: String, port: Int = 18789,
    addresses: [String] = [], txt: [(key: String, value: String?)] = []
) -> GatewayBeacon {
    GatewayBeacon(
        instance: try! InstanceName(decoded: instance), serviceType: .gateway,
        domain: domain.map { try! DomainName(validating: $0) }, source: source, host: host, port: port,
        addresses: addresses.compactMap(IPAddress.init), txt: try! TXTRecord(pairs: txt))
}

@Suite("Merging beacons from several paths")
struct BeaconMergerTests {
    let lan = makeBeacon(
        "Studio (OpenClaw)", source: .mdns, domain: "local", host: "studio.local.", addresses: ["192.168.1.20"],
        txt: [(key: "displayName", value: "Studio"), (key: "role", value: "gateway")])
    let wan = makeBeacon(
        "studio-gateway", source: .unicast, domain: "openclaw.internal", host: "studio.openclaw.internal.",
        addresses: ["100.101.102.103"], txt: [(key: "displayName", value: "Studio (OpenClaw)"), (key: "role", value: "gateway")])

    @Test("the same Gateway in local. and a wide-area domain is one row with both sources")
    func mergesAcrossDomains() throws {
        var merger = BeaconMerger()
        #expect(merger.apply(.added(lan)) == [.added(lan.merged(id: lan.id))])
        let events = merger.apply(.added(wan))
        guard case .updated(let merged) = events.first, events.count == 1 else {
            Issue.record("expected one update, got \(events)")
            return
        }
        #expect(merged.id == lan.id, "the mDNS view is the primary")
        #expect(merged.sources == [.mdns, .unicast])
        #expect(merged.addresses.map(\.description) == ["100.101.102.103", "192.168.1.20"])
        #expect(
            merged.aliases == [
                BeaconAlias(source: .unicast, domain: "openclaw.internal.", instance: try InstanceName(decoded: "studio-gateway"))
            ])

        // The wide-area copy going away leaves the LAN row.
        guard case .updated(let alone) = merger.apply(.removed(wan)).first else {
            Issue.record("expected update")
            return
        }
        #expect(alone.sources == [.mdns])
        #expect(alone.aliases.isEmpty)
        #expect(merger.apply(.removed(lan)) == [.removed(alone)])
    }

    @Test("when the primary goes, the row keeps its id: an update with the other sighting")
    func primaryChangeKeepsTheID() {
        var merger = BeaconMerger()
        _ = merger.apply(.added(lan))
        _ = merger.apply(.added(wan))
        let events = merger.apply(.removed(lan))
        guard case .updated(let alone)? = events.first, events.count == 1 else {
            Issue.record("expected one update, got \(events)")
            return
        }
        #expect(alone.gatewayID == lan.id.description && alone.id == wan.id && alone.sources == [.unicast])
        #expect(alone.sightings.map(\.id) == [wan.id])
    }

    @Test("different fingerprints on different addresses are different Gateways even with the same name")
    func fingerprintsDecide() {
        var merger = BeaconMerger()
        var tlsLan = lan
        tlsLan.txt = try! TXTRecord(pairs: [
            (key: "displayName", value: "Studio"), (key: "gatewayTls", value: "1"),
            (key: "gatewayTlsSha256", value: String(repeating: "a", count: 64)),
        ])
        var tlsWan = wan
        tlsWan.txt = try! TXTRecord(pairs: [
            (key: "displayName", value: "Studio"), (key: "gatewayTls", value: "1"),
            (key: "gatewayTlsSha256", value: String(repeating: "b", count: 64)),
        ])
        _ = merger.apply(.added(tlsLan))
        #expect(merger.apply(.added(tlsWan)) == [.added(tlsWan.merged(id: tlsWan.id))])
        // Same fingerprint, different host labels: the fingerprint wins.
        tlsWan.txt = tlsLan.txt
        tlsWan.host = BeaconHost("elsewhere.openclaw.internal.")
        let events = merger.apply(.updated(tlsWan))
        #expect(events.contains { if case .removed(let old) = $0 { old.gatewayID == tlsWan.id.description } else { false } }, "\(events)")
        #expect(events.contains { if case .updated(let merged) = $0 { merged.sources == [.mdns, .unicast] } else { false } })
    }

    @Test("two instances in one domain are never merged")
    func sameDomainStaysApart() {
        var merger = BeaconMerger()
        var twin = lan
        twin.instance = try! InstanceName(decoded: "Studio (OpenClaw) #2")
        _ = merger.apply(.added(lan))
        #expect(merger.apply(.added(twin)) == [.added(twin.merged(id: twin.id))])
    }

    @Test("a manual target joins the discovered Gateway with its address and port")
    func manualJoins() {
        var merger = BeaconMerger()
        _ = merger.apply(.added(lan))
        let manual = makeBeacon("192.168.1.20:18789", source: .manual, domain: nil, host: "192.168.1.20", addresses: ["192.168.1.20"])
        guard case .updated(let merged) = merger.apply(.added(manual)).first else {
            Issue.record("expected update")
            return
        }
        #expect(merged.sources == [.mdns, .manual])
        #expect(merged.gatewayID == lan.id.description, "the first sighting's id")
        let elsewhere = makeBeacon("10.0.0.9:18789", source: .manual, domain: nil, host: "10.0.0.9", addresses: ["10.0.0.9"])
        #expect(merger.apply(.added(elsewhere)) == [.added(elsewhere.merged(id: elsewhere.id))])
    }

    @Test("an update of a Gateway alone in its row is an update, not removed + added")
    func updatesStayUpdates() {
        var merger = BeaconMerger()
        _ = merger.apply(.added(lan))
        var changed = lan
        changed.addresses.append(IPAddress("fe80::1%eth0")!)
        #expect(merger.apply(.updated(changed)) == [.updated(changed.merged(id: lan.id))])
        _ = merger.apply(.added(wan))
        changed.addresses.removeLast()
        let events = merger.apply(.updated(changed))
        #expect(events.count == 1)
        if case .updated(let merged)? = events.first { #expect(merged.sources == [.mdns, .unicast]) }
    }

    @Test("errors and allForNow pass through")
    func passThrough() {
        var merger = BeaconMerger()
        let issue = DiscoveryIssue(source: .unicast, kind: .dnsError, .resolvConf(problem: "x"))
        #expect(merger.apply(.error(issue)) == [.error(issue)])
        #expect(merger.apply(.allForNow) == [.allForNow])
    }
}

extension GatewayBeacon {
    /// As the merger publishes a row of this beacon alone, under `id`.
    func merged(id: GatewayBeacon.ID) -> GatewayBeacon {
        var row = self
        row.assignedID = id.description
        row.sightings = [self]
        return row
    }
}
