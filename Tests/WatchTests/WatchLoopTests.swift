import Avahi
import DNSSD
import Discovery
import FoundationEssentials
import Host
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

    static let machine = MachineFacts(
        busAddress: "unix:path=/run/dbus/system_bus_socket", busSocketExists: true,
        avahi: .running(version: "avahi 0.8", hostName: "node.local"), avahiInstalled: true, interfaces: [],
        port5353: PortHolders(sockets: 0, holders: []),
        nsswitchHosts: nil, nssMDNSModules: nil, resolvConf: ResolvConf(path: "/etc/resolv.conf", text: ""), systemdResolved: false,
        config: OpenClawConfig(path: "/nonexistent/openclaw.json"))

    func loop(clock: RecordedClock, emitted: Emitted, board: WatchBoard = WatchBoard()) -> WatchLoop {
        let setup = WatchSetup(
            request: DiscoveryRequest(),
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
        loop.apply(["10.0.0.1", "10.0.0.2", "10.0.0.3"].map(Self.manual))
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

        // The Gateway in flight leaves the roster; its verdict comes after.
        loop.apply(["10.0.0.1", "10.0.0.2", "10.0.0.3"].map(Self.manual).filter { WatchedGateway($0).id != upOne })
        #expect(emitted.take() == ["\(upOne) disappeared"])
        loop.finished(upOne, ProbeVerdict())
        #expect(emitted.take().isEmpty, "a verdict for a Gateway no longer watched makes no event")
        #expect(Set(board.snapshot().gateways.keys) == all.subtracting([upOne]))
        #expect(board.snapshot().probes == 6, "every verdict of a watched Gateway counted, the late one not")
        loop.reloaded()
        #expect(
            Set(loop.due().map(\.id)) == [downOne, third], "after a reread config every Gateway at once; the late verdict freed its slot")
    }
}
