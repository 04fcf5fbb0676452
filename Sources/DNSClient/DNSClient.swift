import DNSSD
import DNSWire
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSupport

/// Why a query got no usable answer. Answers with an error code (NXDOMAIN, SERVFAIL, ...)
/// are not failures here: they come back as responses and the caller reads the code.
package enum DNSQueryFailure: Error, Hashable, Sendable, CustomStringConvertible {
    case timeout(DNSServer, attempts: Int)
    /// Nothing listens on the server's port (ICMP port unreachable, or a TCP reset).
    case refused(DNSServer)
    /// No route, an address that cannot be used, a connection that broke: why, in words.
    case unreachable(DNSServer, String)
    case malformed(DNSServer, String)

    package var server: DNSServer {
        switch self {
        case .timeout(let server, _), .refused(let server), .unreachable(let server, _), .malformed(let server, _): server
        }
    }

    package var description: String {
        switch self {
        case .timeout(let server, let attempts): "no answer from \(server) (\(Plural.counted(attempts, "try", plural: "tries")))"
        case .refused(let server): "nothing listens on port \(server.port) of \(server.address) (connection refused)"
        case .unreachable(let server, let detail): "cannot reach \(server): \(detail)"
        case .malformed(let server, let detail): "\(server) sent a malformed answer: \(detail)"
        }
    }

    /// What to do about it: a refused port and a server out of reach need different fixes.
    package var fix: String {
        switch self {
        case .timeout:
            "the server does not answer: is it running and reachable (firewall, Tailscale up)?"
        case .refused(let server):
            "no DNS server runs on \(server.address) port \(server.port): start it, or give the port it listens on "
                + "(`ss -lunp` on that host shows it)"
        case .unreachable(let server, _):
            "check the server's address and this machine's route to it (`ip route get \(server.address.withoutZone)`)"
        case .malformed:
            "something other than a DNS server answers there, or a broken one: check what listens on that address and port"
        }
    }

    /// A socket error met while asking `server`, in words.
    static func socket(_ error: any Error, server: DNSServer, over transport: String = "") -> DNSQueryFailure {
        if let failure = error as? DNSQueryFailure { return failure }
        // The caller stopped waiting (cancelled): for it, no answer came.
        if error is CancellationError { return .timeout(server, attempts: 1) }
        switch SocketError(error) {
        case .refused?: return .refused(server)
        case .timedOut?: return .timeout(server, attempts: 1)
        case let socket?: return .unreachable(server, transport + socket.description)
        case nil: return .unreachable(server, transport + "the query failed unexpectedly")
        }
    }
}

package struct DNSResponse: Sendable {
    package let message: DNSMessage
    package let server: DNSServer
    package let overTCP: Bool

    package init(message: DNSMessage, server: DNSServer, overTCP: Bool) {
        self.message = message
        self.server = server
        self.overTCP = overTCP
    }
}

/// A stub DNS client: UDP with EDNS0, TCP when the answer is truncated, a bounded number of
/// queries in flight per server, each with a timeout and bounded retries.
package final class DNSClient: Sendable {
    package struct Options: Sendable {
        package var attemptTimeout: Duration = .milliseconds(800)
        package var attempts = 3
        package var maxInFlight = 100
        package init() {}

        /// Options whose every query ends within `bound`: its UDP tries, or the TCP query a
        /// truncated answer leads to (which gets `attemptTimeout * attempts`). Never slower to
        /// retry than the defaults.
        package init(within bound: Duration) {
            attemptTimeout = min(attemptTimeout, bound / attempts)
        }
    }

    /// What one question got from one server.
    package typealias Answer = Result<DNSResponse, DNSQueryFailure>

    let group: any EventLoopGroup
    let options: Options
    private let channels = NIOLockedValueBox<[DNSServer: EventLoopFuture<UDPQueryChannel>]>([:])
    private let logger = Logger(label: "clawnet.dns")

    package init(group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, options: Options = Options()) {
        self.group = group
        self.options = options
    }

    package func query(_ name: DNSName, _ type: RRType, server: DNSServer) async throws(DNSQueryFailure) -> DNSResponse {
        try await query([(name, type)], server: server)[0].get()
    }

    /// Every question asked of `server` at once: the queries are written together and flushed
    /// once, at most `maxInFlight` of them outstanding, each with its own tries; an answer
    /// truncated over UDP is asked again over TCP (RFC 7766). Results in the questions' order.
    package func query(_ questions: [DNSQuestionKey], server: DNSServer) async -> [Answer] {
        var results = [Answer?](repeating: nil, count: questions.count)
        var asked: [(index: Int, question: DNSQuestion)] = []
        for (index, key) in questions.enumerated() {
            do { asked.append((index, try encode(key.name, key.type, server))) } catch { results[index] = .failure(error) }
        }
        var answers: [Result<DNSMessage, any Error>]
        do {
            let channel = try await udpChannel(for: server).valueUnlessCancelled()
            answers = await channel.answers(asked.map(\.question))
        } catch {
            answers = Array(repeating: .failure(error), count: asked.count)
        }
        if answers.count != asked.count {
            answers = Array(repeating: .failure(DNSQueryFailure.unreachable(server, "socket closed")), count: asked.count)
        }
        var truncated: [(index: Int, question: DNSQuestion)] = []
        for (entry, answer) in zip(asked, answers) {
            switch answer {
            case .success(let message):
                logger.debug(
                    """
                    \(server) \(entry.question.type) \(entry.question.name): \(message.rcode), \(message.answers.count) answers\
                    \(message.truncated ? ", truncated" : "")
                    """)
                if message.truncated {
                    truncated.append(entry)
                } else {
                    results[entry.index] = .success(DNSResponse(message: message, server: server, overTCP: false))
                }
            case .failure(let error):
                results[entry.index] = .failure(.socket(error, server: server))
            }
        }
        for (index, result) in await overTCP(truncated, server: server) { results[index] = result }
        return results.map { $0! }
    }

    /// The most TCP connections one batch opens at once for answers truncated over UDP.
    static let tcpConcurrency = 8

    /// Asks again over TCP, `tcpConcurrency` at a time.
    private func overTCP(_ truncated: [(index: Int, question: DNSQuestion)], server: DNSServer) async -> [(Int, Answer)] {
        guard !truncated.isEmpty else { return [] }
        let (group, timeout) = (self.group, options.attemptTimeout * options.attempts)
        return await withTaskGroup(of: (Int, Answer).self) { tasks in
            var next = truncated.makeIterator()
            func startNext() -> Bool {
                guard let (index, question) = next.next() else { return false }
                tasks.addTask {
                    do throws(DNSQueryFailure) {
                        let message = try await TCPQuery.run(question, server: server, group: group, timeout: timeout)
                        return (index, .success(DNSResponse(message: message, server: server, overTCP: true)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
                return true
            }
            var running = 0
            while running < Self.tcpConcurrency, startNext() { running += 1 }
            var results: [(Int, Answer)] = []
            for await result in tasks {
                results.append(result)
                _ = startNext()
            }
            return results
        }
    }

    package func shutdown() async {
        let open = channels.withLockedValue { channels in
            defer { channels.removeAll() }
            return Array(channels.values)
        }
        for future in open {
            try? await future.flatMap { $0.channel.close() }.get()
        }
    }

    private func encode(_ name: DNSName, _ type: RRType, _ server: DNSServer) throws(DNSQueryFailure) -> DNSQuestion {
        do {
            return DNSQuestion(name: name, type: type, wire: try DNSWireCodec.query(name: name, type: type, id: 0))
        } catch {
            throw .malformed(server, error.message)
        }
    }

    private func udpChannel(for server: DNSServer) -> EventLoopFuture<UDPQueryChannel> {
        channels.withLockedValue { channels in
            if let existing = channels[server] { return existing }
            let created = UDPQueryChannel.connect(to: server, group: group, options: options)
            channels[server] = created
            // A channel that failed to open is not kept: the next query tries again.
            created.whenFailure { [weak self] _ in
                _ = self?.channels.withLockedValue { $0.removeValue(forKey: server) }
            }
            return created
        }
    }
}

/// A question by name and type, before it is encoded.
package typealias DNSQuestionKey = (name: DNSName, type: RRType)

/// One question, encoded with id 0; the transport writes its own id into the first two bytes.
struct DNSQuestion: Sendable {
    let name: DNSName
    let type: RRType
    let wire: [UInt8]

    func wire(id: UInt16) -> [UInt8] {
        var bytes = wire
        bytes[0] = UInt8(id >> 8)
        bytes[1] = UInt8(id & 0xFF)
        return bytes
    }

    /// The answer must echo the question: anything else is stray or spoofed.
    func matches(_ message: DNSMessage) -> Bool {
        guard message.isResponse, let echoed = message.question else { return false }
        return echoed.name == name && echoed.type == type
    }
}

extension DNSServer {
    func failedFuture<T>(on eventLoop: any EventLoop, _ failure: DNSQueryFailure) -> EventLoopFuture<T> {
        eventLoop.makeFailedFuture(failure)
    }
}
