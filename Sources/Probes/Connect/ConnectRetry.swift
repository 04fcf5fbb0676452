/// One connect request on its own connection, and the Gateway's answer.
package struct ConnectTry: Sendable, Hashable {
    package let range: ProtocolRange
    /// The released v3 node host's envelope (no deviceFamily).
    package let legacyNodeEnvelope: Bool
    /// Whether the request showed a device identity.
    package let asDevice: Bool
    package let outcome: ConnectOutcome
    /// How long doctor waited before this try (what the Gateway asked for).
    package let waited: Duration

    package init(range: ProtocolRange, legacyNodeEnvelope: Bool = false, asDevice: Bool = false, outcome: ConnectOutcome, waited: Duration)
    {
        self.range = range
        self.legacyNodeEnvelope = legacyNodeEnvelope
        self.asDevice = asDevice
        self.outcome = outcome
        self.waited = waited
    }

    package var rejection: ConnectError? {
        if case .rejected(let error, _) = outcome { return error }
        return nil
    }
}

/// What OpenClaw's clients do after a connect that did not end in hello-ok, done within
/// doctor's budget (packages/gateway-client/src/client.ts handleConnectRequestFailure):
/// - a Gateway that is starting (UNAVAILABLE, retryable, details.reason startup-sidecars) is
///   asked again after its retryAfterMs, held to 100...2000 ms
///   (packages/gateway-protocol/src/startup-unavailable.ts resolveGatewayStartupRetryAfterMs);
/// - one that drains for a restart, a suspension or a close (UNAVAILABLE with details.reason
///   gateway-restarting, gateway-suspending, gateway-closing: restart-unavailable.ts), or that
///   closes with 1012 (service restart) or 1013 (try again later) without answering, is asked
///   again after its retryAfterMs or the client's first reconnect backoff (1 s), held the same;
/// - a refusal for too many failed attempts (AUTH_RATE_LIMITED) is never asked again: another
///   try would only extend the lockout;
/// - a node host refused with expectedProtocol 3 asks again as the released v3 node host did
///   (shouldRetryWithLegacyNodeProtocol);
/// - with a device, a pairing refusal is asked once more, to see whether the Gateway keeps one
///   request for the device (the same requestId) or makes a new one on every try.
enum ConnectRetry {
    struct Plan: Sendable {
        var range: ProtocolRange?
        var legacyNodeEnvelope = false
        var delay: Duration = .zero
    }

    /// A Gateway starting for longer than the budget is asked at most this often.
    static let maxTries = 16
    /// A try needs a connection, a TLS handshake and an answer: no point starting one with less left.
    static let minimumTryTime = Duration.milliseconds(250)
    /// GATEWAY_STARTUP_RETRY_AFTER_MS, and the bounds of resolveGatewayStartupRetryAfterMs.
    static let startupDefaultDelay = Duration.milliseconds(500)
    static let startupDelayBounds = Duration.milliseconds(100)...Duration.milliseconds(2000)
    /// GATEWAY_STARTUP_UNAVAILABLE_REASON.
    static let startupReason = "startup-sidecars"

    /// The client's first reconnect backoff (backoffMs in packages/gateway-client/src/client.ts).
    static let reconnectDelay = Duration.seconds(1)

    /// The next try after `tries` (the last one's answer decides), or nil when there is none.
    static func next(after tries: [ConnectTry], remaining: Duration) -> Plan? {
        guard let last = tries.last, tries.count < maxTries else { return nil }
        if let delay = last.outcome.pause.map(Self.delay) {
            let plan = Plan(range: last.range, legacyNodeEnvelope: last.legacyNodeEnvelope, delay: delay)
            return remaining >= plan.delay + minimumTryTime ? plan : nil
        }
        guard let error = last.rejection, error.detailCode != .authRateLimited else { return nil }
        let plan: Plan
        if last.asDevice, !last.legacyNodeEnvelope, error.isProtocolMismatch,
            error.expectedProtocol == ProtocolRange.previousVersion, last.range == .node
        {
            plan = Plan(range: .legacyNode, legacyNodeEnvelope: true)
        } else if last.asDevice, error.pairingReason != nil, tries.filter({ $0.rejection?.pairingReason != nil }).count == 1 {
            plan = Plan(range: last.range, legacyNodeEnvelope: last.legacyNodeEnvelope)
        } else {
            return nil
        }
        return remaining >= plan.delay + minimumTryTime ? plan : nil
    }

    /// The wait a pausing Gateway asks for, held to 100...2000 ms.
    static func delay(_ pause: GatewayPause) -> Duration {
        let asked: Duration
        switch pause {
        case .starting(let retryAfterMs): asked = retryAfterMs.map { .milliseconds($0) } ?? startupDefaultDelay
        case .draining(_, let retryAfterMs): asked = retryAfterMs.map { .milliseconds($0) } ?? reconnectDelay
        case .closed: asked = reconnectDelay
        }
        return min(max(asked, startupDelayBounds.lowerBound), startupDelayBounds.upperBound)
    }
}

/// A Gateway that says "not now" to a connect: starting, draining, or closing the socket with
/// 1012 or 1013 before it answered. Clients ask again (`ConnectRetry`).
package enum GatewayPause: Sendable, Hashable {
    /// UNAVAILABLE, retryable, details.reason startup-sidecars (startup-unavailable.ts).
    case starting(retryAfterMs: Int?)
    /// UNAVAILABLE with details.reason gateway-restarting, gateway-suspending or gateway-closing.
    case draining(Drain, retryAfterMs: Int?)
    /// Closed with 1012 (service restart) or 1013 (try again later) without an answer.
    case closed(code: UInt16)

    /// restart-unavailable.ts: GATEWAY_RESTART_UNAVAILABLE_REASON, GATEWAY_SUSPEND_UNAVAILABLE_REASON,
    /// GATEWAY_CLOSING_UNAVAILABLE_REASON.
    package enum Drain: String, Sendable, Hashable, CaseIterable {
        case restarting = "gateway-restarting"
        case suspending = "gateway-suspending"
        case closing = "gateway-closing"
    }

    /// RFC 6455's service restart, and try again later.
    package static let restartCloseCodes: Set<UInt16> = [1012, 1013]

    /// Whether this is the Gateway's startup (the others are a running Gateway going away).
    package var isStartup: Bool {
        if case .starting = self { return true }
        return false
    }
}

extension ConnectError {
    /// What the refusal says about a pausing Gateway, or nil when it says something else.
    package var pause: GatewayPause? {
        guard code == .unavailable else { return nil }
        if retryable == true, reason == ConnectRetry.startupReason { return .starting(retryAfterMs: retryAfterMs) }
        return reason.flatMap(GatewayPause.Drain.init(rawValue:)).map { .draining($0, retryAfterMs: retryAfterMs) }
    }

    /// UNAVAILABLE while the Gateway's startup sidecars are pending: clients retry.
    package var isStartupUnavailable: Bool { pause?.isStartup == true }
}

extension ConnectOutcome {
    /// The pause this answer says, if it says one.
    package var pause: GatewayPause? {
        switch self {
        case .rejected(let error, _): error.pause
        case .closed(let close): close.code.flatMap { GatewayPause.restartCloseCodes.contains($0) ? GatewayPause.closed(code: $0) : nil }
        default: nil
        }
    }
}
