import DNSSD
import Host
import Logging

/// Probes a Gateway layer by layer within one time budget: TCP to every address, TLS on the
/// first connection that works, then HTTP health, readiness and the WebSocket opening, each
/// on its own connection and all at once (without the HTTP phases, the WebSocket opens on the
/// first connection).
package enum GatewayProbe {
    package struct Phases: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        package static let tcp = Phases(rawValue: 1)
        package static let tls = Phases(rawValue: 2)
        package static let health = Phases(rawValue: 4)
        package static let websocket = Phases(rawValue: 8)
        /// The connect request after the challenge (needs .websocket).
        package static let connect = Phases(rawValue: 16)
        package static let all: Phases = [.tcp, .tls, .health, .websocket, .connect]
    }

    package static func run(_ target: ProbeTarget, budget: Duration, phases: Phases = .all) async -> ProbeReport {
        await run(target, clock: ProbeClock(budget: budget), phases: phases)
    }

    static let logger = Logger(label: "clawnet.probe")

    static func run(_ target: ProbeTarget, clock: ProbeClock, phases: Phases) async -> ProbeReport {
        var report = await probe(target, clock: clock, phases: phases)
        report.localShortage = clock.shortage.value
        return report
    }

    private static func probe(_ target: ProbeTarget, clock: ProbeClock, phases: Phases) async -> ProbeReport {
        var report = ProbeReport(target: target)
        let (attempts, connection) = await connectAny(target, clock: clock)
        report.tcp = attempts
        for attempt in attempts {
            let outcome = LogWord.of(attempt.outcome)
            logger.debug("\(target.label): tcp \(attempt.address) port \(target.port): \(outcome) in \(attempt.elapsed.milliseconds) ms")
        }
        guard var connection, let address = report.connectedAddress else { return report }
        // Without the HTTP phases, the WebSocket opens on the connection TLS was judged on: one
        // handshake per probe instead of two (watch probes so, a thousand Gateways at a time).
        let handOver = phases.contains(.websocket) && !phases.contains(.health)
        if target.tls && (phases.contains(.tls) || phases.contains(.health) || phases.contains(.websocket)) {
            let started = ContinuousClock.now
            let outcome = await connection.startTLS(host: target.host, keyExchange: target.keyExchange, timeout: clock.remaining)
            report.tls = PhaseTiming(outcome: outcome, elapsed: clock.elapsed(since: started))
            logger.debug("\(target.label): tls \(LogWord.of(outcome)) in \(clock.elapsed(since: started).milliseconds) ms")
            guard case .established(let facts) = outcome else {
                connection.close()
                return report
            }
            connection.tls = facts
        }
        if handOver {
            // The only phase left, in this task: no child tasks for phases not asked for.
            report.record(await websocketPhase(target, address, clock, connect: phases.contains(.connect), opened: connection))
        } else {
            connection.close()
            await applicationPhases(&report, phases, address, clock)
        }
        logApplicationPhases(report)
        // Asked in plain HTTP, a TLS server often just hangs up. If one more connection
        // completes a TLS handshake, say so instead of "end of file".
        if !target.tls,
            report.health.map({ !$0.outcome.isResponse }) ?? false || report.websocket.map({ !$0.outcome.reachedServer }) ?? false,
            await answersTLS(target, address, clock)
        {
            report.markWantsTLS()
        }
        return report
    }

    /// /healthz, /readyz and the WebSocket at once, each on its own connection; then, when
    /// /healthz named a proxy and the WebSocket opened, the idle WebSocket. WebSockets one after
    /// the other: a Gateway counts the connections of an address that have not logged in and
    /// refuses past its limit (src/gateway/server/preauth-connection-budget.ts), so a probe holds at most one.
    private static func applicationPhases(
        _ report: inout ProbeReport, _ phases: Phases, _ address: IPAddress, _ clock: ProbeClock
    ) async {
        let target = report.target
        async let health = phases.contains(.health) ? httpPhase("/healthz", target, address, clock) : nil
        async let ready = phases.contains(.health) ? httpPhase("/readyz", target, address, clock) : nil
        async let websocket = phases.contains(.websocket) ? websocketPhase(target, address, clock, connect: phases.contains(.connect)) : nil
        (report.health, report.ready) = await (health, ready)
        if let websocket = await websocket { report.record(websocket) }
        // The idle WebSocket only after the first one opened: never a second upgrade into a
        // refusal (a 429 lockout, a 503 while restarting), one unauthenticated WebSocket at a time.
        guard report.health?.outcome.namesIntermediary == true, case .opened? = report.websocket?.outcome else { return }
        report.idle = await idlePhase(target, address, clock)
    }

    /// The HTTP and WebSocket phases' outcomes, for --verbose.
    private static func logApplicationPhases(_ report: ProbeReport) {
        let label = report.target.label
        for (phase, timing) in [
            ("healthz", report.health.map { LogWord.of($0.outcome) }), ("readyz", report.ready.map { LogWord.of($0.outcome) }),
        ] {
            if let timing { logger.debug("\(label): http /\(phase): \(timing)") }
        }
        if let websocket = report.websocket { logger.debug("\(label): websocket \(LogWord.of(websocket.outcome))") }
        if let idle = report.idle { logger.debug("\(label): idle websocket \(LogWord.of(idle.outcome))") }
        if let connect = report.connect { logger.debug("\(label): connect \(connect)") }
        if let decision = report.credentials { logger.debug("\(label): credentials \(LogWord.of(decision))") }
    }

    /// A second opinion, so it gets at most `tlsCheckLimit`: a TLS server completes a handshake
    /// in milliseconds (a debug build on a busy machine in a second or so), while a plain HTTP
    /// server that waits for a request line never answers one.
    private static func answersTLS(_ target: ProbeTarget, _ address: IPAddress, _ clock: ProbeClock) async -> Bool {
        let timeout = min(clock.remaining, tlsCheckLimit)
        let connection: ProbeConnection
        switch await ProbeConnection.connect(to: address, port: target.port, timeout: timeout) {
        case .success(let opened): connection = opened
        case .failure(let outcome):
            clock.note(outcome)
            return false
        }
        defer { connection.close() }
        if case .established = await connection.startTLS(
            host: target.host, keyExchange: target.keyExchange, timeout: min(clock.remaining, tlsCheckLimit))
        {
            return true
        }
        return false
    }

    static let tlsCheckLimit = Duration.seconds(2)

    /// Probes many targets at once, at most `limit` at a time; reports come back in order.
    /// One budget for all: a target whose turn comes late gets what is left of it, and one
    /// whose turn comes after it is not tried (so hundreds of Gateways cannot stretch the run).
    package static func runAll(_ targets: [ProbeTarget], budget: Duration, limit: Int = 256, phases: Phases = .all) async -> [ProbeReport] {
        let started = ContinuousClock.now
        return await targets.concurrentMap(atMost: limit) { target in
            await run(target, clock: ProbeClock(budget: budget, start: started), phases: phases)
        }
    }

    /// Connects to every address at once; keeps the first in address order that answers.
    private static func connectAny(_ target: ProbeTarget, clock: ProbeClock) async -> ([TCPAttempt], ProbeConnection?) {
        let results = await withTaskGroup(of: (Int, TCPAttempt, ProbeConnection?).self) { group in
            for (index, address) in target.addresses.enumerated() {
                group.addTask {
                    let started = ContinuousClock.now
                    switch await ProbeConnection.connect(to: address, port: target.port, timeout: clock.remaining) {
                    case .success(let connection):
                        return (
                            index, TCPAttempt(address: address, outcome: .connected, elapsed: clock.elapsed(since: started)), connection
                        )
                    case .failure(let outcome):
                        clock.note(outcome)
                        return (index, TCPAttempt(address: address, outcome: outcome, elapsed: clock.elapsed(since: started)), nil)
                    }
                }
            }
            var results: [(Int, TCPAttempt, ProbeConnection?)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }
        }
        let chosen = results.first { $0.2 != nil }?.2
        for (_, _, connection) in results where connection != nil && connection?.channel !== chosen?.channel {
            connection?.close()
        }
        return (results.map(\.1), chosen)
    }

    /// A fresh connection (TCP, then TLS when the Gateway uses it) for one phase, with what
    /// its own handshake showed.
    private static func open(_ target: ProbeTarget, _ address: IPAddress, _ clock: ProbeClock) async -> Result<
        ProbeConnection, ProbeFailure
    > {
        switch await ProbeConnection.connect(to: address, port: target.port, timeout: clock.remaining) {
        case .failure(let outcome):
            clock.note(outcome)
            return .failure(ProbeFailure(message: "could not connect again: \(outcome)"))
        case .success(var connection):
            guard target.tls else { return .success(connection) }
            let outcome = await connection.startTLS(host: target.host, keyExchange: target.keyExchange, timeout: clock.remaining)
            guard case .established(let facts) = outcome else {
                connection.close()
                return .failure(ProbeFailure(message: "TLS failed on a second connection: \(outcome)"))
            }
            connection.tls = facts
            return .success(connection)
        }
    }

    private static func httpPhase(_ path: String, _ target: ProbeTarget, _ address: IPAddress, _ clock: ProbeClock) async -> PhaseTiming<
        HTTPOutcome
    > {
        await phase(target, address, clock, failed: HTTPOutcome.failed) { connection, timeout in
            await HTTPProbe.get(path, host: hostHeader(target), on: connection, timeout: timeout)
        }
    }

    /// One phase on its own connection (`opened`, else a new one), timed from the connect (or
    /// from being handed `opened`) to the outcome.
    static func phase<Outcome>(
        _ target: ProbeTarget, _ address: IPAddress, _ clock: ProbeClock, opened: ProbeConnection? = nil, failed: (String) -> Outcome,
        _ body: (ProbeConnection, Duration) async -> Outcome
    ) async -> PhaseTiming<Outcome> {
        let started = ContinuousClock.now
        let connection: Result<ProbeConnection, ProbeFailure> =
            if let opened { .success(opened) } else { await open(target, address, clock) }
        switch connection {
        case .failure(let failure):
            return PhaseTiming(outcome: failed(failure.message), elapsed: clock.elapsed(since: started))
        case .success(let connection):
            defer { connection.close() }
            let outcome = await body(connection, clock.remaining)
            return PhaseTiming(outcome: outcome, elapsed: clock.elapsed(since: started))
        }
    }

    /// `host:port`, IPv6 literals in brackets and without their zone, as the Host header wants it.
    package static func hostHeader(_ target: ProbeTarget) -> String {
        Endpoint(host: IPAddress(target.host).map { $0.withoutZone.description } ?? target.host, port: target.port).description
    }
}

struct ProbeFailure: Error {
    let message: String
}

extension ProbeReport {
    mutating func record(_ websocket: GatewayProbe.WebSocketPhase) {
        self.websocket = websocket.opening
        connect = websocket.connect
        credentials = websocket.decision
        connectTries = websocket.tries
        upgradeRefusals = websocket.refusals
    }

    /// Phases that got no HTTP answer from a server that turned out to speak TLS: "wants TLS".
    mutating func markWantsTLS() {
        if let health, !health.outcome.isResponse { self.health = PhaseTiming(outcome: .wantsTLS, elapsed: health.elapsed) }
        if let ready, !ready.outcome.isResponse { self.ready = PhaseTiming(outcome: .wantsTLS, elapsed: ready.elapsed) }
        if let websocket, !websocket.outcome.reachedServer { self.websocket = PhaseTiming(outcome: .wantsTLS, elapsed: websocket.elapsed) }
    }
}
