import DNSSD
import DNSWire
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSupport

/// Why a query got no usable answer. Answers with an error code (NXDOMAIN, SERVFAIL, ...)
/// are not failures here: they come back as responses and the caller reads the code.
public enum DNSQueryFailure: Error, Hashable, Sendable, CustomStringConvertible {
    case timeout(DNSServer, attempts: Int)
    /// Nothing listens on the server's port (ICMP port unreachable, or a TCP reset).
    case refused(DNSServer)
    /// No route, an address that cannot be used, a connection that broke: why, in words.
    case unreachable(DNSServer, String)
    case malformed(DNSServer, String)

    public var server: DNSServer {
        switch self {
        case .timeout(let server, _), .refused(let server), .unreachable(let server, _), .malformed(let server, _): server
        }
    }

    public var description: String {
        switch self {
        case .timeout(let server, let attempts): "no answer from \(server) (\(Plural.counted(attempts, "try", plural: "tries")))"
        case .refused(let server): "nothing listens on port \(server.port) of \(server.address) (connection refused)"
        case .unreachable(let server, let detail): "cannot reach \(server): \(detail)"
        case .malformed(let server, let detail): "\(server) sent a malformed answer: \(detail)"
        }
    }

    /// What to do about it: a refused port and a server out of reach need different fixes.
    public var fix: String {
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

public struct DNSResponse: Sendable {
    public let message: DNSMessage
    public let server: DNSServer
    public let overTCP: Bool

    public init(message: DNSMessage, server: DNSServer, overTCP: Bool) {
        self.message = message
        self.server = server
        self.overTCP = overTCP
    }
}

/// A stub DNS client: UDP with EDNS0, TCP when the answer is truncated, a bounded number of
/// queries in flight per server, each with a timeout and bounded retries.
public final class DNSClient: Sendable {
    public struct Options: Sendable {
        public var attemptTimeout: Duration = .milliseconds(800)
        public var attempts = 3
        public var maxInFlight = 100
        public init() {}

        /// Options whose every query ends within `bound`: its UDP tries, or the TCP query a
        /// truncated answer leads to (which gets `attemptTimeout * attempts`). Never slower to
        /// retry than the defaults.
        public init(within bound: Duration) {
            attemptTimeout = min(attemptTimeout, bound / attempts)
        }
    }

    let group: any EventLoopGroup
    let options: Options
    private let channels = NIOLockedValueBox<[DNSServer: EventLoopFuture<UDPQueryChannel>]>([:])
    private let logger = Logger(label: "clawnet.dns")

    public init(group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, options: Options = Options()) {
        self.group = group
        self.options = options
    }

    public func query(_ name: DNSName, _ type: RRType, server: DNSServer) async throws(DNSQueryFailure) -> DNSResponse {
        let question = try encode(name, type, server)
        let message: DNSMessage
        do {
            message = try await udpChannel(for: server).flatMap { $0.submit(question) }.valueUnlessCancelled()
        } catch {
            throw .socket(error, server: server)
        }
        logger.debug(
            "\(server) \(type) \(name): \(message.rcode), \(message.answers.count) answers\(message.truncated ? ", truncated" : "")")
        guard message.truncated else { return DNSResponse(message: message, server: server, overTCP: false) }
        // Truncated over UDP: ask again over TCP (RFC 7766).
        let tcpMessage = try await TCPQuery.run(question, server: server, group: group, timeout: options.attemptTimeout * options.attempts)
        return DNSResponse(message: tcpMessage, server: server, overTCP: true)
    }

    public func shutdown() async {
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

/// A connected UDP socket to one server and the queries in flight on it.
final class UDPQueryChannel: Sendable {
    let channel: any Channel
    private let handler: NIOLoopBound<DNSUDPHandler>

    private init(channel: any Channel, handler: NIOLoopBound<DNSUDPHandler>) {
        self.channel = channel
        self.handler = handler
    }

    static func connect(to server: DNSServer, group: any EventLoopGroup, options: DNSClient.Options) -> EventLoopFuture<UDPQueryChannel> {
        let eventLoop = group.next()
        // NIO traps on a datagram to some addresses (0.0.0.0, ::): they never get that far.
        if let problem = server.address.destinationProblem {
            return eventLoop.makeFailedFuture(DNSQueryFailure.unreachable(server, problem))
        }
        let address: SocketAddress
        do { address = try server.socketAddress } catch {
            return eventLoop.makeFailedFuture(DNSQueryFailure.unreachable(server, "\(server.address) cannot be used as a socket address"))
        }
        return DatagramBootstrap(group: eventLoop)
            .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 65_536))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(DNSUDPHandler(server: server, options: options))
                }
            }
            .connect(to: address)
            .flatMap { channel in
                channel.pipeline.handler(type: DNSUDPHandler.self).map { handler in
                    UDPQueryChannel(channel: channel, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop))
                }
            }
            .flatMapErrorThrowing { error in throw DNSQueryFailure.socket(error, server: server) }
    }

    func submit(_ question: DNSQuestion) -> EventLoopFuture<DNSMessage> {
        let handler = self.handler
        return channel.eventLoop.flatSubmit { handler.value.submit(question) }
    }
}

/// Owns the in-flight queries of one UDP socket; runs only on its event loop.
final class DNSUDPHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    /// The socket is connected: queries go out as bare buffers. An envelope would have to
    /// carry the peer's address exactly as NIO recorded it, and for an address the kernel
    /// rewrites on connect (0.0.0.0 and ::ffff:0.0.0.0 become 127.0.0.1) NIO traps instead.
    typealias OutboundOut = ByteBuffer

    private struct Pending {
        let question: DNSQuestion
        let promise: EventLoopPromise<DNSMessage>
        var attempt: Int
        var timer: Scheduled<Void>?
    }

    private let server: DNSServer
    private let options: DNSClient.Options
    private var context: ChannelHandlerContext?
    private var pending: [UInt16: Pending] = [:]
    private var waiting: [(DNSQuestion, EventLoopPromise<DNSMessage>)] = []
    /// The newest non-matching answer, reported if a query then times out.
    private var lastMismatch: String?

    init(server: DNSServer, options: DNSClient.Options) {
        self.server = server
        self.options = options
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func submit(_ question: DNSQuestion) -> EventLoopFuture<DNSMessage> {
        guard let context else {
            return server.failedFuture(on: MultiThreadedEventLoopGroup.singleton.next(), .unreachable(server, "socket closed"))
        }
        let promise = context.eventLoop.makePromise(of: DNSMessage.self)
        if pending.count >= options.maxInFlight {
            waiting.append((question, promise))
        } else {
            start(question, promise)
        }
        return promise.futureResult
    }

    private func start(_ question: DNSQuestion, _ promise: EventLoopPromise<DNSMessage>) {
        var id = UInt16.random(in: .min ... .max)
        while pending[id] != nil { id = UInt16.random(in: .min ... .max) }
        pending[id] = Pending(question: question, promise: promise, attempt: 0)
        send(id)
    }

    private func send(_ id: UInt16) {
        guard let context, var query = pending[id] else { return }
        query.attempt += 1
        let bytes = query.question.wire(id: id)
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        query.timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(options.attemptTimeout)) { [self] in
            timedOut(id)
        }
        pending[id] = query
    }

    private func timedOut(_ id: UInt16) {
        guard let query = pending[id] else { return }
        if query.attempt < options.attempts {
            send(id)
        } else {
            finish(id, .failure(lastMismatch.map { DNSQueryFailure.malformed(server, $0) } ?? .timeout(server, attempts: query.attempt)))
        }
    }

    private func finish(_ id: UInt16, _ result: Result<DNSMessage, DNSQueryFailure>) {
        guard let query = pending.removeValue(forKey: id) else { return }
        query.timer?.cancel()
        switch result {
        case .success(let message): query.promise.succeed(message)
        case .failure(let failure): query.promise.fail(failure)
        }
        if !waiting.isEmpty {
            let (next, promise) = waiting.removeFirst()
            start(next, promise)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        let bytes = Array(envelope.data.readableBytesView)
        guard bytes.count >= 2 else {
            lastMismatch = "a \(bytes.count)-byte datagram"
            return
        }
        let id = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        guard let query = pending[id] else { return }  // late or stray
        do {
            let message = try DNSWireCodec.decode(bytes)
            guard query.question.matches(message) else {
                lastMismatch = "an answer for another question"
                return
            }
            finish(id, .success(message))
        } catch {
            // Keep waiting for a good answer (a retry may get one); report it if none comes.
            lastMismatch = error.message
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // On a connected UDP socket an ICMP "port unreachable" arrives as ECONNREFUSED:
        // nothing listens there. Every query on this socket gets that answer.
        let failure = DNSQueryFailure.socket(error, server: server)
        for id in Array(pending.keys) { finish(id, .failure(failure)) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // The waiting go first: finishing a pending query would start one of them on the closed socket.
        let queued = waiting
        waiting.removeAll()
        for (_, promise) in queued { promise.fail(DNSQueryFailure.unreachable(server, "socket closed")) }
        for id in Array(pending.keys) { finish(id, .failure(.unreachable(server, "socket closed"))) }
        self.context = nil
    }
}

extension DNSServer {
    func failedFuture<T>(on eventLoop: any EventLoop, _ failure: DNSQueryFailure) -> EventLoopFuture<T> {
        eventLoop.makeFailedFuture(failure)
    }
}
