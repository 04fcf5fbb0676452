import CAvahi
import DNSSD
import Dispatch
import Glibc
import Host
import Synchronization

/// Asks the LAN, through avahi-daemon, which `.local` host answers for an address (an mDNS
/// reverse lookup, like `avahi-resolve -a`). Doctor uses it to tell "multicast does not
/// cross the network" (no answer from the Gateway host) from "multicast works but no
/// Gateway advertises" (the host answers, no beacon).
public enum AvahiAddressLookup {
    public enum Answer: Sendable, Hashable {
        /// The host's mDNS responder answered with this name.
        case name(String)
        /// No responder answered in time.
        case noAnswer
        /// Avahi could not be asked (no daemon, a bad address).
        case unavailable(String)
    }

    /// Looks all `addresses` up at once; returns within `timeout`.
    public static func names(of addresses: [IPAddress], timeout: Duration) async -> [IPAddress: Answer] {
        guard !addresses.isEmpty else { return [:] }
        return await withCheckedContinuation { continuation in
            let lookup = Lookup(addresses: addresses, continuation: continuation)
            lookup.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(timeout.milliseconds))) {
                lookup.finish()
            }
        }
    }

    /// One conversation with avahi-daemon. Callbacks arrive on Avahi's poll thread; the
    /// answers live behind a mutex, and the continuation is resumed exactly once.
    private final class Lookup: @unchecked Sendable {
        private struct State {
            var answers: [IPAddress: Answer] = [:]
            var continuation: CheckedContinuation<[IPAddress: Answer], Never>?
        }

        private let addresses: [IPAddress]
        private let state: Mutex<State>
        private var poll: OpaquePointer?
        private var client: OpaquePointer?
        private var started = false
        /// The resolvers' userdata; kept until the client (and its resolvers) is freed.
        private var boxes: [Box] = []

        init(addresses: [IPAddress], continuation: CheckedContinuation<[IPAddress: Answer], Never>) {
            self.addresses = addresses
            self.state = Mutex(State(continuation: continuation))
        }

        func start() {
            guard let poll = avahi_threaded_poll_new(), let api = avahi_threaded_poll_get(poll) else {
                return answerAll(.unavailable("could not create an Avahi event loop"))
            }
            self.poll = poll
            var error: Int32 = 0
            guard let client = avahi_client_new(api, AvahiClientFlags(0), { _, _, _ in }, nil, &error) else {
                return answerAll(.unavailable(AvahiDiagnosis.issue(for: error).message))
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
            started = avahi_threaded_poll_start(poll) == 0
            if !started { answerAll(.unavailable("could not start the Avahi event loop thread")) }
        }

        private func answer(_ address: IPAddress, _ answer: Answer) {
            let complete = state.withLock { state in
                if state.answers[address] == nil { state.answers[address] = answer }
                return state.answers.count == addresses.count
            }
            if complete { DispatchQueue.global().async { self.finish() } }
        }

        private func answerAll(_ answer: Answer) {
            for address in addresses { self.answer(address, answer) }
        }

        /// Ends the conversation (when all answered, or at the timeout): the rest had no answer.
        func finish() {
            let taken = state.withLock { state -> (CheckedContinuation<[IPAddress: Answer], Never>, [IPAddress: Answer])? in
                guard let continuation = state.continuation else { return nil }
                state.continuation = nil
                for address in addresses where state.answers[address] == nil { state.answers[address] = .noAnswer }
                return (continuation, state.answers)
            }
            guard let (continuation, answers) = taken else { return }
            // Resolvers still pending are freed with the client, after the poll thread stopped.
            if started, let poll { avahi_threaded_poll_stop(poll) }
            if let client { avahi_client_free(client) }
            if let poll { avahi_threaded_poll_free(poll) }
            continuation.resume(returning: answers)
        }
    }

    private final class Box: @unchecked Sendable {
        let lookup: Lookup
        let address: IPAddress
        init(lookup: Lookup, address: IPAddress) {
            self.lookup = lookup
            self.address = address
        }
    }
}
