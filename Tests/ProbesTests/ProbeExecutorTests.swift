import DNSSD
import NIOCore
import NIOPosix
import NIOSupport
import Testing

@testable import Probes

/// Watch runs its probes with an event loop as their executor preference: the connection is
/// made on that loop and every phase resumes there (no hand-off to the cooperative pool).
/// Against clawnet's own stand-in Gateway on 127.0.0.1.
@Suite("Probes with an event loop as executor", .timeLimit(.minutes(2)))
struct ProbeExecutorTests {
    /// The stand-in answers at once; the budget only has to outlast a loaded machine.
    let budget = Duration.seconds(30)

    @Test("the connection is made on the preferred loop, and the probe resumes on it after TLS")
    func connectsOnItsLoop() async throws {
        let gateway = try await StandInGateway.start(host: "127.0.0.1", port: 0, identity: try StandInIdentity.make())
        defer { Task { await gateway.stop() } }
        // A loop of its own, not one of the singleton's that the connection would use anyway.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let (sameLoop, afterConnect, afterTLS, outcome) = await withTaskExecutorPreference(EventLoopTaskExecutor(loop)) {
            guard
                case .success(var connection) = await ProbeConnection.connect(
                    to: IPAddress("127.0.0.1")!, port: gateway.port, timeout: budget)
            else { return (false, false, false, TLSOutcome?.none) }
            defer { connection.close() }
            let afterConnect = loop.inEventLoop
            let outcome = await connection.startTLS(host: "127.0.0.1", keyExchange: .classical, timeout: budget)
            connection.tls = nil
            return (connection.channel.eventLoop === loop, afterConnect, loop.inEventLoop, outcome)
        }
        try await group.shutdownGracefully()
        #expect(sameLoop, "the channel is on another loop")
        #expect(afterConnect && afterTLS, "resumed on the loop after connect: \(afterConnect), after TLS: \(afterTLS)")
        guard case .established(let facts)? = outcome else {
            Issue.record("TLS: \(String(describing: outcome))")
            return
        }
        #expect(facts.fingerprint == gateway.fingerprint)
    }

    @Test("watch's probe (TCP, TLS, the WebSocket and connect) on one loop: every layer answers, as from the pool")
    func watchProbeOnItsLoop() async throws {
        let gateway = try await StandInGateway.start(host: "127.0.0.1", port: 0, identity: try StandInIdentity.make())
        defer { Task { await gateway.stop() } }
        var watched = ProbeTarget(
            label: "127.0.0.1:\(gateway.port)", host: "127.0.0.1", addresses: [IPAddress("127.0.0.1")!], port: gateway.port, tls: true)
        watched.keyExchange = .classical
        let phases: GatewayProbe.Phases = [.tcp, .tls, .websocket, .connect]
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let (onLoop, report) = await withTaskExecutorPreference(EventLoopTaskExecutor(loop)) {
            let report = await GatewayProbe.run(watched, budget: budget, phases: phases)
            return (loop.inEventLoop, report)
        }
        let pooled = await GatewayProbe.run(watched, budget: budget, phases: phases)
        #expect(onLoop, "the probe ended off its loop")
        #expect(report.tlsFacts?.fingerprint == gateway.fingerprint, "tls: \(String(describing: report.tls))")
        let (opening, pooledOpening) = (try #require(report.websocket), try #require(pooled.websocket))
        if case .opened = opening.outcome {} else { Issue.record("the WebSocket did not open: \(opening)") }
        #expect(caseName(opening.outcome) == caseName(pooledOpening.outcome), "on the loop: \(opening), from the pool: \(pooledOpening)")
        let (connect, pooledConnect) = (try #require(report.connect), try #require(pooled.connect))
        #expect(caseName(connect.outcome) == caseName(pooledConnect.outcome), "on the loop: \(connect), from the pool: \(pooledConnect)")
    }

    /// An outcome's case, without its payload (times and nonces differ from probe to probe).
    func caseName(_ outcome: Any) -> String {
        Mirror(reflecting: outcome).children.first?.label ?? "\(outcome)"
    }
}
