import DNSSD
import Glibc

/// getaddrinfo with a time limit. getaddrinfo blocks and cannot be cancelled, so each call
/// runs on a thread of its own (`BlockingThreads.lookups`); its caller returns at the time
/// limit or when its task is cancelled, whichever comes first, and a late answer is dropped.
package enum HostLookup {
    package struct Failure: Error, Sendable {
        /// What getaddrinfo said, as far as a diagnosis needs it.
        package enum Kind: Sendable, Hashable {
            /// The name does not exist (NXDOMAIN, or no such host in any source).
            case notFound
            /// No answer came in time, or the resolver failed for now (EAI_AGAIN).
            case noAnswer
            case other
        }

        package let message: String
        package var kind: Kind = .other

        package init(message: String, kind: Kind = .other) {
            self.message = message
            self.kind = kind
        }
    }

    /// The addresses of `host`, or why not. The caller waits at most `timeout`, and not at all
    /// once its task is cancelled: the lookup goes on in its thread and its answer is dropped.
    package static func addresses(of host: String, timeout: Duration) async -> Result<[IPAddress], Failure> {
        await addresses(of: host, timeout: timeout, lookup: lookup)
    }

    /// As above with `lookup` in getaddrinfo's place, for tests that hold a lookup as long as they need.
    static func addresses(
        of host: String, timeout: Duration, lookup: @escaping @Sendable (String) -> Result<[IPAddress], Failure>
    ) async -> Result<[IPAddress], Failure> {
        let cancelled = Failure(message: "looking up \(host) was cancelled", kind: .noAnswer)
        guard !Task.isCancelled else { return .failure(cancelled) }
        let answer = Latch<Result<[IPAddress], Failure>>()
        BlockingThreads.lookups.run { answer.deliver(lookup(host)) }
        let (result, timedOut) = await withDeadline(timeout) {
            await answer.value(onCancel: { answer.deliver(.failure(cancelled)) })
        }
        // An answer that came with the deadline still counts; the cancelled wait reads as the time limit.
        guard timedOut, case .failure = result else { return result }
        let waited = timeout.secondsText(fractionDigits: 1)
        let message = "looking up \(host) took longer than \(waited) s \(unanswered(host))"
        return .failure(Failure(message: message, kind: .noAnswer))
    }

    /// Who did not answer: for a `.local` name mDNS, never a DNS server.
    static func unanswered(_ host: String) -> String {
        isLocal(host) ? "(an mDNS name: no host answered by mDNS in time)" : "(a DNS server that does not answer?)"
    }

    /// A `.local` name: nsswitch asks mDNS (nss-mdns), not a DNS server.
    static func isLocal(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        return name.hasSuffix(".local")
    }

    static func lookup(_ host: String) -> Result<[IPAddress], Failure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            let reason = String(cString: gai_strerror(status))
            let kind: Failure.Kind = status == EAI_NONAME ? .notFound : status == EAI_AGAIN ? .noAnswer : .other
            return .failure(Failure(message: "cannot resolve \(host): \(reason)", kind: kind))
        }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var node = list
        while let entry = node {
            if let socket = entry.pointee.ai_addr, let address = IPAddress(socketAddress: socket) { addresses.append(address) }
            node = entry.pointee.ai_next
        }
        return .success(Array(Set(addresses)).sorted())
    }
}
