import DNSClient
import DNSSD
import DNSWire

/// One service type's records in one zone on its primary server: read what is served, plan
/// the change sets, send them. `zone push` and `advertise --domain` both work through it;
/// reading and sending are separate steps so a caller (or a test) can act between them.
package struct ServiceRegistration: Sendable {
    package let zone: DNSName
    package let service: DNSName
    package let server: DNSServer
    package let key: TSIGKey?
    /// Bounds each transfer, question and UPDATE (a caller with a deadline lowers it as time passes).
    package var timeout: Duration
    /// TSIG's clock: seconds since the epoch (tests move it to make a skew).
    package var clock: @Sendable () -> UInt64 = unixNow
    /// What the records read may hold (tests lower it to pass it with a small zone).
    package var bounds = RecordStore.Bounds.zone

    package init(zone: DNSName, service: DNSName, server: DNSServer, key: TSIGKey?, timeout: Duration) {
        self.zone = zone
        self.service = service
        self.server = server
        self.key = key
        self.timeout = timeout
    }

    package var planner: ChangePlanner { ChangePlanner(zone: zone, service: service) }

    /// What the server has for these records: AXFR, or (`transfer` false, or transfers
    /// refused) the RRsets of the service type and of the names in `desired`.
    package func read(for desired: [DNSRecord], transfer: Bool = true) async throws(UpdateFailure) -> ServedRecords {
        let (instances, hosts) = Self.names(in: desired, service: service)
        let client = DNSClient(options: .init(within: timeout))
        do throws(UpdateFailure) {
            let served = try await ZoneReader(server: server, key: key, timeout: timeout, bounds: bounds, client: client, clock: clock)
                .read(zone: zone, service: service, instances: instances, hosts: hosts, transfer: transfer)
            await client.shutdown()
            return served
        } catch {
            await client.shutdown()
            throw error
        }
    }

    /// The instances (PTR targets of `service`) and hosts (A, AAAA owners) `desired` names.
    package static func names(in desired: [DNSRecord], service: DNSName) -> (instances: [DNSName], hosts: [DNSName]) {
        var instances: [DNSName] = []
        var hosts: [DNSName] = []
        for record in desired {
            switch record.data {
            case .ptr(let target) where record.name == service: instances.append(target)
            case .a, .aaaa: hosts.append(record.name)
            default: break
            }
        }
        return (instances, hosts)
    }

    /// The zone's serial as the server serves it now: one SOA question over TCP, signed with the
    /// key as an UPDATE is, answered with authority (`UpdateSender.serial`). A push trusts its
    /// ledger only while this is the serial the ledger was written at.
    package func serial() async throws(UpdateFailure) -> UInt32 {
        try await UpdateSender(server: server, key: key, timeout: timeout, clock: clock).serial(of: zone)
    }

    /// Sends the plan's change sets in order; stops at the first that fails. Returns how many
    /// were applied before a failure (all of them when nothing failed) and the failure.
    package func send(_ plan: UpdatePlan) async -> (applied: Int, failure: UpdateFailure?) {
        let sender = UpdateSender(server: server, key: key, timeout: timeout, clock: clock)
        for (index, changeSet) in plan.changeSets.enumerated() {
            do throws(UpdateFailure) { try await sender.send(changeSet) } catch {
                return (index, error)
            }
        }
        return (plan.changeSets.count, nil)
    }
}
