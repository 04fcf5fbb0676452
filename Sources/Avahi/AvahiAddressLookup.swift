import CAvahi
import DNSSD
import Glibc
import Host
import Synchronization

/// Asks the LAN, through avahi-daemon, which `.local` host answers for an address (an mDNS
/// reverse lookup, like `avahi-resolve -a`). Doctor uses it to tell "multicast does not
/// cross the network" (no answer from the Gateway host) from "multicast works but no
/// Gateway advertises" (the host answers, no beacon).
package enum AvahiAddressLookup {
    package enum Answer: Sendable, Hashable {
        /// The host's mDNS responder answered with this name.
        case name(String)
        /// No responder answered in time.
        case noAnswer
        /// Avahi could not be asked (no daemon, a bad address).
        case unavailable(String)
    }

    /// Looks all `addresses` up at once; returns within `timeout`, whatever avahi-daemon does,
    /// and at once when its task is cancelled (a conversation still starting then is ended once
    /// it has started).
    package static func names(of addresses: [IPAddress], timeout: Duration) async -> [IPAddress: Answer] {
        guard !addresses.isEmpty else { return [:] }
        let lookup = Lookup(addresses: addresses)
        lookup.start()
        return await withDeadline(timeout) { await lookup.outcome.value(onCancel: { lookup.deliver() }) }.value
    }

    /// One conversation with avahi-daemon on an AvahiLoop.
    ///
    /// Threading contract, hence `@unchecked Sendable`: `client` and `boxes` are written only in
    /// the loop's setup (poll locked) and freed only in its teardown (poll thread stopped);
    /// resolver callbacks run on the poll thread. The answers are behind a mutex, so `deliver` (all
    /// answered, the timeout or a cancellation) may run on any thread; the first ends it.
    private final class Lookup: @unchecked Sendable {
        private struct State {
            var answers: [IPAddress: Answer] = [:]
            var delivered = false
        }

        private let addresses: [IPAddress]
        private let state = Mutex(State())
        /// Each address's answer, once the conversation ends.
        let outcome = Latch<[IPAddress: Answer]>()
        private let loop = AvahiLoop()
        private var client: OpaquePointer?
        /// The resolvers' userdata; kept until the client (and its resolvers) is freed.
        private var boxes: [Box] = []

        init(addresses: [IPAddress]) {
            self.addresses = addresses
        }

        func start() {
            guard let loop else { return answerAll(.unavailable("could not create an Avahi event loop")) }
            loop.start { [self] running in setUp(loop: loop, running: running) }
        }

        /// On a blocking thread, the poll locked.
        private func setUp(loop: AvahiLoop, running: Bool) {
            guard running else { return answerAll(.unavailable("could not start the Avahi event loop thread")) }
            var error: Int32 = 0
            guard let client = avahi_client_new(loop.api, AvahiClientFlags(0), { _, _, _ in }, nil, &error) else {
                return answerAll(.unavailable(AvahiDiagnosis.message(for: error)))
            }
            self.client = client
            for address in addresses {
                var raw = AvahiAddress()
                guard avahi_address_parse(address.withoutZone.description, AvahiProtocol(AVAHI_PROTO_UNSPEC), &raw) != nil else {
                    answer(address, .unavailable("Avahi cannot read \(address)"))
                    continue
                }
                // The callback's own address argument loses a link-local address's interface:
                // the box says which address was asked.
                let box = Box(lookup: self, address: address)
                boxes.append(box)
                let interface = address.zone.map { AvahiIfIndex(if_nametoindex($0)) } ?? AvahiIfIndex(AVAHI_IF_UNSPEC)
                if avahi_address_resolver_new(
                    client, interface, AvahiProtocol(AVAHI_PROTO_UNSPEC), &raw, AvahiLookupFlags(0),
                    { resolver, _, _, event, _, name, _, userdata in
                        let box = Unmanaged<Box>.fromOpaque(userdata!).takeUnretainedValue()
                        box.lookup.answer(
                            box.address, event == AVAHI_RESOLVER_FOUND ? name.map { .name(String(cString: $0)) } ?? .noAnswer : .noAnswer)
                        avahi_address_resolver_free(resolver)
                    }, Unmanaged.passUnretained(box).toOpaque()) == nil
                {
                    answer(address, .unavailable(AvahiDiagnosis.message(for: avahi_client_errno(client))))
                }
            }
        }

        private func answer(_ address: IPAddress, _ answer: Answer) {
            let complete = state.withLock { state in
                if state.answers[address] == nil { state.answers[address] = answer }
                return state.answers.count == addresses.count
            }
            if complete { deliver() }
        }

        private func answerAll(_ answer: Answer) {
            for address in addresses { self.answer(address, answer) }
        }

        /// Ends the conversation (all answered, the timeout or a cancellation): the rest had no answer.
        func deliver() {
            let taken = state.withLock { state -> [IPAddress: Answer]? in
                guard !state.delivered else { return nil }
                state.delivered = true
                for address in addresses where state.answers[address] == nil { state.answers[address] = .noAnswer }
                return state.answers
            }
            guard let taken else { return }
            outcome.deliver(taken)
            // Resolvers still pending are freed with the client, after the poll thread stopped.
            loop?.stop { [self] in
                if let client { avahi_client_free(client) }
                boxes.removeAll()
            }
        }
    }

    /// A resolver's userdata: which lookup, which address.
    private final class Box: Sendable {
        let lookup: Lookup
        let address: IPAddress
        init(lookup: Lookup, address: IPAddress) {
            self.lookup = lookup
            self.address = address
        }
    }
}
