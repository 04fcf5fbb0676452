import CAvahi
import DNSSD
import Glibc
import Host
import Synchronization

/// Asks the LAN, through avahi-daemon, for the addresses of a `.local` host name (an mDNS
/// lookup, like `avahi-resolve -n`), without nsswitch: doctor resolves a `.local` TARGET this
/// way when getaddrinfo cannot (no nss-mdns, or nss-mdns that cannot reach the daemon).
package enum AvahiHostLookup {
    package enum Answer: Sendable, Hashable {
        /// The host answered with these addresses (IPv4 and IPv6, each asked once).
        case found([IPAddress])
        /// No responder answered in time.
        case noAnswer
        /// Avahi could not be asked (no daemon, no bus, a name it cannot take).
        case unavailable(String)
    }

    /// The host's IPv4 and IPv6 address, asked at once; returns within `timeout`, whatever
    /// avahi-daemon does, and at once when its task is cancelled (with what it has).
    package static func addresses(of host: String, timeout: Duration) async -> Answer {
        let lookup = Lookup(host: host)
        lookup.start()
        return await withDeadline(timeout) { await lookup.outcome.value(onCancel: { lookup.deliver() }) }.value
    }

    /// One conversation with avahi-daemon on an AvahiLoop: one resolver per address family.
    ///
    /// Threading contract, hence `@unchecked Sendable`: `client` is written only in the loop's
    /// setup (poll locked) and freed only in its teardown (poll thread stopped); resolver
    /// callbacks run on the poll thread. The state is behind a mutex, so `deliver` (both families
    /// answered, a failure, the timeout or a cancellation) may run on any thread; the first ends it.
    private final class Lookup: @unchecked Sendable {
        private struct State {
            var found: [IPAddress] = []
            var answered = 0
            var unavailable: String?
            var delivered = false
        }

        private static let families = [AvahiProtocol(AVAHI_PROTO_INET), AvahiProtocol(AVAHI_PROTO_INET6)]
        private let host: String
        private let state = Mutex(State())
        /// What the conversation found, once it ends.
        let outcome = Latch<Answer>()
        private let loop = AvahiLoop()
        private var client: OpaquePointer?

        init(host: String) {
            self.host = host
        }

        func start() {
            guard let loop else { return fail("could not create an Avahi event loop") }
            loop.start { [self] running in setUp(loop: loop, running: running) }
        }

        /// On a blocking thread, the poll locked.
        private func setUp(loop: AvahiLoop, running: Bool) {
            guard running else { return fail("could not start the Avahi event loop thread") }
            var error: Int32 = 0
            guard let client = avahi_client_new(loop.api, AvahiClientFlags(0), { _, _, _ in }, nil, &error) else {
                return fail(AvahiDiagnosis.message(for: error))
            }
            self.client = client
            let userdata = Unmanaged.passUnretained(self).toOpaque()
            for family in Self.families {
                let resolver = avahi_host_name_resolver_new(
                    client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), host, family, AvahiLookupFlags(0),
                    { resolver, interface, _, event, _, address, _, userdata in
                        let lookup = Unmanaged<Lookup>.fromOpaque(userdata!).takeUnretainedValue()
                        let name = AvahiBrowseSession.interfaceName(interface)
                        let found =
                            event == AVAHI_RESOLVER_FOUND ? address.flatMap { AvahiBrowseSession.ipAddress($0, interfaceName: name) } : nil
                        lookup.answer(found)
                        avahi_host_name_resolver_free(resolver)
                    }, userdata)
                if resolver == nil { return fail(AvahiDiagnosis.message(for: avahi_client_errno(client))) }
            }
        }

        private func answer(_ address: IPAddress?) {
            let complete = state.withLock { state in
                if let address { state.found.append(address) }
                state.answered += 1
                return state.answered == Self.families.count
            }
            if complete { deliver() }
        }

        private func fail(_ message: String) {
            state.withLock { $0.unavailable = $0.unavailable ?? message }
            deliver()
        }

        /// Ends the conversation (both answered, a failure, the timeout or a cancellation).
        func deliver() {
            let taken = state.withLock { state -> Answer? in
                guard !state.delivered else { return nil }
                state.delivered = true
                if !state.found.isEmpty { return .found(state.found) }
                return state.unavailable.map(Answer.unavailable) ?? .noAnswer
            }
            guard let taken else { return }
            outcome.deliver(taken)
            // Resolvers still pending are freed with the client, after the poll thread stopped.
            loop?.stop { [self] in
                if let client { avahi_client_free(client) }
            }
        }
    }
}
