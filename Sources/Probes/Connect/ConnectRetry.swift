/// One connect request on its own connection, and the Gateway's answer.
public struct ConnectTry: Sendable, Hashable {
    public let range: ProtocolRange
    /// The released v3 node host's envelope (no deviceFamily).
    public let legacyNodeEnvelope: Bool
    /// Whether the request showed a device identity.
    public let asDevice: Bool
    public let outcome: ConnectOutcome
    /// How long doctor waited before this try (what the Gateway asked for).
    public let waited: Duration

    public init(range: ProtocolRange, legacyNodeEnvelope: Bool = false, asDevice: Bool = false, outcome: ConnectOutcome, waited: Duration) {
        self.range = range
        self.legacyNodeEnvelope = legacyNodeEnvelope
        self.asDevice = asDevice
        self.outcome = outcome
        self.waited = waited
    }

    public var rejection: ConnectError? {
        if case .rejected(let error, _) = outcome { return error }
        return nil
    }
}

/// What OpenClaw's clients do after a connect that did not end in hello-ok, done within
/// doctor's budget (packages/gateway-client/src/client.ts handleConnectRequestFailure):
/// - a Gateway that is starting (UNAVAILABLE, retryable, details.reason startup-sidecars) is
///   asked again after its retryAfterMs, held to 100...2000 ms
///   (packages/gateway-protocol/src/startup-unavailable.ts resolveGatewayStartupRetryAfterMs);
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

    /// The next try after `tries` (the last one's answer decides), or nil when there is none.
    static func next(after tries: [ConnectTry], remaining: Duration) -> Plan? {
        guard let last = tries.last, tries.count < maxTries, let error = last.rejection else { return nil }
        let plan: Plan
        if let delay = startupDelay(error) {
            plan = Plan(range: last.range, legacyNodeEnvelope: last.legacyNodeEnvelope, delay: delay)
        } else if last.asDevice, !last.legacyNodeEnvelope, error.isProtocolMismatch,
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

    /// The wait a starting Gateway asks for, or nil when the error is not that one.
    static func startupDelay(_ error: ConnectError) -> Duration? {
        guard error.code == .unavailable, error.retryable == true, error.reason == startupReason else { return nil }
        let asked = error.retryAfterMs.map { Duration.milliseconds($0) } ?? startupDefaultDelay
        return min(max(asked, startupDelayBounds.lowerBound), startupDelayBounds.upperBound)
    }
}

extension ConnectError {
    /// UNAVAILABLE while the Gateway's startup sidecars are pending: clients retry.
    public var isStartupUnavailable: Bool { ConnectRetry.startupDelay(self) != nil }
}
