import Avahi
import DNSSD
import Discovery
import FoundationEssentials
import Host
import Probes
import Synchronization
import Testing

@testable import Doctor
@testable import Watch

/// The loop's schedule and bookkeeping on a recorded clock: which Gateways are probed when,
/// at most how many at once, and what a roster change or a late verdict makes of them.
@Suite struct WatchLoopTests {
    /// The loop's clock, moved by the test.
    final class RecordedClock: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(_ by: Duration) { instant.withLock { $0 += by } }
    }

    /// What the loop emitted, in order.
    final class Emitted: Sendable {
        private let events = Mutex<[WatchEvent]>([])
        func append(_ event: WatchEvent) { events.withLock { $0.append(event) } }
        /// The events since the last call, as `gateway-id change`.
        func take() -> [String] {
            events.withLock { events in
                defer { events = [] }
                return events.map { "\($0.gateway.id) \($0.change.name)" }
            }
        }
    }

    static let policy: WatchPolicy = {
        var policy = WatchPolicy()
        policy.interval = .seconds(30)
        policy.concurrentProbes = 2
        policy.failuresBeforeDown = 2
        return policy
    }()

    static func manual(_ host: String) -> GatewayBeacon {
        GatewayBeacon(
            instance: try! InstanceName.truncating("\(host):18789"), serviceType: .gateway, domain: nil, source: .manual, host: host,
            port: 18789, addresses: [IPAddress(host)!], txt: .empty, requestedTLS: true)
    }

    /// A Gateway as mDNS lists it on host gw.local, with the addresses resolved so far.
    static func advertised(_ addresses: [String]) -> GatewayBeacon {
        GatewayBeacon(
            instance: try! InstanceName.truncating("Studio"), serviceType: .gateway, domain: .local, source: .mdns, host: "gw.local",
            port: 18789, addresses: addresses.map { IPAddress($0)! }, txt: .empty, requestedTLS: true)
    }

    static let machine = MachineFacts(
        busAddress: "unix:path=/run/dbus/system_bus_socket", busSocketExists: true,
        avahi: .running(version: "avahi 0.8", hostName: "node.local"), avahiInstalled: true, interfaces: [],
        port5353: PortHolders(sockets: 0, holders: []),
        nsswitchHosts: nil, nssMDNSModules: nil, resolvConf: ResolvConf(path: "/etc/resolv.conf", text: ""), systemdResolved: false,
        config: OpenClawConfig(path: "/nonexistent/openclaw.json"))

    /// `local`: mDNS is among the paths (announcements then wait a settle after a session's
    /// all-for-now too).
    func loop(clock: RecordedClock, emitted: Emitted, board: WatchBoard = WatchBoard(), local: Bool = false) -> WatchLoop {
        var request = DiscoveryRequest()
        request.local = local
        let setup = WatchSetup(
            request: request,
            machine: MachineResult(
                checks: [], facts: Self.machine,
                discovery: DiscoverySummary(localBrowsed: false, domains: [], beacons: [], issues: [])))
        let service = WatchService(
            policy: Self.policy, discovery: RecordedDiscovery(events: []), board: board, setup: { setup },
            emit: { emitted.append($0) })
        // No jitter: every wait is the policy's own.
        return WatchLoop(service: service, setup: setup, now: { clock.now }, random: { 0.5 })
    }

    static let refused = ProbeVerdict(failure: .init(check: .gwTCP, diagnosis: .gatewayNotListening))

    @Test(
        "at most concurrentProbes at once, each next probe one interval after its verdict (doubling while down); a roster change and a late verdict"
    )
    func schedule() throws {
        let clock = RecordedClock()
        let emitted = Emitted()
        let board = WatchBoard()
        var loop = loop(clock: clock, emitted: emitted, board: board)
        loop.receive(["10.0.0.1", "10.0.0.2", "10.0.0.3"].map(Self.manual), complete: true)
        let all = Set(board.snapshot().gateways.keys)
        #expect(Set(emitted.take()) == Set(all.map { "\($0) appeared" }))

        let first = loop.due().map(\.id)
        #expect(first.count == 2, "two probes at once: \(first)")
        #expect(loop.due().isEmpty, "none starts while two are in flight")
        let (upOne, downOne) = (first[0], first[1])
        let third = try #require(all.subtracting(first).first)
        loop.finished(upOne, ProbeVerdict())
        loop.finished(downOne, Self.refused)
        #expect(emitted.take() == ["\(upOne) up", "\(downOne) down"])
        #expect(loop.due().map(\.id) == [third], "the one not probed yet, and neither of those just probed")
        clock.advance(.seconds(1))
        loop.finished(third, ProbeVerdict())
        #expect(emitted.take() == ["\(third) up"])

        clock.advance(.seconds(28))
        #expect(loop.due().isEmpty, "nothing is due before its interval (29 s)")
        clock.advance(.seconds(1))
        #expect(Set(loop.due().map(\.id)) == Set(first), "both probed at 0 s are due at 30 s")
        loop.finished(upOne, ProbeVerdict())
        loop.finished(downOne, Self.refused)
        #expect(emitted.take().isEmpty, "still up, still down: no event")
        clock.advance(.seconds(1))
        #expect(loop.due().map(\.id) == [third], "the third at 31 s")
        loop.finished(third, ProbeVerdict())
        clock.advance(.seconds(29))
        #expect(loop.due().map(\.id) == [upOne], "at 60 s the one up; the one down twice waits two intervals (until 90 s)")

        // The Gateway in flight leaves the roster (a path stopped listing it); its verdict comes after.
        loop.apply(["10.0.0.1", "10.0.0.2", "10.0.0.3"].map(Self.manual).filter { WatchedGateway($0).id != upOne })
        #expect(emitted.take() == ["\(upOne) disappeared"])
        loop.finished(upOne, ProbeVerdict())
        #expect(emitted.take().isEmpty, "still up: kept and judged, no event")
        #expect(Set(board.snapshot().gateways.keys) == all && board.snapshot().gateways[upOne]?.sources == [])
        #expect(board.snapshot().probes == 7, "every verdict counted")
        clock.advance(Self.policy.forgetAfter)
        loop.advance()
        #expect(emitted.take() == ["\(upOne) forgotten"])
        #expect(Set(board.snapshot().gateways.keys) == all.subtracting([upOne]))
        loop.reloaded()
        #expect(Set(loop.due().map(\.id)) == [downOne, third], "after a reread config every Gateway at once")
    }

    @Test("an mDNS Gateway is judged once its addresses settle; a failure on fewer addresses than discovery knows now is no verdict")
    func addressesSettleBeforeJudging() throws {
        let clock = RecordedClock()
        let emitted = Emitted()
        var loop = loop(clock: clock, emitted: emitted)
        loop.receive([Self.advertised(["fd99::1"])], complete: true)
        let id = WatchedGateway(Self.advertised([])).id
        #expect(emitted.take().isEmpty, "not announced on its first resolved address")
        #expect(loop.due().isEmpty, "nor judged")
        clock.advance(Self.policy.addressSettle)
        loop.advance()
        #expect(emitted.take() == ["\(id) appeared"])
        let probed = loop.due()
        #expect(probed.map(\.target.addresses) == [[IPAddress("fd99::1")!]], "due once the settle is over: \(probed)")

        // IPv4 resolves while that probe runs; its failure on IPv6 alone says nothing.
        loop.apply([Self.advertised(["fd99::1", "10.99.0.1"])])
        loop.finished(id, Self.refused)
        #expect(emitted.take().isEmpty, "no down judged on fd99::1 alone")
        let again = loop.due()
        #expect(again.map(\.target.addresses.count) == [2], "probed again at once with both: \(again)")
        loop.finished(id, ProbeVerdict())
        #expect(emitted.take() == ["\(id) up"])
    }

    @Test("a Gateway down and backing off that gains an address is probed again at once")
    func downGatewayGainingAnAddressIsProbedAtOnce() {
        let clock = RecordedClock()
        let emitted = Emitted()
        var loop = loop(clock: clock, emitted: emitted)
        loop.receive([Self.manual("10.0.0.1")], complete: true)
        let id = WatchedGateway(Self.manual("10.0.0.1")).id
        #expect(loop.due().map(\.id) == [id], "a manual target needs no settle")
        loop.finished(id, Self.refused)
        #expect(emitted.take() == ["\(id) appeared", "\(id) down"])
        clock.advance(.seconds(1))
        #expect(loop.due().isEmpty, "backing off")
        loop.apply([Self.manual("10.0.0.1")])
        #expect(loop.due().isEmpty, "the same addresses: still backing off")
        var grown = Self.manual("10.0.0.1")
        grown.addresses.append(IPAddress("10.0.0.9")!)
        loop.apply([grown])
        #expect(loop.due().map(\.target.addresses.count) == [2], "a new address: probed again at once")
    }

    @Test("an expiring certificate is reported once, also when its Gateway is forgotten and found again")
    func expiryOncePerCertificateAcrossAppearances() {
        let clock = RecordedClock()
        let emitted = Emitted()
        var loop = loop(clock: clock, emitted: emitted)
        let beacon = Self.manual("10.0.0.1")
        let id = WatchedGateway(beacon).id
        var expiring = ProbeVerdict()
        expiring.fingerprint = TLSFingerprint(digest: [UInt8](repeating: 0xA, count: 32))
        expiring.notAfter = Date().addingTimeInterval(5 * 86_400)
        var renewed = expiring
        renewed.fingerprint = TLSFingerprint(digest: [UInt8](repeating: 0xB, count: 32))
        for (round, verdict, expected) in [
            (1, expiring, ["appeared", "certificateExpiring", "up"]), (2, expiring, ["appeared", "up"]),
            (3, renewed, ["appeared", "certificateExpiring", "up"]),
        ] {
            loop.receive([beacon], complete: true)
            #expect(loop.due().map(\.id) == [id])
            loop.finished(id, verdict)
            loop.receive([], complete: true)
            clock.advance(Self.policy.forgetAfter)
            loop.advance()
            #expect(emitted.take() == expected.map { "\(id) \($0)" } + ["\(id) disappeared", "\(id) forgotten"], "round \(round)")
        }
    }

    @Test("RecentSet forgets the oldest beyond its capacity")
    func recentSetIsBounded() {
        var set = RecentSet<Int>(capacity: 3)
        #expect([1, 2, 3, 1].map { set.insert($0) } == [true, true, true, false])
        #expect(set.insert(4) && !set.contains(1) && set.contains(2) && set.contains(4), "1 forgotten for 4")
        #expect(set.insert(1) && !set.contains(2), "then 2 for 1")
    }

    @Test("/sd lists the address the last probe connected to, not the first one advertised")
    func serviceDiscoveryNamesTheAddressThatAnswered() throws {
        let clock = RecordedClock()
        let board = WatchBoard()
        var loop = loop(clock: clock, emitted: Emitted(), board: board)
        // Avahi resolved the IPv6 address first; the IPv4 one, where the Gateway listens, after it was announced.
        loop.receive([Self.advertised(["fd99::1"])], complete: true)
        clock.advance(Self.policy.addressSettle)
        loop.advance()
        loop.receive([Self.advertised(["fd99::1", "10.99.0.1"])], complete: true)
        let id = WatchedGateway(Self.advertised([])).id
        #expect(board.snapshot().gateways[id]?.target == "[fd99::1]:18789", "before a probe: the first address")
        #expect(loop.due().map(\.id) == [id])
        var up = ProbeVerdict()
        up.address = IPAddress("10.99.0.1")
        loop.finished(id, up)
        #expect(board.snapshot().gateways[id]?.target == "10.99.0.1:18789")
        let listed = String(decoding: ServiceDiscoveryList.json(board.snapshot()), as: UTF8.self)
        #expect(listed.contains(#""targets":["10.99.0.1:18789"]"#), "\(listed)")
    }

    @Test("a reread config with only a new pin discovers on the same paths; a new manual target or domain does not")
    func rereadConfigKeepsDiscoveryWhenOnlyThePinChanged() throws {
        let machine = MachineResult(
            checks: [], facts: Self.machine, discovery: DiscoverySummary(localBrowsed: false, domains: [], beacons: [], issues: []))
        var request = DiscoveryRequest()
        request.manual = [Endpoint(host: "10.0.0.1", port: 18789)]
        let pinned = (
            Endpoint(host: "10.0.0.1", port: 18789), Pin(TLSFingerprint(digest: [UInt8](repeating: 0xA, count: 32)), source: .remoteConfig)
        )
        let before = WatchSetup(request: request, machine: machine)
        #expect(WatchSetup(request: request, machine: machine, pinned: pinned).discoversTheSame(as: before))
        var moved = request
        moved.manual = [Endpoint(host: "10.0.0.2", port: 18789)]
        #expect(!WatchSetup(request: moved, machine: machine).discoversTheSame(as: before))
        var widened = request
        widened.domains = [try DomainName(validating: "openclaw.internal")]
        #expect(!WatchSetup(request: widened, machine: machine).discoversTheSame(as: before))
    }

    @Test("after discovery starts again, nothing disappears until the new session has said all it knows or the hold runs out")
    func removalsWaitForTheNewSession() {
        let clock = RecordedClock()
        let emitted = Emitted()
        var loop = loop(clock: clock, emitted: emitted)
        let (one, two) = (Self.manual("10.0.0.1"), Self.manual("10.0.0.2"))
        let (first, second) = (WatchedGateway(one).id, WatchedGateway(two).id)
        loop.receive([one, two], complete: true)
        #expect(Set(emitted.take()) == ["\(first) appeared", "\(second) appeared"])

        loop.holdRemovals(for: Self.policy.rediscoverySettle)
        loop.receive([], complete: false)
        loop.receive([one], complete: false)
        #expect(emitted.take().isEmpty, "the new session has not said all it knows: both kept")
        loop.receive([one], complete: true)
        #expect(emitted.take() == ["\(second) disappeared"], "then the one it does not list is gone")

        loop.holdRemovals(for: Self.policy.rediscoverySettle)
        loop.receive([], complete: false)
        loop.advance()
        #expect(emitted.take().isEmpty, "within the hold")
        clock.advance(Self.policy.rediscoverySettle)
        loop.advance()
        #expect(emitted.take() == ["\(first) disappeared"], "a session that never says all it knows holds no longer than the settle")
    }
}
