import DNSSD
import Discovery
import FoundationEssentials
import Testing

@testable import Watch

/// The roster over time on the recorded clock: a Gateway that stops advertising is kept and
/// probed, a TARGET that another path lists is never dropped, and at the start each path says
/// what it knows once.
extension WatchLoopTests {
    /// `beacon` as the merger lists it: under `id`, with these sightings.
    static func row(_ id: String, _ sightings: [GatewayBeacon]) -> GatewayBeacon {
        var row = sightings[0]
        for other in sightings.dropFirst() {
            row.sources.formUnion(other.sources)
            row.addresses = Array(Set(row.addresses + other.addresses)).sorted()
        }
        row.assignedID = id
        row.sightings = sightings
        return row
    }

    static func wideArea(_ addresses: [String]) -> GatewayBeacon {
        GatewayBeacon(
            instance: try! InstanceName.truncating("studio-gateway"), serviceType: .gateway,
            domain: try! DomainName(validating: "openclaw.internal"),
            source: .unicast, host: "gw.openclaw.internal.", port: 18789, addresses: addresses.map { IPAddress($0)! }, txt: .empty,
            requestedTLS: true)
    }

    @Test("a Gateway that stops advertising stays: probed with the back-off, down, on the board and /sd until forgotten; back, the same id")
    func stoppedAdvertisingIsKept() throws {
        let clock = RecordedClock()
        let emitted = Emitted()
        let board = WatchBoard()
        var loop = loop(clock: clock, emitted: emitted, board: board)
        let lan = Self.advertised(["10.99.0.1"])
        let id = lan.gatewayID
        loop.receive([lan], complete: true)
        clock.advance(Self.policy.addressSettle)
        loop.advance()
        #expect(loop.due().map(\.id) == [id])
        loop.finished(id, ProbeVerdict())
        #expect(emitted.take() == ["\(id) appeared", "\(id) up"])

        loop.receive([], complete: true)  // the goodbye
        let events = emitted.take()
        #expect(events == ["\(id) disappeared"], "\(events)")
        clock.advance(Self.policy.interval)
        #expect(loop.due().map(\.id) == [id], "still probed")
        loop.finished(id, Self.refused)
        clock.advance(Self.policy.interval)
        #expect(loop.due().map(\.id) == [id])
        loop.finished(id, Self.refused)
        #expect(emitted.take() == ["\(id) down"], "two failures after up: down")
        let shown = try #require(board.snapshot().gateways[id])
        #expect(shown.health == .down && shown.sources.isEmpty)
        #expect(String(decoding: ServiceDiscoveryList.json(board.snapshot()), as: UTF8.self).contains("10.99.0.1:18789"))
        #expect(MetricsText.render(board.snapshot()).contains("clawnet_gateway_up{gateway=\"\(id)\""), "its series stays, at 0")

        loop.receive([lan], complete: true)  // announced again: the same Gateway
        #expect(emitted.take() == ["\(id) appeared"])
        loop.receive([], complete: true)
        _ = emitted.take()
        clock.advance(Self.policy.forgetAfter)
        loop.advance()
        #expect(emitted.take() == ["\(id) forgotten"])
        #expect(board.snapshot().gateways.isEmpty && loop.isEmpty)
    }

    @Test("a TARGET mDNS lists too: one Gateway, the TARGET's id, probed throughout; mDNS going says disappeared for mDNS only")
    func targetListedByAnotherPathIsKept() {
        let clock = RecordedClock()
        let emitted = Emitted()
        var loop = loop(clock: clock, emitted: emitted)
        let target = Self.manual("10.99.0.1")
        let id = target.gatewayID
        loop.receive([target], complete: true)
        #expect(loop.due().map(\.id) == [id])
        loop.finished(id, ProbeVerdict())
        #expect(emitted.take() == ["\(id) appeared", "\(id) up"])
        loop.receive([Self.row(id, [Self.advertised(["10.99.0.1"]), target])], complete: true)
        #expect(emitted.take() == ["\(id) appeared"], "mDNS joins the TARGET's row")
        loop.receive([Self.row(id, [target])], complete: true)
        #expect(emitted.take() == ["\(id) disappeared"])
        clock.advance(Self.policy.interval)
        #expect(loop.due().map(\.id) == [id], "still watched")
    }

    @Test(
        "at the start each path says what it knows once: appeared per path, nothing disappears, and a row that merged away is never shown")
    func startSaysEachPathOnce() {
        let clock = RecordedClock()
        let emitted = Emitted()
        var loop = loop(clock: clock, emitted: emitted, local: true)
        let early = Self.advertised(["fd99::1"])
        let wan = Self.wideArea(["10.99.0.1"])
        // mDNS first with its IPv6 address alone, the zone's beacon apart; then IPv4 joins them
        // under the mDNS row's id.
        loop.receive([early], complete: false)
        loop.receive([early, wan], complete: false)
        clock.advance(Self.policy.addressSettle)
        loop.advance()
        #expect(emitted.take().isEmpty, "nothing before the first session has said all it knows")
        let id = early.gatewayID
        loop.receive([Self.row(id, [Self.advertised(["fd99::1", "10.99.0.1"]), wan])], complete: true)
        #expect(emitted.take().isEmpty, "with mDNS among the paths, a settle after the session's all-for-now too")
        clock.advance(Self.policy.addressSettle)
        loop.advance()
        #expect(emitted.take() == ["\(id) appeared", "\(id) appeared"], "mDNS and unicast, once each")
        #expect(loop.due().map(\.id) == [id])
        loop.finished(id, ProbeVerdict())
        #expect(emitted.take() == ["\(id) up"])
    }

    @Test("a Gateway that merges into another after it was shown goes without a disappeared; the other gains its path")
    func mergedRowGoesQuietly() {
        let clock = RecordedClock()
        let emitted = Emitted()
        var loop = loop(clock: clock, emitted: emitted)
        let wan = Self.wideArea(["10.99.0.1"])
        let target = Self.manual("10.99.0.1")
        loop.receive([wan], complete: true)
        #expect(emitted.take() == ["\(wan.gatewayID) appeared"])
        loop.receive([Self.row(target.gatewayID, [wan, target])], complete: true)
        #expect(emitted.take() == ["\(target.gatewayID) appeared", "\(target.gatewayID) appeared"], "one row now, under the older id")
        #expect(loop.beacon(wan.gatewayID) == nil, "the row that merged is gone without a disappeared")
    }

    @Test("after a SIGHUP that started discovery again, a new Gateway is announced once the new session has said all it knows")
    func quietWhileTheNewSessionSettles() {
        let clock = RecordedClock()
        let emitted = Emitted()
        var loop = loop(clock: clock, emitted: emitted)
        let target = Self.manual("10.0.0.1")
        loop.receive([target], complete: true)
        #expect(emitted.take() == ["\(target.gatewayID) appeared"])
        loop.holdRemovals(for: Self.policy.rediscoverySettle)
        let wan = Self.wideArea(["10.0.0.9"])
        loop.receive([target, wan], complete: false)
        #expect(emitted.take().isEmpty, "not before the new session has said all it knows")
        loop.receive([target, wan], complete: true)
        #expect(emitted.take() == ["\(wan.gatewayID) appeared"])
    }
}
