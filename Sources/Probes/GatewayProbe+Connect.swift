import DNSSD

/// The WebSocket phase: the opening, and the connect exchange on the same WebSocket; then, as
/// OpenClaw's clients do, another connect on a new connection while the Gateway is starting or
/// asks for the older node envelope (`ConnectRetry`), within the budget.
extension GatewayProbe {
    struct WebSocketPhase: Sendable {
        /// The first opening (the layers gw.websocket and gw.protocol judge).
        var opening: PhaseTiming<WebSocketOutcome>
        /// The last answer to connect, timed from the first connection to the last answer.
        var connect: PhaseTiming<ConnectOutcome>?
        /// Whether the credentials went with the last request, and why.
        var decision: CredentialDecision?
        var tries: [ConnectTry] = []
        /// The openings refused with a transient 503 before `opening` (`UpgradeRetry`).
        var refusals: [UpgradeTry] = []
    }

    /// One connection's opening, the answer to its connect request, and whether the credentials went with it.
    typealias Opened = (opening: PhaseTiming<WebSocketOutcome>, answer: ConnectTry?, decision: CredentialDecision?)

    /// `opened`: a connection to make the first opening on, instead of a new one.
    static func websocketPhase(
        _ target: ProbeTarget, _ address: IPAddress, _ clock: ProbeClock, connect: Bool, opened: ProbeConnection? = nil
    ) async -> WebSocketPhase {
        let started = ContinuousClock.now
        let (first, refusals) = await openUntilAdmitted(target, address, clock, plan: connect ? ConnectRetry.Plan() : nil, opened: opened)
        guard var latest = first.answer else { return WebSocketPhase(opening: first.opening, refusals: refusals) }
        var tries = [latest]
        var decision = first.decision
        while let plan = ConnectRetry.next(after: tries, remaining: clock.remaining) {
            if plan.delay > .zero { try? await Task.sleep(for: plan.delay) }
            let again = await openAndConnect(target, address, clock, plan: plan)
            // A connection that gave no answer (the Gateway went away meanwhile) ends the tries.
            guard let answer = again.answer else { break }
            latest = ConnectTry(
                range: answer.range, legacyNodeEnvelope: answer.legacyNodeEnvelope, asDevice: answer.asDevice, outcome: answer.outcome,
                waited: plan.delay)
            tries.append(latest)
            decision = again.decision
        }
        return WebSocketPhase(
            opening: first.opening, connect: PhaseTiming(outcome: latest.outcome, elapsed: clock.elapsed(since: started)),
            decision: decision, tries: tries, refusals: refusals)
    }

    /// One connection: the opening and, with a plan, the connect request. The credentials go
    /// with the request only when the policy allows them on this very connection, decided
    /// after its handshake and before its first byte.
    static func openAndConnect(
        _ target: ProbeTarget, _ address: IPAddress, _ clock: ProbeClock, plan: ConnectRetry.Plan?, opened: ProbeConnection? = nil
    ) async -> Opened {
        var answer: ConnectTry?
        var decision: CredentialDecision?
        let opening = await phase(target, address, clock, opened: opened, failed: WebSocketOutcome.failed) { connection, timeout in
            var request: ConnectRequest?
            if let plan {
                decision = await CredentialGate.decide(target, address, on: connection)
                var made = ConnectRequest(credentials: decision.map(\.sends) == true ? target.credentials : .none)
                // A probe always offers the probe's range; a node the one the plan names.
                if made.asDevice, let range = plan.range { made.range = range }
                made.legacyNodeEnvelope = plan.legacyNodeEnvelope && made.asDevice
                request = made
            }
            let (outcome, exchange) = await WebSocketProbe.open(
                host: hostHeader(target), on: connection, timeout: timeout, connect: request, origin: target.origin)
            if let request, let exchange {
                answer = ConnectTry(
                    range: request.range, legacyNodeEnvelope: request.legacyNodeEnvelope, asDevice: request.asDevice, outcome: exchange,
                    waited: .zero)
            }
            return outcome
        }
        return (opening, answer, answer == nil ? nil : decision)
    }
}
