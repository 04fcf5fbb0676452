import CAvahi
import DNSSD
import Host

/// Whether avahi-daemon answers over D-Bus, and its version: one short, synchronous
/// conversation on one thread (the poll thread is never started).
package enum AvahiStatus: Sendable, Equatable {
    case running(version: String, hostName: String)
    case unavailable(DiscoveryIssue)

    /// Asked from a thread of its own (BlockingThreads): the conversation is a blocking D-Bus
    /// round trip, never for the cooperative pool.
    package static func query(for purpose: AvahiPurpose = .browse) async -> AvahiStatus {
        await BlockingThreads.shared.value { blockingQuery(for: purpose) }
    }

    /// The conversation on the calling thread, which it blocks: only for a thread that may block
    /// (MachineFacts.gather runs on BlockingThreads), never for the cooperative pool.
    package static func blockingQuery(for purpose: AvahiPurpose = .browse) -> AvahiStatus {
        guard let poll = avahi_threaded_poll_new(), let api = avahi_threaded_poll_get(poll) else {
            return .unavailable(DiscoveryIssue(source: .mdns, kind: .daemonMissing, .eventLoopFailed))
        }
        defer { avahi_threaded_poll_free(poll) }
        var error: Int32 = 0
        guard let client = avahi_client_new(api, AvahiClientFlags(0), { _, _, _ in }, nil, &error) else {
            return .unavailable(AvahiDiagnosis.issue(for: error, purpose: purpose))
        }
        defer { avahi_client_free(client) }
        let version = avahi_client_get_version_string(client).map { String(cString: $0) } ?? "avahi (version unknown)"
        let host = avahi_client_get_host_name_fqdn(client).map { String(cString: $0) } ?? "?"
        return .running(version: version, hostName: host)
    }
}
