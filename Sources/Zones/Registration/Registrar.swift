import DNSSD
import DNSUpdate
import DNSWire

/// Gateways registered in a zone on its primary server (RFC 2136 UPDATE, signed with TSIG):
/// the one registrar of `zone push` and of `advertise --domain` (`WideAreaRegistration`).
/// It writes exactly the records `zone generate` would (PTR, SRV, TXT, host A/AAAA), reads
/// what is served, plans the difference and sends it. Each step is bounded by what is left of
/// the caller's deadline, so that --timeout bounds a whole command.
public struct Registrar: Sendable {
    public let domain: DomainName
    public let registration: ServiceRegistration
    /// Each step's bound when the caller gives no deadline.
    public static let stepTimeout = Duration.seconds(5)
    /// The least a step gets, however late it starts: enough for one answer on a LAN.
    static let leastStepTimeout = Duration.milliseconds(100)

    public init(domain: DomainName, server: DNSServer, key: TSIGKey?) throws(DNSSDError) {
        self.domain = domain
        registration = ServiceRegistration(
            zone: try DNSName(instance: nil, type: nil, domain: domain),
            service: try DNSName(instance: nil, type: .gateway, domain: domain),
            server: server, key: key, timeout: Self.stepTimeout)
    }

    public var server: DNSServer { registration.server }
    public var zone: DNSName { registration.zone }
    public var service: DNSName { registration.service }

    /// The records of `gateways` in this zone, and notes on them (as `zone generate` writes them).
    public func records(for gateways: [ZoneGateway]) throws(ZoneError) -> (records: [DNSRecord], notes: [String]) {
        try ZoneWriter.serviceRecords(ZoneContent(domain: domain, gateways: gateways, nameServerAddresses: []))
    }

    /// What the server has for `records`: AXFR, or (`transfer` false, or transfers refused) the
    /// RRsets one by one.
    public func read(for records: [DNSRecord], transfer: Bool = true, until deadline: ContinuousClock.Instant? = nil)
        async throws(UpdateFailure) -> ServedRecords
    {
        try await bounded(until: deadline).read(for: records, transfer: transfer)
    }

    /// Sends the plan's change sets in order, up to the first that fails.
    public func send(_ plan: UpdatePlan, until deadline: ContinuousClock.Instant? = nil) async -> (applied: Int, failure: UpdateFailure?) {
        await bounded(until: deadline).send(plan)
    }

    /// The registration with what is left of `deadline` as its bound.
    func bounded(until deadline: ContinuousClock.Instant?) -> ServiceRegistration {
        var bounded = registration
        if let deadline { bounded.timeout = max(Self.leastStepTimeout, deadline - .now) }
        return bounded
    }
}
