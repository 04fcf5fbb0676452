import DNSSD
import NIOCore
import NIOEmbedded
import NIOPosix
import Testing

@testable import Probes

/// Issue 30's idle flood, from one address: about 520 TCP connections that sent nothing took
/// every place of `advertise --serve`'s stand-in, and every other client was reset. Each
/// address may hold only so many connections that have not logged in, and when every place is
/// taken a newcomer of another address takes the place of the oldest waiting connection of the
/// address that holds the most. Real sockets on loopback: the flood comes from 127.0.0.2 (and
/// .3, .4, .5), the client from 127.0.0.1, all to 127.0.0.1.
@Suite("the stand-in under idle connections from one address")
struct StandInFloodTests {
    let budget = Duration.seconds(20)

    /// `count` TCP connections from `source` to 127.0.0.1:`port` that send nothing.
    static func idle(_ count: Int, from source: String, to port: Int) async throws -> [any Channel] {
        var held: [any Channel] = []
        for _ in 0..<count {
            let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(
                to: try SocketAddress(ipAddress: source, port: 0))
            held.append(try await bootstrap.connect(host: "127.0.0.1", port: port).get())
        }
        return held
    }

    /// GET /healthz from 127.0.0.1, as doctor asks it.
    func health(_ port: Int) async -> String {
        switch await ProbeConnection.connect(to: IPAddress("127.0.0.1")!, port: port, timeout: budget) {
        case .failure(let outcome): return "TCP: \(outcome)"
        case .success(let connection):
            defer { connection.close() }
            let answer = await HTTPProbe.get("/healthz", host: "127.0.0.1:\(port)", on: connection, timeout: budget)
            if case .response(200, _, _, _) = answer { return "200" }
            return "HTTP: \(answer)"
        }
    }

    @Test("60 silent connections from 127.0.0.2 against 24 places: it holds 8 of them, and 127.0.0.1 is served")
    func oneAddressCapped() async throws {
        let limits = StandInLimits(connections: 24, waitingPerAddress: 8)
        let gateway = try await StandInGateway.start(host: "127.0.0.1", port: 0, identity: nil, limits: limits)
        let flood = try await Self.idle(60, from: "127.0.0.2", to: gateway.port)
        defer { flood.forEach { $0.close(promise: nil) } }
        let answer = await health(gateway.port)
        #expect(answer == "200", "127.0.0.1 with 127.0.0.2's flood: \(answer)")
        // Accepted in order: the health request came after every connection of the flood.
        let waiting = gateway.budget.waiting("127.0.0.2")
        #expect(waiting <= 8 && gateway.budget.count <= 24, "127.0.0.2 holds \(waiting), all \(gateway.budget.count)")
        await gateway.stop()
    }

    @Test("every place taken by four flooding addresses: a client of a fifth takes the place of the oldest of the one holding most")
    func fullTakesFromTheLargest() async throws {
        let limits = StandInLimits(connections: 24, waitingPerAddress: 8)
        let gateway = try await StandInGateway.start(host: "127.0.0.1", port: 0, identity: nil, limits: limits)
        var flood: [any Channel] = []
        defer { flood.forEach { $0.close(promise: nil) } }
        for source in ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"] {
            flood += try await Self.idle(8, from: source, to: gateway.port)
        }
        let answer = await health(gateway.port)
        #expect(answer == "200", "127.0.0.1 with every place taken: \(answer)")
        #expect(gateway.budget.count <= 24, "holds \(gateway.budget.count)")
        await gateway.stop()
    }

    @Test("every place taken by 30 addresses holding one each (issue 30's ~250 addresses): a client of another still gets in")
    func manyAddressesGiveWay() async throws {
        let limits = StandInLimits(connections: 24, waitingPerAddress: 8)
        let gateway = try await StandInGateway.start(host: "127.0.0.1", port: 0, identity: nil, limits: limits)
        var flood: [any Channel] = []
        defer { flood.forEach { $0.close(promise: nil) } }
        for host in 1...30 { flood += try await Self.idle(1, from: "127.0.1.\(host)", to: gateway.port) }
        let answer = await health(gateway.port)
        #expect(answer == "200", "127.0.0.1 with every place taken by one connection of each of 30 addresses: \(answer)")
        #expect(gateway.budget.count <= 24, "holds \(gateway.budget.count)")
        await gateway.stop()
    }

    @Test(
        "the budget: past an address's limit its own oldest goes; when full, the largest address's oldest, else the oldest of all; logged in stays"
    )
    func budgetOrder() {
        let budget = StandInBudget(limits: StandInLimits(connections: 4, waitingPerAddress: 2))
        let channels = (0..<8).map { _ in EmbeddedChannel() }
        func admit(_ index: Int, _ address: String) -> String {
            switch budget.admit(channels[index], from: address) {
            case .refused: return "refused"
            case .admitted(nil): return "admitted"
            case .admitted(let evicted?): return "evicted \(channels.firstIndex { $0 === evicted } ?? -1)"
            }
        }
        #expect([admit(0, "a"), admit(1, "a")] == ["admitted", "admitted"])
        #expect(admit(2, "a") == "evicted 0", "a's own oldest makes room past its limit")
        #expect([admit(3, "b"), admit(4, "c")] == ["admitted", "admitted"], "four places: a holds 2, b 1, c 1")
        #expect(admit(5, "d") == "evicted 1", "full: d takes a's oldest waiting place")
        budget.loggedIn(channels[3])
        budget.loggedIn(channels[4])
        #expect(admit(6, "c") == "evicted 2", "full, no address holds more waiting ones than c would: the oldest waiting of all")
        #expect(budget.count == 4 && budget.waiting("a") == 0 && budget.waiting("c") == 1, "\(budget.count)")
        budget.loggedIn(channels[5])
        budget.loggedIn(channels[6])
        #expect(admit(7, "e") == "refused", "every place logged in")
        budget.connectionClosed(channels[3])
        #expect(admit(7, "e") == "admitted", "a closed place is free")
    }
}
