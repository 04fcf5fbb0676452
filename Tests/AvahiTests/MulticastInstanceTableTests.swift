import DNSSD
import Testing

@testable import Avahi

/// The multicast merge logic fed with answers recorded from avahi-daemon (per-link browse
/// and resolve results), no daemon needed.
@Suite("Multicast instance table (recorded Avahi answers)")
struct MulticastInstanceTableTests {
    let key = MulticastInstanceKey(type: .gateway, domain: .local, name: try! InstanceName(decoded: "Studio (OpenClaw)"))
    let v4 = AvahiLink(interface: 2, protocolFamily: 0)
    let v6 = AvahiLink(interface: 2, protocolFamily: 1)
    let txt = try! TXTRecord(pairs: [(key: "role", value: "gateway"), (key: "gatewayPort", value: "18789")])

    func resolution(_ address: String, port: Int = 18789, txt: TXTRecord? = nil) -> AvahiResolution {
        AvahiResolution(host: "studio.local.", port: port, address: IPAddress(address), txt: txt ?? self.txt, interfaceName: "eth0")
    }

    @Test("IPv4 and IPv6 resolves of one instance merge into one beacon")
    func mergesFamilies() throws {
        var table = MulticastInstanceTable()
        let newV4 = table.itemNew(key, on: v4)
        let newV6 = table.itemNew(key, on: v6)
        let again = table.itemNew(key, on: v4)
        #expect(newV4 && newV6)
        #expect(!again, "a link already known needs no second resolver")
        #expect(table.pendingCount == 2)

        guard case .added(let first) = table.resolved(key, on: v6, resolution("fe80::1%eth0")) else {
            Issue.record("first resolve should add the beacon")
            return
        }
        #expect(first.addresses.map(\.description) == ["fe80::1%eth0"])
        guard case .updated(let merged) = table.resolved(key, on: v4, resolution("192.168.1.20")) else {
            Issue.record("second family should update the beacon")
            return
        }
        #expect(merged.addresses.map(\.description) == ["192.168.1.20", "fe80::1%eth0"])
        #expect(merged.interfaces == ["eth0"])
        #expect(merged.sources == [.mdns])
        #expect(table.pendingCount == 0)
        let repeated = table.resolved(key, on: v4, resolution("192.168.1.20"))
        #expect(repeated == nil, "an identical resolve changes nothing")
    }

    @Test("a TXT change is an update; the newest resolve's TXT wins")
    func txtChange() throws {
        var table = MulticastInstanceTable()
        _ = table.itemNew(key, on: v4)
        _ = table.resolved(key, on: v4, resolution("192.168.1.20"))
        let changed = try TXTRecord(pairs: [(key: "role", value: "gateway"), (key: "gatewayTls", value: "1")])
        guard case .updated(let beacon) = table.resolved(key, on: v4, resolution("192.168.1.20", txt: changed)) else {
            Issue.record("expected an update")
            return
        }
        #expect(beacon.gateway.tls)
    }

    @Test("removing one link updates; removing the last removes")
    func removal() {
        var table = MulticastInstanceTable()
        _ = table.itemNew(key, on: v4)
        _ = table.itemNew(key, on: v6)
        _ = table.resolved(key, on: v4, resolution("192.168.1.20"))
        _ = table.resolved(key, on: v6, resolution("fd00::5"))
        guard case .updated(let remaining) = table.itemRemoved(key, on: v6) else {
            Issue.record("expected an update after one link went")
            return
        }
        #expect(remaining.addresses.map(\.description) == ["192.168.1.20"])
        guard case .removed(let gone) = table.itemRemoved(key, on: v4) else {
            Issue.record("expected removal after the last link went")
            return
        }
        #expect(gone.id == .advertised(type: "_openclaw-gw._tcp", domain: "local.", instance: "studio (openclaw)"))
        #expect(gone.id.description == "_openclaw-gw._tcp|local.|studio (openclaw)")
        let again = table.itemRemoved(key, on: v4)
        #expect(again == nil)
    }

    @Test("a resolver failing after it resolved keeps the answer and asks for one more try")
    func staleLinks() throws {
        var table = MulticastInstanceTable()
        _ = table.itemNew(key, on: v4)
        _ = table.resolved(key, on: v4, resolution("192.168.1.20"))
        let retry = table.resolveFailed(key, on: v4)
        #expect(retry, "it had an answer: resolve again")
        #expect(table.wantsResolver(key, on: v4))
        #expect(table.pendingCount == 0, "a stale answer does not hold back all-for-now")
        #expect(table.publishedBeacons.first?.addresses == [IPAddress("192.168.1.20")!])
        let changed = try TXTRecord(pairs: [(key: "role", value: "gateway"), (key: "gatewayTls", value: "1")])
        guard case .updated(let beacon)? = table.resolved(key, on: v4, resolution("192.168.1.20", txt: changed)) else {
            Issue.record("the new resolver's answer is an update")
            return
        }
        #expect(beacon.gateway.tls)
        let again = table.resolveFailed(key, on: v4)
        let once = table.resolveFailed(key, on: v4)
        #expect(again && !once, "one more try per answer, not a loop")
    }

    @Test("unresolved: instances with no answer on any link, failed or still resolving; not one that resolved on a link")
    func unresolvedInstances() {
        let ghost = MulticastInstanceKey(type: .gateway, domain: .local, name: try! InstanceName(decoded: "Ghost"))
        let late = MulticastInstanceKey(type: .gateway, domain: .local, name: try! InstanceName(decoded: "Late"))
        var table = MulticastInstanceTable()
        for instance in [key, ghost, late] { _ = table.itemNew(instance, on: v4) }
        _ = table.itemNew(key, on: v6)
        _ = table.resolved(key, on: v4, resolution("192.168.1.20"))
        table.resolveFailed(key, on: v6)
        table.resolveFailed(ghost, on: v4)
        #expect(Set(table.unresolved) == [ghost, late], "\(table.unresolved)")
        _ = table.itemRemoved(ghost, on: v4)
        #expect(table.unresolved == [late])
    }

    @Test("an instance never resolved is removed silently")
    func unresolvedRemoval() {
        var table = MulticastInstanceTable()
        _ = table.itemNew(key, on: v4)
        table.resolveFailed(key, on: v4)
        #expect(table.pendingCount == 0)
        let removal = table.itemRemoved(key, on: v4)
        #expect(removal == nil)
    }

    @Test("after a reconnect, what is not seen again is unconfirmed until a resolve decides")
    func reconnectReconciliation() {
        let other = MulticastInstanceKey(type: .gateway, domain: .local, name: try! InstanceName(decoded: "Other"))
        var table = MulticastInstanceTable()
        for name in [key, other] {
            _ = table.itemNew(name, on: v4)
            _ = table.resolved(name, on: v4, resolution("192.168.1.20"))
        }
        table.dropAllLinks()
        #expect(table.pendingCount == 0)
        let fresh = table.itemNew(key, on: v4)
        #expect(fresh, "links are new again after a reconnect")
        let unchanged = table.resolved(key, on: v4, resolution("192.168.1.20"))
        #expect(unchanged == nil, "unchanged beacon: no event")
        let otherKey = MulticastInstanceKey(type: .gateway, domain: .local, name: try! InstanceName(decoded: "Other"))
        #expect(table.unconfirmed == [otherKey])
        let kept = table.removeIfUnconfirmed(key)
        #expect(kept == nil, "seen again: a failed check must not remove it")
        guard case .removed(let beacon)? = table.removeIfUnconfirmed(otherKey) else {
            Issue.record("a failed check removes what was not seen again")
            return
        }
        #expect(beacon.instance.displayName == "Other")
        #expect(table.publishedBeacons.count == 1)
    }

    @Test("names differing only in case are one instance (NSD/Knot lower-case RDATA)")
    func caseInsensitiveKeys() throws {
        var table = MulticastInstanceTable()
        let lower = MulticastInstanceKey(type: .gateway, domain: .local, name: try InstanceName(decoded: "studio (openclaw)"))
        _ = table.itemNew(key, on: v4)
        let second = table.itemNew(lower, on: v4)
        #expect(!second)
        #expect(table.count(of: .gateway) == 1)
    }
}
