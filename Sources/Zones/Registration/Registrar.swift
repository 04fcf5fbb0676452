import DNSSD
import DNSUpdate
import DNSWire

/// Gateways registered in a zone on its primary server (RFC 2136 UPDATE, signed with TSIG):
/// the one registrar of `zone push` and of `advertise --domain` (`WideAreaRegistration`).
/// It writes exactly the records `zone generate` would (PTR, SRV, TXT, host A/AAAA), reads
/// what is served, plans the difference and sends it. Each step is bounded by what is left of
/// the caller's deadline, so that --timeout bounds a whole command.
package struct Registrar: Sendable {
    package let domain: DomainName
    package let registration: ServiceRegistration
    /// Each step's bound when the caller gives no deadline.
    package static let stepTimeout = Duration.seconds(5)
    /// The least a step gets, however late it starts: enough for one answer on a LAN.
    static let leastStepTimeout = Duration.milliseconds(100)

    package init(domain: DomainName, server: DNSServer, key: TSIGKey?) throws(DNSSDError) {
        self.domain = domain
        registration = ServiceRegistration(
            zone: try DNSName(instance: nil, type: nil, domain: domain),
            service: try DNSName(instance: nil, type: .gateway, domain: domain),
            server: server, key: key, timeout: Self.stepTimeout)
    }

    package var server: DNSServer { registration.server }
    package var zone: DNSName { registration.zone }
    package var service: DNSName { registration.service }

    /// The records of `gateways` in this zone, and notes on them (as `zone generate` writes them).
    package func records(for gateways: [ZoneGateway]) throws(ZoneError) -> (records: [DNSRecord], notes: [ZoneNote]) {
        try ZoneWriter.serviceRecords(ZoneContent(domain: domain, gateways: gateways, nameServerAddresses: []))
    }

    /// What the server has for `records`: AXFR, or (`transfer` false, or transfers refused) the
    /// RRsets one by one.
    package func read(for records: [DNSRecord], transfer: Bool = true, until deadline: ContinuousClock.Instant? = nil)
        async throws(UpdateFailure) -> ServedRecords
    {
        try await bounded(until: deadline).read(for: records, transfer: transfer)
    }

    /// Sends the plan's change sets in order, up to the first that fails.
    package func send(_ plan: UpdatePlan, until deadline: ContinuousClock.Instant? = nil) async -> (applied: Int, failure: UpdateFailure?) {
        await bounded(until: deadline).send(plan)
    }

    /// The registration with what is left of `deadline` as its bound.
    func bounded(until deadline: ContinuousClock.Instant?) -> ServiceRegistration {
        var bounded = registration
        if let deadline { bounded.timeout = max(Self.leastStepTimeout, deadline - .now) }
        return bounded
    }
}
