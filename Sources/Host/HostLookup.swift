import DNSSD
import Dispatch
import Glibc
import Synchronization

/// getaddrinfo with a time limit. getaddrinfo blocks and cannot be cancelled, so each call
/// runs on a thread of its own (`BlockingThreads.lookups`) and a late answer is dropped.
public enum HostLookup {
    public struct Failure: Error, Sendable {
        /// What getaddrinfo said, as far as a diagnosis needs it.
        public enum Kind: Sendable, Hashable {
            /// The name does not exist (NXDOMAIN, or no such host in any source).
            case notFound
            /// No answer came in time, or the resolver failed for now (EAI_AGAIN).
            case noAnswer
            case other
        }

        public let message: String
        public var kind: Kind = .other
    }

    public static func addresses(of host: String, timeout: Duration) async -> Result<[IPAddress], Failure> {
        await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(timeout.milliseconds))) {
                once.resume(
                    .failure(
                        Failure(
                            message: "looking up \(host) took longer than \(timeout.secondsText(fractionDigits: 1)) s "
                                + "(a DNS server that does not answer?)",
                            kind: .noAnswer)))
            }
            BlockingThreads.lookups.run { once.resume(lookup(host)) }
        }
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

/// Resumes a continuation once; later results are dropped.
final class ResumeOnce<T: Sendable>: Sendable {
    private let state: Mutex<CheckedContinuation<T, Never>?>

    init(_ continuation: CheckedContinuation<T, Never>) {
        state = Mutex(continuation)
    }

    func resume(_ value: T) {
        state.withLock { continuation in
            continuation?.resume(returning: value)
            continuation = nil
        }
    }
}
